import Foundation
import LinkCore

/// The service's own endpoints, matched by path template with the same ``SegmentTrie`` that matches routes and
/// resources, then by method.
struct EndpointTable: Sendable {
    /// What a request path found.
    enum Match {
        case endpoint(Endpoint, parameters: [String: String])
        /// The path exists, the method does not; carries the allowed methods.
        case methodNotAllowed(template: String, allowed: [String])
        case notFound
    }

    private struct PathTemplate {
        var template: String
        var endpoints: [String: Endpoint]
    }

    private var templates: [PathTemplate] = []
    private let trie: SegmentTrie<Int>

    init(_ endpoints: [Endpoint]) {
        var templates: [PathTemplate] = []
        for endpoint in endpoints {
            if let index = templates.firstIndex(where: { $0.template == endpoint.template }) {
                templates[index].endpoints[endpoint.method] = endpoint
            } else {
                templates.append(PathTemplate(template: endpoint.template, endpoints: [endpoint.method: endpoint]))
            }
        }
        self.templates = templates
        trie = SegmentTrie(
            templates.enumerated().map { index, template in
                // `/v1/routes/{name}` is the pattern `/v1/routes/:name`; templates are fixed at build time.
                let pattern = template.template.replacingOccurrences(of: "{", with: ":")
                    .replacingOccurrences(of: "}", with: "")
                return SegmentTrie.Entry(try! Pattern(pattern), index)
            })
    }

    /// Every endpoint, for documentation tests.
    var endpoints: [Endpoint] { templates.flatMap { $0.endpoints.values } }

    /// Finds the endpoint for `method` on the raw (percent-encoded) `path`.
    func match(method: String, path: String) -> Match {
        guard let segments = EndpointTable.segments(of: path), let found = trie.match(segments) else {
            return .notFound
        }
        let template = templates[found.value]
        let lookup = method == "HEAD" ? "GET" : method
        guard let endpoint = template.endpoints[lookup] else {
            var allowed = template.endpoints.keys.sorted()
            if allowed.contains("GET") { allowed.append("HEAD") }
            return .methodNotAllowed(template: template.template, allowed: allowed)
        }
        var parameters: [String: String] = [:]
        for (name, value) in found.parameters { parameters[name] = value }
        return .endpoint(endpoint, parameters: parameters)
    }

    /// The decoded, non-empty segments of a raw path; `nil` when an escape is malformed. Splits the UTF-8 bytes
    /// (API paths are ASCII; splitting a `String` by `Character` would walk grapheme clusters).
    static func segments(of path: String) -> [String]? {
        var segments: [String] = []
        segments.reserveCapacity(4)
        let utf8 = path.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
            if start < end {
                guard let segment = PercentDecoding.decode(path[start..<end]) else { return nil }
                segments.append(segment)
            }
            start = end < utf8.endIndex ? utf8.index(after: end) : end
        }
        return segments
    }
}

/// Percent-decoding of one path segment or query component as UTF-8 (`+` stays a plus).
enum PercentDecoding {
    /// The decoded text, or `nil` for a malformed escape or invalid UTF-8.
    static func decode(_ text: some StringProtocol) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
