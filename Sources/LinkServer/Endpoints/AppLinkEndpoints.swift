import LinkCore

/// `POST /v1/links/opens` (API.md §8) and `POST /v1/deferred/claim` (§9): what an app reports and asks after a
/// link opened it or after it was installed. Served on both listeners with the same bodies and errors.
struct AppLinkEndpoints: Sendable {
    let engine: LinkEngine
    let auth: TokenCheck
    /// The longest request target a click can carry (`server.maxURIBytes`): an opened `url` is no longer than such a
    /// link (an open's body may hold up to `server.maxBodyBytes`, and the whole location goes into the open's
    /// `linkClick` event).
    var maxURIBytes = DaemonSettings().maxURIBytes

    var endpoints: [Endpoint] {
        [
            Endpoint("POST", AppLinkEndpoints.opensPath, .read) { request, _ in
                let fields = try JSONFields(try request.jsonBody(), allowed: ["url", "platform"])
                let url = try fields.requiredString("url")
                // The click's target, and room for what an absolute URL adds to it: `https://`, a host name of the
                // longest DNS allows, a port.
                let maxURLBytes = maxURIBytes + 8 + 255 + 6
                if url.utf8.count > maxURLBytes {
                    throw LinkError(
                        .invalidURL,
                        "Field 'url' is longer than \(maxURLBytes) bytes, the longest link a click carries",
                        details: ["field": "url", "max": .int(maxURLBytes)])
                }
                let platform = try fields.requiredString("platform")
                guard let parsed = Platform(rawValue: platform), parsed == .ios || parsed == .android else {
                    throw LinkError(
                        .invalidRequest, "Field 'platform' must be \"ios\" or \"android\"",
                        details: ["field": "platform"])
                }
                let answer = try engine.open(url: url, platform: parsed, now: WallClock.milliseconds())
                return .now(.json(answer.json(includingResolution: auth.allowsRead(request))))
            }.usingStore(),
            Endpoint("POST", AppLinkEndpoints.claimPath, .read) { request, _ in
                let fields = try JSONFields(try request.jsonBody(), allowed: ["token", "installId"])
                let token = try fields.requiredString("token")
                // Optional (§9): `null`, as many JSON encoders write an absent optional, is no `installId`; so is
                // `""`, which would let every app that sends it repeat another device's claim.
                let given = fields["installId"]?.isNull == true ? nil : try fields.string("installId")
                let installID = given?.isEmpty == true ? nil : given
                // Kept on the token's row for its whole life: unbounded, one client could fill the disk with them.
                if let installID, installID.unicodeScalars.count > AppLinkEndpoints.maxInstallIDLength {
                    throw LinkError(
                        .invalidRequest,
                        "Field 'installId' is longer than \(AppLinkEndpoints.maxInstallIDLength) characters",
                        details: ["field": "installId", "max": .int(AppLinkEndpoints.maxInstallIDLength)])
                }
                let now = WallClock.milliseconds()
                let claimed =
                    DeferredTokens.isWellFormed(token)
                    ? try engine.store.claimDeferredToken(
                        token, installID: installID, now: now, repeatWindow: AppLinkEndpoints.repeatWindow) : nil
                guard let claimed else {
                    throw LinkError(
                        .unknownToken, "The token is unknown, expired or already claimed", details: [:])
                }
                return .now(
                    .json([
                        "resolution": claimed.resolution,
                        "clickedAt": .string(UTCCalendar.rfc3339(milliseconds: claimed.clickedAt)),
                        "platform": .string(claimed.platform), "link": .string(claimed.link),
                    ]))
            }.usingStore(),
        ]
    }

    /// The two paths, served on both listeners (the links listener routes them itself).
    static let opensPath = "/v1/links/opens"
    static let claimPath = "/v1/deferred/claim"

    /// A repeat claim with the same `installId` within 10 minutes gets the same answer again.
    static let repeatWindow: Int64 = 10 * 60 * 1000
    /// The longest `installId`, in Unicode scalars (JSON Schema's `maxLength`): an id an app makes (a UUID is 36)
    /// with room to spare.
    static let maxInstallIDLength = 256
}

/// The answer to an app open: `{"decision": "open" | "expired" | "not_found", "target", "resolution"}`.
struct OpenAnswer: Sendable {
    var decision: String
    var target: String?
    var resolution: Resolution?

    func json(includingResolution: Bool) -> JSONValue {
        var object: JSONObject = [
            "decision": .string(decision), "target": target.map(JSONValue.string) ?? .null,
        ]
        object["resolution"] = includingResolution ? resolution?.json() ?? .null : .null
        return .object(object)
    }
}

extension LinkEngine {
    /// Records an app open (API.md §8): resolved as a click with `via: "app"`, expiry and `maxClicks` applied,
    /// counted as an open, emitted as `linkClick`.
    func open(url given: String, platform: Platform, now: Int64) throws -> OpenAnswer {
        // As for a click (§7 step 1), the reserved items `_lsp` and `lst` are gone before anything sees the link.
        let url = LinksDispatcher.withoutReservedItems(given)
        let location = try Location(url)
        let bare = Location(segments: location.segments, query: location.query)
        let facts = ClickFacts(
            location: bare, linkAsClicked: url, host: location.host ?? "",
            platform: platform, bot: nil, inAppBrowser: false, language: nil, userAgent: nil, referrer: nil, via: "app")
        let resolver = routes.resolver
        // Matched with its host: an `http(s)` link on a host outside `links.hosts` is no match (API.md §2), and
        // then has no resolution either.
        let match = resolver.match(location)
        let clicked = match.map { resolver.table.routes[$0.index] }
        let resolution = clicked == nil ? nil : try? resolver.resolve(bare, context: facts.context)
        var answer = OpenAnswer(decision: "not_found", target: settings.notFoundURL, resolution: resolution)
        var decision = ClickDecision(
            kind: .notFound, status: 200, target: nil, platform: platform.rawValue, bot: nil, resolution: resolution,
            clicked: clicked)
        if let clicked, let match, let resolution {
            let counted = try clicksCounted(clicked, counting: true, now: now)
            if let link = clicked.link, ClickDecider.isExpired(link, at: now, clicksCounted: counted) {
                // `expiredURL` is the clicked route's: its `{param}`s are that route's, as for a click (§7 step 4).
                let target = link.expiredURL?.render(params: match.params, location: resolution.location)
                answer = OpenAnswer(decision: "expired", target: target, resolution: resolution)
                decision.kind = .expired
                decision.target = target
            } else {
                answer = OpenAnswer(decision: "open", target: nil, resolution: resolution)
                decision.kind = .redirect
            }
        } else {
            decision.target = settings.notFoundURL
        }
        record(decision, facts: facts, kind: .open, now: now, decisionName: answer.decision)
        recordMetric(answer.decision, platform: platform.rawValue)
        return answer
    }
}
