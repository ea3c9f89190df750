import Testing

@testable import LinkServer

/// The endpoint table: literal templates are found by their text, everything else by the trie, with one answer.
@Suite struct EndpointTableTests {
    static let table = EndpointTable(
        [
            Endpoint("GET", "/a/{x}", .open) { _, _ in .now(.noContent) },
            Endpoint("GET", "/a/b", .open) { _, _ in .now(.noContent) },
            Endpoint("POST", "/a/b", .open) { _, _ in .now(.noContent) },
            Endpoint("GET", "/healthz", .open) { _, _ in .now(.noContent) },
        ])

    static func found(_ method: String, _ path: String) -> String {
        switch table.match(method: method, path: path) {
        case .endpoint(let endpoint, let label, let parameters):
            let shown = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            #expect(label.name == endpoint.template)
            return "\(endpoint.method) \(endpoint.template) \(shown)"
        case .methodNotAllowed(let label, let allowed): return "405 \(label.name) \(allowed.joined(separator: ","))"
        case .undecodable(let label): return "400 \(label.name)"
        case .notFound: return "404"
        }
    }

    @Test(arguments: [
        ("GET", "/a/b", "GET /a/b "),
        ("HEAD", "/a/b", "GET /a/b "),
        ("POST", "/a/b", "POST /a/b "),
        ("DELETE", "/a/b", "405 /a/b GET,POST,HEAD"),
        // The same template reached through the trie: a trailing slash, an encoded letter.
        ("GET", "/a/b/", "GET /a/b "),
        ("GET", "/a/%62", "GET /a/b "),
        ("DELETE", "/a/%62", "405 /a/b GET,POST,HEAD"),
        ("GET", "/a/c", "GET /a/{x} x=c"),
        ("GET", "/a/%7Bx%7D", "GET /a/{x} x={x}"),
        ("POST", "/a/c", "405 /a/{x} GET,HEAD"),
        ("GET", "/healthz", "GET /healthz "),
        ("GET", "/healthz/", "GET /healthz "),
        ("GET", "/HEALTHZ", "404"),
        // A segment that does not decode where a parameter stands; elsewhere nothing matches.
        ("GET", "/a/%zz", "400 /a/{x}"),
        ("POST", "/a/%FF", "400 /a/{x}"),
        ("GET", "/a/%zz/c", "404"),
        ("GET", "/%zz/b", "404"),
        ("GET", "/a", "404"),
    ])
    func literalAndTrieMatchAgree(method: String, path: String, expected: String) {
        #expect(Self.found(method, path) == expected)
    }
}
