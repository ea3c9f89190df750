import LinkCore

/// What the links listener would do, asked on the API listener (the console's *Try a link* and association views,
/// API.md §13; the console may not call the other listener: its `Content-Security-Policy` allows only its own
/// origin). Nothing here is counted, recorded or emitted, and no token is made.
struct LinkInspectionEndpoints: Sendable {
    let engine: LinkEngine
    let association: AssociationFiles
    /// The host of "the link as clicked" for a bare location (the first `links.hosts` entry without `*`).
    let linkHost: String?
    /// `links.hosts`: a full URL on another host is answered as the listener answers its `Host` (§7 step 1).
    let hosts: HostAllowList?

    var endpoints: [Endpoint] {
        [
            Endpoint("GET", "/v1/links/decision", .read) { request, _ in
                .now(.json(try decision(request).json(includingResolution: true)))
            }.usingStore(),
            Endpoint("GET", "/v1/links/association-files", .read) { _, _ in
                .now(.json(associationFiles()))
            },
        ]
    }

    /// §7's decision for `url` as clicked from `platform` (default `desktop`) by a person, or by a `bot` kind.
    private func decision(_ request: Request) throws -> ClickDecision {
        var values: [String: String] = [:]
        for (key, value) in try request.queryItems() where ["url", "platform", "bot"].contains(key) {
            values[key] = value
        }
        guard let url = values["url"], !url.isEmpty else {
            throw LinkError(.invalidRequest, "Query parameter 'url' is required", details: ["field": "url"])
        }
        guard let platform = Platform(rawValue: values["platform"] ?? "desktop") else {
            throw LinkError(
                .invalidRequest, "Query parameter 'platform' must be ios, android, desktop or ambiguous",
                details: ["field": "platform"])
        }
        var bot: BotKind?
        if let kind = values["bot"], kind != "false" {
            guard let parsed = BotKind(rawValue: kind) else {
                throw LinkError(
                    .invalidRequest, "Query parameter 'bot' must be preview, crawler or false",
                    details: ["field": "bot"])
            }
            bot = parsed
        }
        let location = try Location(url)
        if let host = location.host, let hosts, !hosts.allows(host) {
            // The listener's 404 for a `Host` outside `links.hosts`: nothing is resolved.
            return ClickDecision.unknownHost(platform: platform.rawValue, bot: bot)
        }
        let bare = Location(segments: location.segments, query: location.query)
        let host = location.host ?? linkHost ?? "localhost"
        let facts = ClickFacts(
            location: bare, linkAsClicked: "https://" + host + bare.description, host: host, platform: platform,
            bot: bot, inAppBrowser: false, language: nil, userAgent: nil, referrer: nil, via: "click")
        return try engine.decide(facts, lsp: nil, counted: false, now: WallClock.milliseconds())
    }

    /// `{"apple": {"etag", "bytes", "body"} | null, "android": … | null}`: the two files as the links listener
    /// serves them (`null` without that app).
    private func associationFiles() -> JSONValue {
        let built = association.files(for: engine.routes.published)
        func describe(_ file: AssociationFiles.File?) -> JSONValue {
            guard let file else { return .null }
            return [
                "etag": .string(file.etag), "bytes": .int(file.body.count),
                "body": (try? JSONParser.parse(file.body)) ?? .null,
            ]
        }
        return ["apple": describe(built.apple), "android": describe(built.android)]
    }
}
