/// What the public listener does with one click (API.md §7 step 7's `decision`), with what it needs to answer.
public struct ClickDecision: Sendable {
    public enum Kind: String, Sendable {
        case redirect, preview, landing, intent
        case platformCheck = "platform_check"
        case notFound = "not_found"
        case expired
    }

    public var kind: Kind
    public var status: Int
    public var bot: BotKind?
    /// Whether the decision carries the input's deferred-link token (the server must keep it).
    public var tokenUsed = false
    /// Whether the decision is one that carries a deferred-link token when the click is counted (a store's landing
    /// page, a Play Store redirect), whether or not one was made: such a decision is made anew for every click.
    public var drawsToken = false
    private var storage: Storage

    /// The decision's strings and references, in one copy-on-write box: a decision passes from the decider through
    /// the engine to the listener, and a copy is then one retain instead of one per string and reference.
    ///
    /// `@unchecked Sendable`: a box is written only through ``unique()``, that is while one decision alone holds it,
    /// so no box is ever written while another thread can read it.
    private final class Storage: @unchecked Sendable {
        var target: String?
        var platform: String
        var resolution: Resolution?
        var clicked: Route?
        var page: [UInt8]?
        var token: String?

        init(
            target: String?, platform: String, resolution: Resolution?, clicked: Route?, page: [UInt8]?,
            token: String?
        ) {
            self.target = target
            self.platform = platform
            self.resolution = resolution
            self.clicked = clicked
            self.page = page
            self.token = token
        }

        func copy() -> Storage {
            Storage(
                target: target, platform: platform, resolution: resolution, clicked: clicked, page: page, token: token)
        }
    }

    /// The box, copied first if another decision shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// Where the person is sent (a redirect's `Location`, the store of a landing or intent page).
    public var target: String? {
        get { storage.target }
        set { unique().target = newValue }
    }
    /// `ios`, `android`, `desktop` or `ambiguous`.
    public var platform: String {
        get { storage.platform }
        set { unique().platform = newValue }
    }
    public var resolution: Resolution? {
        get { storage.resolution }
        set { unique().resolution = newValue }
    }
    /// The route the person clicked (the first match), under which the click counts.
    public var clicked: Route? {
        get { storage.clicked }
        set { unique().clicked = newValue }
    }
    /// The HTML page of a `200`, `404` or `410` answer.
    public var page: String? {
        get { storage.page.map { String(decoding: $0, as: UTF8.self) } }
        set { unique().page = newValue.map { Array($0.utf8) } }
    }
    /// ``page`` as the bytes of the response body.
    public var pageBytes: [UInt8]? {
        get { storage.page }
        set { unique().page = newValue }
    }
    /// The token the decision used.
    public var token: String? {
        get { storage.token }
        set { unique().token = newValue }
    }

    public init(
        kind: Kind, status: Int, target: String?, platform: String, bot: BotKind?, resolution: Resolution? = nil,
        clicked: Route? = nil, page: String? = nil
    ) {
        self.kind = kind
        self.status = status
        self.bot = bot
        storage = Storage(
            target: target, platform: platform, resolution: resolution, clicked: clicked,
            page: page.map { Array($0.utf8) }, token: nil)
    }

    /// The links listener's answer for a `Host` outside `links.hosts` (§7 step 1): not found, nothing resolved.
    public static func unknownHost(platform: String, bot: BotKind?) -> ClickDecision {
        ClickDecision(kind: .notFound, status: 404, target: nil, platform: platform, bot: bot)
    }

    /// `{"decision", "status", "target", "platform", "bot"}`, plus `resolution` when the caller may see it.
    public func json(includingResolution: Bool) -> JSONValue {
        var object: JSONObject = [
            "decision": .string(kind.rawValue), "status": .int(status), "target": target.map(JSONValue.string) ?? .null,
            "platform": .string(platform), "bot": bot.map { .string($0.rawValue) } ?? .bool(false),
        ]
        if includingResolution { object["resolution"] = resolution?.json() ?? .null }
        return .object(object)
    }
}

/// What a click is resolved with: the request's facts, read once.
public struct ClickFacts: Sendable {
    /// The texts read from the request, in one immutable box: a click hands its facts from the listener to the
    /// engine and the decider, and a copy is then one retain instead of one per string and array.
    private struct Texts: Sendable {
        var location: Location
        var link: Link
        var host: String
        var language: String?
        var userAgent: String?
        var referrer: String?
        var via: String
    }

    /// The link as clicked: given whole (an app open names it), or the target of a click on ``host``, written out
    /// only when read (most clicks never do: a redirect does not name it).
    private enum Link: Sendable {
        case given(String)
        case target(String)
    }

    private final class Box: Sendable {
        let texts: Texts
        init(_ texts: Texts) { self.texts = texts }
    }

    private var box: Box
    public var platform: Platform
    public var bot: BotKind?
    public var inAppBrowser: Bool

    /// The canonical location, without `_lsp` and `lst`.
    public var location: Location {
        get { box.texts.location }
        set { change { $0.location = newValue } }
    }
    /// `https://` + `Host` + path and query as received, without `_lsp` and `lst`.
    public var linkAsClicked: String {
        get { ClickFacts.link(box.texts) }
        set { change { $0.link = .given(newValue) } }
    }
    public var host: String {
        get { box.texts.host }
        set {
            change { texts in
                // The link stays the one clicked.
                texts.link = .given(ClickFacts.link(texts))
                texts.host = newValue
            }
        }
    }

    private static func link(_ texts: Texts) -> String {
        switch texts.link {
        case .given(let link): return link
        case .target(let target):
            var link = "https://"
            link.reserveCapacity(link.utf8.count + texts.host.utf8.count + target.utf8.count)
            link += texts.host
            link += target
            return link
        }
    }
    public var language: String? {
        get { box.texts.language }
        set { change { $0.language = newValue } }
    }
    public var userAgent: String? {
        get { box.texts.userAgent }
        set { change { $0.userAgent = newValue } }
    }
    public var referrer: String? {
        get { box.texts.referrer }
        set { change { $0.referrer = newValue } }
    }
    /// `click` or `app`.
    public var via: String {
        get { box.texts.via }
        set { change { $0.via = newValue } }
    }

    public init(
        location: Location, linkAsClicked: String, host: String, platform: Platform, bot: BotKind?,
        inAppBrowser: Bool = false, language: String? = nil, userAgent: String? = nil, referrer: String? = nil,
        via: String = "click"
    ) {
        self.init(
            Texts(
                location: location, link: .given(linkAsClicked), host: host, language: language, userAgent: userAgent,
                referrer: referrer, via: via), platform: platform, bot: bot, inAppBrowser: inAppBrowser)
    }

    /// The facts of a click on `https://` + `host` + `target` (path and query as received): ``linkAsClicked`` is
    /// written out when read.
    public init(
        location: Location, clickedTarget target: String, host: String, platform: Platform, bot: BotKind?,
        inAppBrowser: Bool = false, language: String? = nil, userAgent: String? = nil, referrer: String? = nil
    ) {
        self.init(
            Texts(
                location: location, link: .target(target), host: host, language: language, userAgent: userAgent,
                referrer: referrer, via: "click"), platform: platform, bot: bot, inAppBrowser: inAppBrowser)
    }

    private init(_ texts: Texts, platform: Platform, bot: BotKind?, inAppBrowser: Bool) {
        box = Box(texts)
        self.platform = platform
        self.bot = bot
        self.inAppBrowser = inAppBrowser
    }

    /// Replaces the box with a changed copy (other copies of these facts keep theirs).
    private mutating func change(_ edit: (inout Texts) -> Void) {
        var texts = box.texts
        edit(&texts)
        box = Box(texts)
    }

    /// `context.click` for redirect rules.
    public var context: JSONValue {
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
    ///
    /// The header is any text a client sends: empty list elements are skipped (RFC 9110 §5.6.1), and an element
    /// without a tag (`;q=1`) or a wildcard gives `nil`, as no header does.
    public static func language(_ header: String?) -> String? {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let header, let element = header.split(separator: ",").first(where: { !$0.allSatisfy(isSpace) }) else {
            return nil
        }
        var tag = element.prefix { $0 != ";" }.drop(while: isSpace)
        while let last = tag.last, isSpace(last) { tag.removeLast() }
        return tag.isEmpty || tag == "*" ? nil : String(tag)
    }
}
