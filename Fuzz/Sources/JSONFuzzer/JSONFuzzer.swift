import FuzzSupport
import LinkCore

/// JSON body decoding with the API's depth limit (64), and the encoder.
///
/// Input: any bytes, as a request body.
/// Properties: an accepted document nests no deeper than the limit; its encoding is valid JSON that reads back to
/// the same value (bar non-finite numbers, which encode as `null`) and encodes to the same bytes again. The same
/// bytes under a tiny limit are accepted only when shallow enough.
func jsonFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let value = try? JSONParser.parse(input.bytes, maxDepth: JSONParser.defaultMaxDepth) else { return 0 }
    let depth = value.depth
    invariant(depth <= JSONParser.defaultMaxDepth, "accepted a document of depth \(depth)")
    let encoded = value.encoded()
    let reparsed: JSONValue
    do {
        reparsed = try JSONParser.parse(encoded, maxDepth: JSONParser.defaultMaxDepth)
    } catch {
        invariant(false, "encoding \(value.encodedString()) does not parse: \(error)")
        return 0
    }
    invariant(reparsed.encoded() == encoded, "encoding is not stable: \(value.encodedString())")
    if !value.containsNonFinite {
        invariant(reparsed == value, "\(value.encodedString()) reads back as a different value")
    }
    // The limit is on the text's nesting, which can exceed the value's: a repeated key keeps only its last value,
    // so `{"a": [[1]], "a": 1}` nests 3 deep but reads as depth 1.
    let nesting = textNesting(input.bytes)
    invariant(depth <= nesting, "the value (depth \(depth)) nests deeper than its text (\(nesting))")
    let shallow = try? JSONParser.parse(input.bytes, maxDepth: 2)
    invariant((shallow != nil) == (nesting <= 2), "limit 2 accepts text nesting \(nesting): \(shallow != nil)")
    return 0
}

/// How deep the brackets of an accepted JSON text nest, strings skipped.
func textNesting(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var deepest = 0
    var level = 0
    var inString = false
    var escaped = false
    for byte in bytes {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            level += 1
            deepest = max(deepest, level)
        case UInt8(ascii: "]"), UInt8(ascii: "}"): level -= 1
        default: break
        }
    }
    return deepest
}
