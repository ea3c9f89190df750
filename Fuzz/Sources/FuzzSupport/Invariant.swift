/// Stops the fuzzer with a message when a property the contract promises does not hold.
///
/// libFuzzer reports the trap as a crash and keeps the input, exactly as for a crash inside LinkCore.
public func invariant(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition() { fatalError("invariant failed: \(message())", file: file, line: line) }
}
