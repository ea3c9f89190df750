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
    let shallow = try? JSONParser.parse(input.bytes, maxDepth: 2)
    invariant((shallow != nil) == (depth <= 2), "limit 2 accepts depth \(depth): \(shallow != nil)")
    return 0
}
