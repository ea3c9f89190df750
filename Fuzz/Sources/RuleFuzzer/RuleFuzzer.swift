import FuzzSupport
import LinkCore

/// JSON Logic compilation and evaluation (`POST /v1/rules/evaluate`, redirect `when`).
///
/// Input: a JSON document `{"rule": …, "data": …}`; any other JSON is taken as a rule over `null`.
/// Properties: compiling and evaluating throw `LinkError`/`RuleError` or return, never trap or hang; evaluation is
/// deterministic (the same result or error twice); a result encodes to JSON that parses; and evaluation stays within
/// the work budget's time, checked per input size (issue 19 item 11): at most 1 s plus 100 µs per input byte, far
/// above an honest evaluation and far below an uncharged quadratic scan of a large input.
func ruleFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let document = FuzzInput(data, size).json else { return 0 }
    let expression: JSONValue
    let ruleData: JSONValue
    if let object = document.objectValue, let rule = object["rule"] {
        expression = rule
        ruleData = object["data"] ?? .null
    } else {
        expression = document
        ruleData = .null
    }
    let rule: Rule
    do {
        rule = try Rule(expression)
    } catch {
        invariant(error.code == .invalidRule, "compile error with code \(error.code)")
        return 0
    }
    let clock = ContinuousClock()
    let started = clock.now
    let first = outcome(rule, ruleData)
    let elapsed = clock.now - started
    invariant(
        elapsed <= .seconds(1) + .microseconds(100 * size),
        "evaluating a \(size)-byte input took \(elapsed): the work budget does not bound it")
    let second = outcome(rule, ruleData)
    invariant(first == second, "evaluation is not deterministic: \(first) then \(second)")
    return 0
}

/// The encoded result, or the encoded error type.
private func outcome(_ rule: Rule, _ data: JSONValue) -> String {
    do {
        let result = try rule.evaluate(data)
        let encoded = result.encoded()
        invariant((try? JSONParser.parse(encoded, maxDepth: .max)) != nil, "result does not encode to JSON")
        return "result " + String(decoding: encoded, as: UTF8.self)
    } catch {
        return "error " + error.type.encodedString()
    }
}
