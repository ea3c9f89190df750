import LinkCore

/// The service's own endpoints, matched by path template and then by method.
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
        /// `nil` for a `{parameter}` segment.
        var literals: [String?]
        var names: [String]
        var endpoints: [String: Endpoint]
    }

    private var templates: [PathTemplate] = []

    init(_ endpoints: [Endpoint]) {
        for endpoint in endpoints {
            if let index = templates.firstIndex(where: { $0.template == endpoint.template }) {
                templates[index].endpoints[endpoint.method] = endpoint
                continue
            }
            let segments = endpoint.template.split(separator: "/").map(String.init)
            templates.append(
                PathTemplate(
                    template: endpoint.template,
                    literals: segments.map { $0.hasPrefix("{") ? nil : $0 },
                    names: segments.filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) },
                    endpoints: [endpoint.method: endpoint]))
        }
    }

    /// Every endpoint, for documentation tests.
    var endpoints: [Endpoint] { templates.flatMap { $0.endpoints.values } }

    /// Finds the endpoint for `method` on the raw (percent-encoded) `path`.
    func match(method: String, path: String) -> Match {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        for template in templates where template.literals.count == segments.count {
            var values: [String] = []
            var matched = true
            for (literal, segment) in zip(template.literals, segments) {
                if let literal {
                    if literal != segment {
                        matched = false
                        break
                    }
                } else {
                    values.append(PercentDecoding.decode(segment) ?? String(segment))
                }
            }
            guard matched else { continue }
            let lookup = method == "HEAD" ? "GET" : method
            guard let endpoint = template.endpoints[lookup] else {
                var allowed = template.endpoints.keys.sorted()
                if allowed.contains("GET") { allowed.append("HEAD") }
                return .methodNotAllowed(template: template.template, allowed: allowed)
            }
            return .endpoint(endpoint, parameters: Dictionary(uniqueKeysWithValues: zip(template.names, values)))
        }
        return .notFound
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
