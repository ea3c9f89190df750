import LinkCore

/// What the public listener does with one click (API.md §7 step 7's `decision`), with what it needs to answer.
struct ClickDecision: Sendable {
    enum Kind: String, Sendable {
        case redirect, preview, landing, intent
        case platformCheck = "platform_check"
        case notFound = "not_found"
        case expired
    }

    var kind: Kind
    var status: Int
    /// Where the person is sent (a redirect's `Location`, the store of a landing or intent page).
    var target: String?
    /// `ios`, `android`, `desktop` or `ambiguous`.
    var platform: String
    var bot: BotKind?
    var resolution: Resolution?
    /// The route the person clicked (the first match), under which the click counts.
    var clicked: Route?
    /// The HTML page of a `200`, `404` or `410` answer.
    var page: String?

    /// `{"decision", "status", "target", "platform", "bot"}`, plus `resolution` when the caller may see it.
    func json(includingResolution: Bool) -> JSONValue {
        var object: JSONObject = [
            "decision": .string(kind.rawValue), "status": .int(status), "target": target.map(JSONValue.string) ?? .null,
            "platform": .string(platform), "bot": bot.map { .string($0.rawValue) } ?? .bool(false),
        ]
        if includingResolution { object["resolution"] = resolution?.json() ?? .null }
        return .object(object)
    }
}

/// What a click is resolved with: the request's facts, read once.
struct ClickFacts: Sendable {
    /// The canonical location, without `_lsp` and `lst`.
    var location: Location
    /// `https://` + `Host` + path and query as received, without `_lsp` and `lst`.
    var linkAsClicked: String
    var host: String
    var platform: Platform
    var bot: BotKind?
    var inAppBrowser: Bool
    var language: String?
    var userAgent: String?
    var referrer: String?
    /// `click` or `app`.
    var via: String

    /// `context.click` for redirect rules.
    var context: JSONValue {
        [
            "click": [
                "platform": .string(platform.rawValue), "bot": bot.map { .string($0.rawValue) } ?? .bool(false),
                "language": language.map(JSONValue.string) ?? .null,
                "userAgent": userAgent.map(JSONValue.string) ?? .null,
                "referrer": referrer.map(JSONValue.string) ?? .null, "via": .string(via),
            ]
        ]
    }

    /// The first language tag of an `Accept-Language` header (`de-CH` of `de-CH,de;q=0.9`), or `nil`.
    static func language(_ header: String?) -> String? {
        guard let header else { return nil }
        let first = header.split(separator: ",").first.map { $0.split(separator: ";")[0].trimmingSpaces } ?? ""
        return first.isEmpty || first == "*" ? nil : String(first)
    }
}
