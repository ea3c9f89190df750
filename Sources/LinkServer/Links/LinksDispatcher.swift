import LinkCore
import Logging
import Synchronization

/// The dispatcher of the public listener (API.md §7): the association files and other reserved paths, the two
/// app endpoints (rate-limited per client address), and every other `GET` as a click. Never blocks.
final class LinksDispatcher: RequestHandler {
    private let engine: LinkEngine
    private let association: AssociationFiles
    private let hosts: HostAllowList?
    private let apps: APIDispatcher
    /// With a shared store: where clicks run (API.md §12), so none waits on the database on a listener thread.
    private let storeWorkers: StoreWorkers?
    private let auth: TokenCheck
    private let limiter: Mutex<SlidingWindowLimiter>
    /// The deferred-link tokens each client's clicks may have made a minute (`links.tokenRateLimit`).
    private let tokenBudget: Mutex<SlidingWindowLimiter>
    /// Run after every request (metrics); fixed at creation, as ``APIDispatcher``'s.
    private let observer: (@Sendable (RequestSummary) -> Void)?
    private let logger: Logger
    private let accessLogLevel: Logger.Level?
    private let classifier = UserAgentCache()
    private let trustedProxies: TrustedProxies
    private let labels = Labels()

    /// What this listener answers with, for logs and metrics (`links:` and what was served).
    private struct Labels {
        let host = EndpointLabel("links:host")
        let claim = EndpointLabel("links:/v1/deferred/claim")
        let opens = EndpointLabel("links:/v1/links/opens")
        let aasa = EndpointLabel("links:aasa")
        let assetlinks = EndpointLabel("links:assetlinks")
        let robots = EndpointLabel("links:robots")
        let favicon = EndpointLabel("links:favicon")
        let wellKnown = EndpointLabel("links:well-known")
        let click = EndpointLabel("links:click")
        let refused = EndpointLabel("links:-")
    }

    var refusalLabel: EndpointLabel { labels.refused }

    init(
        engine: LinkEngine, association: AssociationFiles, hosts: [String]?, appEndpoints: [Endpoint],
        auth: TokenCheck, logger: Logger, accessLogLevel: Level?, storeWorkers: StoreWorkers? = nil,
        trustedProxies: TrustedProxies = TrustedProxies(), observer: (@Sendable (RequestSummary) -> Void)? = nil
    ) {
        self.trustedProxies = trustedProxies
        self.observer = observer
        self.engine = engine
        self.association = association
        self.hosts = hosts.map(HostAllowList.init)
        self.auth = auth
        self.logger = logger
        self.accessLogLevel = RequestSummary.accessLevel(accessLogLevel, under: logger)
        limiter = Mutex(SlidingWindowLimiter(limit: engine.settings.appRateLimit))
        tokenBudget = Mutex(SlidingWindowLimiter(limit: engine.settings.tokenRateLimit))
        self.storeWorkers = storeWorkers
        // On this listener the app endpoints need no token (API.md §7).
        apps = APIDispatcher(
            endpoints: appEndpoints.map { endpoint in
                Endpoint(endpoint.method, endpoint.template, .open, usesStore: endpoint.usesStore, endpoint.handler)
            },
            auth: TokenCheck(adminToken: nil, readToken: nil), logger: logger, accessLogLevel: nil,
            storeWorkers: storeWorkers)
    }

    typealias Level = Logger.Level

    func handle(_ request: Request) -> (endpoint: EndpointLabel, reply: Reply) {
        let reservedPath = LinksDispatcher.reservedSpelling(of: request.path)
        if let hosts, !hosts.allows(LinksDispatcher.hostName(request.headers[.host])) {
            return (labels.host, .now(unknownHost(request, path: reservedPath)))
        }
        if let reservedPath, let answer = reserved(request, path: reservedPath) { return answer }
        guard LinksDispatcher.reads(request) else { return (labels.click, .now(LinksDispatcher.notAllowed(request))) }
        guard let storeWorkers else { return (labels.click, .now(click(request))) }
        // A click may count towards `maxClicks` or keep a token: with a shared store, off the listener's threads.
        return (
            labels.click,
            .later { [self] pending in storeWorkers.submit { pending.complete(self.click(request)) } }
        )
    }

    /// `path` spelled as the reserved paths (``reserved(_:path:)``) are, or `nil` when it cannot be one of them. A
    /// canonical path is taken as it is; one that is not (an empty segment, a trailing `/`, a percent-escape) as its
    /// location reads (§2: `//robots.txt/` is `/robots.txt`), so that no spelling of a reserved path, the app
    /// endpoints' included (served as on the API listener), is taken for a click.
    static func reservedSpelling(of path: String) -> String? {
        var path = path
        let (canonical, candidate) = path.withUTF8 { bytes in
            var previous: UInt8 = 0
            var canonical = true
            for byte in bytes {
                if byte == UInt8(ascii: "%") || (byte == UInt8(ascii: "/") && previous == byte) { canonical = false }
                previous = byte
            }
            if bytes.count > 1 && previous == UInt8(ascii: "/") { canonical = false }
            // The first segment's first byte, as ``mayBeReserved(_:)`` reads it (an escape may hide any).
            let first = bytes.first { $0 != UInt8(ascii: "/") }
            return (canonical, first.map { ".afrv%".utf8.contains($0) } ?? false)
        }
        if canonical { return mayBeReserved(path) ? path : nil }
        guard candidate else { return nil }
        // A decoded `/` (`%2F`) stays inside its segment (§2): no reserved path has one.
        guard let segments = Location.segments(ofPath: path), !segments.contains(where: { $0.contains("/") }) else {
            return nil
        }
        let spelled = "/" + segments.joined(separator: "/")
        return mayBeReserved(spelled) ? spelled : nil
    }

    /// Whether `path` may be one of the paths ``reserved(_:path:)`` answers: each starts with `/.`, `/a`, `/f`, `/r`
    /// or `/v`. A click on any other path is not compared with each of them.
    static func mayBeReserved(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            guard bytes.count > 1 else { return false }
            switch bytes[1] {
            case UInt8(ascii: "."), UInt8(ascii: "a"), UInt8(ascii: "f"), UInt8(ascii: "r"), UInt8(ascii: "v"):
                return true
            default:
                return false
            }
        }
    }

    /// The answer on a reserved path (association files, robots.txt, the favicon, the app endpoints, other
    /// `/.well-known/` files), or `nil` for a click.
    private func reserved(_ request: Request, path: String) -> (endpoint: EndpointLabel, reply: Reply)? {
        switch path {
        case AppLinkEndpoints.claimPath:  // the app endpoints
            return (labels.claim, rateLimited(request) ?? apps.handle(request).reply)
        case AppLinkEndpoints.opensPath:
            return (labels.opens, rateLimited(request) ?? apps.handle(request).reply)
        default:
            // The files are read as a click is: GET and HEAD, any other method 405.
            guard let (label, answer) = reservedFile(request, path: path) else { return nil }
            return (label, .now(LinksDispatcher.reads(request) ? answer() : LinksDispatcher.notAllowed(request)))
        }
    }

    /// 404 for a `Host` outside `links.hosts`: a page, but for the app endpoints, whose callers read JSON, the error
    /// envelope (API.md §1, §7 "the same bodies and errors"), and for a click asking for JSON its decision,
    /// `not_found` (the Host check is the decision's first step, §7; step 7 answers every decision so).
    private func unknownHost(_ request: Request, path: String?) -> Response {
        switch path {
        case AppLinkEndpoints.claimPath, AppLinkEndpoints.opensPath:
            let host = request.headers[.host] ?? ""
            return ErrorEnvelope.response(
                for: LinkError(.notFound, "This host is not one of the links hosts", details: ["host": .string(host)]))
        default:
            if LinksDispatcher.reads(request), LinksDispatcher.wantsJSON(request.headers[.accept]),
                path.flatMap({ reservedFile(request, path: $0) }) == nil
            {
                let classes = classifier.classify(request.headers[.userAgent] ?? "")
                let decision = ClickDecision.unknownHost(platform: classes.platform.rawValue, bot: classes.bot)
                return .json(
                    decision.json(includingResolution: auth.allowsRead(request)), headers: LinksDispatcher.clickHeaders)
            }
            return page(404, LinkPage.message(title: "Not found", text: "Unknown host."))
        }
    }

    /// The label and answer of a reserved file's path, or `nil` for a click.
    private func reservedFile(_ request: Request, path: String) -> (EndpointLabel, () -> Response)? {
        switch path {
        case "/.well-known/apple-app-site-association", "/apple-app-site-association":
            return (labels.aasa, { self.file(\.apple, request) })
        case "/.well-known/assetlinks.json":
            return (labels.assetlinks, { self.file(\.android, request) })
        case "/robots.txt":
            let text = engine.settings.robotsTxt ?? "User-agent: *\nAllow: /\n"
            return (
                labels.robots,
                {
                    Response(
                        status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8))
                }
            )
        case "/favicon.ico":
            if let url = engine.settings.faviconURL {
                return (labels.favicon, { Response(status: self.engine.settings.redirectStatus, location: url) })
            }
            return (labels.favicon, { self.page(404, LinkPage.message(title: "Not found", text: "No icon.")) })
        default:
            guard path.hasPrefix("/.well-known/") || path == "/.well-known" else { return nil }
            return (labels.wellKnown, { self.page(404, LinkPage.message(title: "Not found", text: "No such file.")) })
        }
    }

    /// Whether the request reads (`GET` or `HEAD`), the only methods of a click and of the reserved files.
    private static func reads(_ request: Request) -> Bool {
        request.method == "GET" || request.method == "HEAD"
    }

    /// 405 `method_not_allowed` with `Allow: GET, HEAD`.
    private static func notAllowed(_ request: Request) -> Response {
        let error = LinkError.methodNotAllowed(request.method, allowed: ["GET", "HEAD"])
        return ErrorEnvelope.response(for: error, headers: [("Allow", "GET, HEAD")])
    }

    /// Forgets the app endpoints' clients idle for a whole window, also when no request comes to do it (API.md §7:
    /// addresses are kept in memory for the limiter's window only).
    func forgetIdleClients(now: Int64) {
        limiter.withLock { $0.sweep(now: now) }
        tokenBudget.withLock { $0.sweep(now: now) }
    }

    /// `429 rate_limited` once the client's budget for the app endpoints is spent. The client is the TCP peer, or
    /// behind a trusted proxy the address it names in `X-Forwarded-For`.
    /// Only a call counts (a `POST`): another method is answered 405 (or `OPTIONS` 204) whatever the budget, and
    /// spends none of it.
    private func rateLimited(_ request: Request) -> Reply? {
        guard request.method == "POST" else { return nil }
        let now = WallClock.milliseconds()
        // An IPv6 client is its /64, as for the token budget: one host would otherwise have 2^64 budgets.
        let decision = admit(request, to: limiter, now: now, byIPv6Network: true)
        guard case .limited(let retryAfter) = decision else { return nil }
        let error = LinkError(
            .rateLimited, "Too many requests from this address; retry in \(retryAfter) s",
            details: ["retryAfter": .int(retryAfter)])
        return .now(ErrorEnvelope.response(for: error, headers: [("Retry-After", String(retryAfter))]))
    }

    /// Counts `request` against its client's budget in `limiter` (which forgets idle clients once a window). The
    /// client is the TCP peer, or behind a trusted proxy the address it names in `X-Forwarded-For`; with
    /// `byIPv6Network`, an IPv6 client is its /64, the network one host is given (so that it cannot take a new
    /// budget with each of its addresses).
    private func admit(
        _ request: Request, to limiter: borrowing Mutex<SlidingWindowLimiter>, now: Int64, byIPv6Network: Bool = false
    ) -> SlidingWindowLimiter.Decision {
        let key = clientKey(request, byIPv6Network: byIPv6Network)
        return limiter.withLock { $0.admit(key, now: now) }
    }

    /// The client a budget is kept for (see ``admit(_:to:now:byIPv6Network:)``).
    private func clientKey(_ request: Request, byIPv6Network: Bool) -> String {
        // An IPv4 client a dual-stack proxy writes as `::ffff:198.51.100.7` is that IPv4 address, not a /64 (all of
        // them would be one client).
        var client = trustedProxies.client(peer: request.client, forwardedFor: request.headers[.forwardedFor])?
            .unmappingIPv4
        if byIPv6Network, let address = client, address.isIPv6 { client = address.masked(to: 64) }
        return client?.text ?? ""
    }

    /// Whether `request`'s client may have one more deferred-link token made (``tokenBudget``); without `spending`,
    /// whether it could, the budget left as it is (a `HEAD`, answered as its `GET` would be).
    private func mayMakeToken(_ request: Request, spending: Bool = true) -> Bool {
        let now = WallClock.milliseconds()
        guard spending else {
            let key = clientKey(request, byIPv6Network: true)
            return tokenBudget.withLock { $0.wouldAdmit(key, now: now) }
        }
        if case .admitted = admit(request, to: tokenBudget, now: now, byIPv6Network: true) { return true }
        return false
    }

    private func file(_ which: KeyPath<AssociationFiles.Built, AssociationFiles.File?>, _ request: Request) -> Response
    {
        guard let file = association.files(for: engine.routes.published)[keyPath: which] else {
            return page(404, LinkPage.message(title: "Not found", text: "No app is configured for this file."))
        }
        let headers = [("Content-Type", "application/json"), ("Cache-Control", "max-age=300"), ("ETag", file.etag)]
        return Response(status: 200, headers: headers, body: file.body).unlessHeld(request.headers[.ifNoneMatch])
    }

    /// The `Host` header without its port, lower-cased (`[::1]:8081` → `::1`).
    static func hostName(_ header: String?) -> String {
        guard var header else { return "" }
        // An ASCII header (every real one) is cut byte by byte; any other Character by Character, where a
        // combining mark may join the `:` or `]` next to it.
        let host: String? = header.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let trimmed = bytes[bytes.trimmingSpaces()]
            let lower = trimmed.startIndex
            var host = trimmed
            var port = trimmed[trimmed.endIndex...]
            if trimmed.first == UInt8(ascii: "[") {
                if let close = trimmed.firstIndex(of: UInt8(ascii: "]")) {
                    host = bytes[(lower + 1)..<close]
                    port = trimmed[(close + 1)...]
                    // After the address: nothing, or `:` and the port.
                    if let first = port.first {
                        guard first == UInt8(ascii: ":") else { return "" }
                        port = port.dropFirst()
                    }
                }
            } else if let colon = trimmed.lastIndex(of: UInt8(ascii: ":")) {
                host = bytes[lower..<colon]
                port = trimmed[(colon + 1)...]
            }
            // RFC 9110 §4.2.3: a port is digits, and TCP's go to 65535. `links.example.com:abc` names no host
            // this service knows.
            guard Location.isPort(port) else { return "" }
            return String(decoding: UnsafeBufferPointer(rebasing: host), as: UTF8.self).lowercased()
        }
        return host ?? characterWiseHostName(header)
    }

    private static func characterWiseHostName(_ header: String) -> String {
        var host = header.trimmingSpaces.lowercased()
        if host.hasPrefix("[") {
            if let close = host.firstIndex(of: "]") {
                let rest = host[host.index(after: close)...]
                guard rest.isEmpty || (rest.first == ":" && Location.isPort(rest.dropFirst().utf8))
                else { return "" }
                host = String(host[host.index(after: host.startIndex)..<close])
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard Location.isPort(host[host.index(after: colon)...].utf8) else { return "" }
            host = String(host[..<colon])
        }
        return host
    }

    /// Every click answer's headers: never cached, never indexed (API.md §7).
    static let clickHeaders = [("Cache-Control", "no-store"), ("X-Robots-Tag", "noindex")]

    private func page(_ status: Int, _ html: String, headers: [(String, String)] = []) -> Response {
        page(status, Array(html.utf8), headers: headers)
    }

    private func page(_ status: Int, _ html: [UInt8], headers: [(String, String)] = []) -> Response {
        Response(
            status: status,
            headers: headers.isEmpty ? LinksDispatcher.pageHeaders : LinksDispatcher.pageHeaders + headers,
            body: html)
    }

    /// A page's headers, made once (two array concatenations per page cost ~800 instructions).
    private static let pageHeaders = [("Content-Type", "text/html; charset=utf-8")] + clickHeaders

    func completed(_ summary: RequestSummary) {
        summary.log(to: logger, level: accessLogLevel, listener: "links")
        observer?(summary)
    }
}

extension LinksDispatcher {
    /// A click (API.md §7 "A click"). Decided once per distinct request and route table unless it draws a
    /// deferred-link token or its link can expire (``LinkEngine/decideClick(_:key:counted:now:facts:)``).
    private func click(_ request: Request) -> Response {
        let json = LinksDispatcher.wantsJSON(request.headers[.accept])
        let prefetch =
            LinksDispatcher.saysPrefetch(request.headers[.secPurpose])
            || LinksDispatcher.saysPrefetch(request.headers[.purpose])
        let counted = request.method == "GET" && !json && !prefetch
        let classes = classifier.classify(request.headers[.userAgent] ?? "")
        let head = request.method == "HEAD"
        let decision: ClickDecision
        do {
            decision = try engine.decideClick(
                classes, key: { KeptKey.Click(request) }, counted: counted,
                // A HEAD is written as its GET: a prefetch's GET is not counted, and draws no token.
                head: head && !prefetch, now: WallClock.milliseconds(),
                tokenAllowed: { self.mayMakeToken(request, spending: !head) },
                facts: { try LinksDispatcher.facts(of: request, classes) })
        } catch let bad as BadLink {
            return page(400, LinkPage.message(title: "Bad link", text: bad.text))
        } catch {
            logger.error("click failed", metadata: ["request.id": "\(request.id)", "error": "\(error)"])
            return ErrorEnvelope.response(for: ErrorEnvelope.internalError)
        }
        if json {
            return .json(
                decision.json(includingResolution: auth.allowsRead(request)), headers: LinksDispatcher.clickHeaders)
        }
        if let page = decision.pageBytes {
            let extra = decision.kind == .landing ? [("Referrer-Policy", "no-referrer")] : []
            return self.page(decision.status, page, headers: extra)
        }
        return Response(
            status: decision.status, headers: LinksDispatcher.clickHeaders, location: decision.target ?? "/")
    }

    /// A click whose answer would not fit the connection's memory (a long link repeated in a `Location` after a head
    /// full of cookies): the 414 page.
    func answerTooLarge(requestBytes: Int) -> Response {
        page(
            414, LinkPage.message(title: "Link too long", text: "This link is too long to be opened here."),
            headers: [("Connection", "close")])
    }

    /// A link longer than the listener takes (the admission's 414) is the 414 page with the click headers (§7:
    /// every click answer carries them, and a person gets a page), but for the app endpoints, whose callers read
    /// JSON, the error envelope as it was.
    func dressRefusal(_ response: Response, target: String) -> Response {
        guard response.status == 414 else { return response }
        // The path of an absolute-form target (`https://host/v1/deferred/claim?…`) is what follows its authority.
        var path = Substring(target)
        if !path.hasPrefix("/"), let authority = path.firstRange(of: "://") {
            path = path[authority.upperBound...].drop { $0 != "/" }
        }
        let spelled = LinksDispatcher.reservedSpelling(of: String(path.prefix { $0 != "?" }))
        if spelled == AppLinkEndpoints.claimPath || spelled == AppLinkEndpoints.opensPath { return response }
        return page(414, LinkPage.message(title: "Link too long", text: "This link is too long to be opened here."))
    }

    /// A click whose target is not a location, or that names no host.
    private struct BadLink: Error {
        var text = "This link is malformed."
    }

    /// What is known of a click (`classes`: its `User-Agent`'s), and the `_lsp` it carries.
    private static func facts(of request: Request, _ classes: UserAgentClass) throws -> (
        facts: ClickFacts, lsp: String?
    ) {
        let (rawQuery, lsp) = LinksDispatcher.strippingReserved(request.rawQuery)
        let target = rawQuery.isEmpty ? request.path : request.path + "?" + rawQuery
        guard let location = try? Location(target) else { throw BadLink() }
        // "The link as clicked" is `https://` + `Host` + the target (§7): a request without a host (HTTP/1.0 with no
        // `Host`, or an empty one, accepted when `links.hosts` is not set) has no link to send on or show.
        let host = request.headers[.host] ?? ""
        guard !host.isEmpty else { throw BadLink(text: "This request names no host.") }
        let facts = ClickFacts(
            location: location, clickedTarget: target, host: host,
            platform: classes.platform, bot: classes.bot, inAppBrowser: classes.isInAppBrowser,
            language: ClickFacts.language(request.headers[.acceptLanguage]), userAgent: request.headers[.userAgent],
            referrer: request.headers[.referer])
        return (facts, lsp)
    }

    /// Whether a `Sec-Purpose` or `Purpose` header marks a prefetch (not counted).
    static func saysPrefetch(_ purpose: String?) -> Bool {
        purpose?.lowercased().contains("prefetch") ?? false
    }

    /// Whether `Accept` lists `application/json` and not `text/html` (API.md §7 step 7): each element's media type
    /// compared whole and without case (not `application/jsonx`), an element with `q=0` not listing its type
    /// (RFC 9110 §12.5.1: not acceptable).
    static func wantsJSON(_ accept: String?) -> Bool {
        guard let accept else { return false }
        // Scanned in place: every click reads it.
        return accept.withUTF8Bytes { bytes in
            var json = false
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
                let element = start..<end
                start = end + 1
                let typeEnd = bytes[element].firstIndex(of: UInt8(ascii: ";")) ?? end
                let type = UnsafeBufferPointer(rebasing: bytes[bytes.trimmingSpaces(element.lowerBound..<typeEnd)])
                let html = type.count == 9 && type.starts(caseInsensitiveWith: "text/html")
                let isJSON = type.count == 16 && type.starts(caseInsensitiveWith: "application/json")
                guard html || isJSON, !refusesItself(bytes, parameters: typeEnd..<end) else { continue }
                if html { return false }
                json = true
            }
            return json
        }
    }

    /// Whether the parameters of an `Accept` element (`;q=0;…`) give it the weight 0: not acceptable (RFC 9110
    /// §12.4.2: `q=0`, `q=0.`, `q=0.000`).
    private static func refusesItself(_ bytes: UnsafeBufferPointer<UInt8>, parameters: Range<Int>) -> Bool {
        var start = parameters.lowerBound
        while start < parameters.upperBound {
            let end =
                bytes[(start + 1)..<parameters.upperBound].firstIndex(of: UInt8(ascii: ";")) ?? parameters.upperBound
            let parameter = UnsafeBufferPointer(rebasing: bytes[bytes.trimmingSpaces((start + 1)..<end)])
            start = end
            guard parameter.count >= 3, parameter.starts(caseInsensitiveWith: "q=") else { continue }
            let weight = UnsafeBufferPointer(rebasing: parameter[2...])
            guard weight.first == UInt8(ascii: "0") else { return false }
            return weight.dropFirst().allSatisfy { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "0") }
        }
        return false
    }

    /// `url` (a whole link, as an app was opened with) without the reserved query items `_lsp` and `lst`.
    static func withoutReservedItems(_ url: String) -> String {
        let fragment = url.firstIndex(of: "#") ?? url.endIndex
        guard let mark = url[..<fragment].firstIndex(of: "?") else { return url }
        let query = strippingReserved(url[url.index(after: mark)..<fragment]).query
        return String(url[..<mark]) + (query.isEmpty ? "" : "?" + query) + url[fragment...]
    }

    /// The raw query without the reserved items `_lsp` and `lst`, and the value of `_lsp`. An item is reserved by
    /// its decoded name (§2 decodes query keys): `%5Flsp` and `l%73t` are `_lsp` and `lst` too.
    static func strippingReserved(_ rawQuery: Substring?) -> (query: String, lsp: String?) {
        guard let rawQuery, !rawQuery.isEmpty else { return ("", nil) }
        var lsp: String?
        let kept = rawQuery.split(separator: "&", omittingEmptySubsequences: false).filter { item in
            // Every click runs this: an item is decoded only when it has an escape (bytes, not Characters).
            guard item.utf8.contains(UInt8(ascii: "%")) else {
                let name = item.prefix { $0 != "=" }
                if name == "_lsp" { lsp = String(item.dropFirst(5)) }
                return name != "_lsp" && name != "lst"
            }
            guard let decoded = (try? Query(parsing: item))?.items.first else { return true }
            if decoded.name == "_lsp" { lsp = decoded.value }
            return decoded.name != "_lsp" && decoded.name != "lst"
        }
        return (kept.joined(separator: "&"), lsp)
    }
}
