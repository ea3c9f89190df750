import FuzzSupport
import LinkCore

/// JSON Logic compilation and evaluation (`POST /v1/rules/evaluate`, redirect `when`).
///
/// Input: a JSON document `{"rule": …, "data": …}`; any other JSON is taken as a rule over `null`.
/// Properties: compiling and evaluating throw `LinkError`/`RuleError` or return, never trap or hang; evaluation is
/// deterministic (the same result or error twice); a result encodes to JSON that parses.
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
    let first = outcome(rule, ruleData)
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
