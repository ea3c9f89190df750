/// Bytes written into a buffer it owns and grows itself (doubling), for the writers of hot answers (``JSONWriter``,
/// the link pages' `HTMLBytes`).
///
/// Appending to an `Array` checks its uniqueness and capacity on every append and goes through the generic
/// `append(contentsOf:)`: ~90–120 instructions a piece, which was most of the cost of a resolve answer and a third
/// of a preview page's (docs/benchmarks.md). Noncopyable, so the buffer has one owner.
///
/// The bytes live in a `ManagedBuffer` rather than memory from `UnsafeMutablePointer.allocate`: on Linux, `allocate`
/// asks the runtime for "default" alignment, which it serves with `posix_memalign` (~90 instructions more than
/// `malloc` on an answer's small buffer, ~350 on a page's 1.5 KiB); an object is allocated with `malloc`.
struct ByteOutput: ~Copyable {
    /// Keeps ``start``'s memory alive; never read otherwise.
    private var storage: ManagedBuffer<Void, UInt8>
    private var start: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        (storage, start) = ByteOutput.buffer(self.capacity)
    }

    /// A buffer of `capacity` bytes and where they start (stable while the buffer lives).
    private static func buffer(_ capacity: Int) -> (ManagedBuffer<Void, UInt8>, UnsafeMutablePointer<UInt8>) {
        let buffer = ManagedBuffer<Void, UInt8>.create(minimumCapacity: capacity) { _ in () }
        return (buffer, buffer.withUnsafeMutablePointerToElements { $0 })
    }

    /// Room for `more` bytes past the end, for the `…Reserved` appends.
    @inline(__always)
    mutating func reserve(_ more: Int) {
        if count + more > capacity { grow(to: count + more) }
    }

    private mutating func grow(to needed: Int) {
        let larger = max(needed, capacity * 2)
        let (buffer, moved) = ByteOutput.buffer(larger)
        moved.update(from: start, count: count)
        (storage, start) = (buffer, moved)
        capacity = larger
    }

    /// A byte for which room was reserved.
    @inline(__always)
    mutating func appendReserved(_ byte: UInt8) {
        start[count] = byte
        count += 1
    }

    /// Bytes for which room was reserved.
    @inline(__always)
    mutating func appendReserved(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (start + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        appendReserved(byte)
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        appendReserved(bytes)
    }

    /// Lets `write` write at most `maximum` bytes at the end; it returns how many it wrote.
    mutating func append(atMost maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximum)
        count += write(start + count)
    }

    /// A string's UTF-8, lent in place.
    mutating func append(_ text: String) {
        text.withUTF8Bytes { append($0) }
    }

    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Calls `body` with the bytes written so far.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: start, count: count))
    }

    /// The bytes written so far, copied.
    var bytes: [UInt8] { withBytes { Array($0) } }

    /// The bytes written, then `suffix` if given (a response's final newline), in one new array.
    consuming func finish(appending suffix: UInt8? = nil) -> [UInt8] {
        // Not `Array(unsafeUninitializedCapacity:)`: it looks up the array storage's generic type on every call
        // (~330 instructions); growing an empty array uses the type specialized for bytes.
        var array: [UInt8] = []
        array.reserveCapacity(count + 1)
        array.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
        if let suffix { array.append(suffix) }
        return array
    }
}
