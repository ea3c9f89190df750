/// A registered route, as `GET /v1/routes` lists it: flattened, with its full pattern and where it came from.
public struct Route: Sendable, Hashable, Decodable {
    public let name: String?
    /// The full pattern, e.g. `/users/:id/posts/:postId`.
    public let pattern: String
    /// `config` (read-only through the API) or `api`.
    public let source: String
    /// The parent route's full pattern, for a child.
    public let parent: String?
    /// The path as written in the definition (relative for a child).
    public let path: String
    public let destination: JSONValue
    public let presentation: String?
    public let sameRoute: String
    public let caseInsensitive: Bool
    /// The redirect rules, as JSON.
    public let redirect: [JSONValue]
    /// The hosted-link settings (API.md §7), or `null`.
    public let link: JSONValue

    enum CodingKeys: String, CodingKey {
        case name, pattern, source, parent, path, destination, presentation, sameRoute, caseInsensitive, redirect
        case link
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        pattern = try container.decode(String.self, forKey: .pattern)
        source = try container.decode(String.self, forKey: .source)
        parent = try container.decodeIfPresent(String.self, forKey: .parent)
        path = try container.decode(String.self, forKey: .path)
        destination = try container.decodeIfPresent(JSONValue.self, forKey: .destination) ?? .null
        presentation = try container.decodeIfPresent(String.self, forKey: .presentation)
        sameRoute = try container.decode(String.self, forKey: .sameRoute)
        caseInsensitive = try container.decode(Bool.self, forKey: .caseInsensitive)
        redirect = try container.decode([JSONValue].self, forKey: .redirect)
        link = try container.decodeIfPresent(JSONValue.self, forKey: .link) ?? .null
    }
}
