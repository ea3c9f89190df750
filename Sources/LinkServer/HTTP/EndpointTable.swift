import Foundation
import LinkCore

/// The service's own endpoints, matched by path template with the same ``SegmentTrie`` that matches routes and
/// resources, then by method.
struct EndpointTable: Sendable {
    /// What a request path found.
    enum Match {
        /// The endpoint, its template's label (for logs and metrics) and the path's parameters.
        case endpoint(Endpoint, label: EndpointLabel, parameters: [String: String])
        /// The path exists, the method does not; carries its template's label and the allowed methods.
        case methodNotAllowed(EndpointLabel, allowed: [String])
        /// The path names an endpoint, but one of its segments does not decode (a bad percent-escape, bytes that
        /// are not UTF-8, a control character): a bad URL (API.md §1 `invalid_url`), not a missing endpoint.
        case undecodable(EndpointLabel)
        case notFound
    }

    private struct PathTemplate {
        var template: String
        /// Every method of the template is counted under it.
        var label: EndpointLabel
        /// By method; a handful at most, so found by comparing the method rather than hashing it.
        var endpoints: [(method: String, endpoint: Endpoint)]
    }

    private var templates: [PathTemplate] = []
    private let trie: SegmentTrie<Int>
    /// The templates without parameters (their indices in ``templates``): a request for exactly one of them
    /// (`/healthz`, `/v1/resolve`) is found without splitting and decoding its path for the trie. Compared with the
    /// few of the path's length, not hashed: hashing a path (SipHash) cost more than the comparisons.
    private let literals: [Int]
    /// The length in bytes of each of ``literals``, apart: a scan over plain integers.
    private let literalLengths: [Int]

    init(_ endpoints: [Endpoint]) {
        var templates: [PathTemplate] = []
        for endpoint in endpoints {
            if let index = templates.firstIndex(where: { $0.template == endpoint.template }) {
                if let same = templates[index].endpoints.firstIndex(where: { $0.method == endpoint.method }) {
                    templates[index].endpoints[same].endpoint = endpoint
                } else {
                    templates[index].endpoints.append((endpoint.method, endpoint))
                }
            } else {
                templates.append(
                    PathTemplate(
                        template: endpoint.template, label: EndpointLabel(endpoint.template),
                        endpoints: [(endpoint.method, endpoint)]))
            }
        }
        self.templates = templates
        literals = templates.indices.filter { !templates[$0].template.contains("{") }
        literalLengths = literals.map { templates[$0].template.utf8.count }
        trie = SegmentTrie(
            templates.enumerated().map { index, template in
                // `/v1/routes/{name}` is the pattern `/v1/routes/:name`; templates are fixed at build time.
                let pattern = template.template.replacingOccurrences(of: "{", with: ":")
                    .replacingOccurrences(of: "}", with: "")
                return SegmentTrie.Entry(try! Pattern(pattern), index)
            })
    }

    /// Every endpoint, for documentation tests.
    var endpoints: [Endpoint] { templates.flatMap { $0.endpoints.map(\.endpoint) } }

    /// Finds the endpoint for `method` on the raw (percent-encoded) `path`.
    func match(method: String, path: String) -> Match {
        // A path spelled as a literal template is that template: the trie prefers literal segments too.
        let length = path.utf8.count
        for slot in literalLengths.indices where literalLengths[slot] == length {
            let index = literals[slot]
            if templates[index].template == path {
                return match(method: method, in: templates[index], parameters: [:])
            }
        }
        guard let segments = Location.segments(ofPath: path) else {
            // Matched as written: the templates' literal segments never hold a `%`, so an undecodable segment can
            // only stand where a parameter does.
            let raw = path.split(separator: "/").map(String.init)
            return trie.match(raw).map { .undecodable(templates[$0.value].label) } ?? .notFound
        }
        guard let found = trie.match(segments) else { return .notFound }
        var parameters: [String: String] = [:]
        for (name, value) in found.parameters { parameters[name] = value }
        return match(method: method, in: templates[found.value], parameters: parameters)
    }

    private func match(method: String, in template: PathTemplate, parameters: [String: String]) -> Match {
        let lookup = method == "HEAD" ? "GET" : method
        guard let endpoint = template.endpoints.first(where: { $0.method == lookup })?.endpoint else {
            var allowed = template.endpoints.map(\.method).sorted()
            if allowed.contains("GET") { allowed.append("HEAD") }
            return .methodNotAllowed(template.label, allowed: allowed)
        }
        return .endpoint(endpoint, label: template.label, parameters: parameters)
    }
}
