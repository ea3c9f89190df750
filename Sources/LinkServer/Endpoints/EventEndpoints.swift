import LinkCore
import Logging
import Synchronization

/// `/v1/events…` (API.md §5): subscriptions, long-polls on suspended connections, emits, event types.
final class EventEndpoints: Sendable {
    static let maxWaitSeconds = 60
    static let defaultWaitSeconds = 25

    let types: LiveEventTypes
    var hub: any EventHub { types.hub }
    /// The event types and the matcher.
    var bus: EventBus { hub.types }
    private let timer: DeadlineTimer
    private let locations: LocationParser
    private let auth: TokenCheck
    /// For a waiting poll's unexpected error, which no dispatcher sees (it is answered later).
    private let logger: Logger
    /// Set at shutdown: polls answer at once instead of suspending.
    private let closing = Atomic<Bool>(false)

    init(types: LiveEventTypes, timer: DeadlineTimer, locations: LocationParser, auth: TokenCheck, logger: Logger) {
        self.types = types
        self.timer = timer
        self.locations = locations
        self.auth = auth
        self.logger = logger
    }

    var endpoints: [Endpoint] {
        [
            Endpoint("POST", "/v1/events/subscriptions", .read) { [self] request, _ in try subscribe(request) }
                .usingStore(),
            Endpoint("GET", "/v1/events/subscriptions/{id}", .read) { [self] request, parameters in
                try poll(request, id: parameters["id"] ?? "")
            }.usingStore(),
            Endpoint("DELETE", "/v1/events/subscriptions/{id}", .read) { [self] request, parameters in
                let answer = try hub.cancelAnswer(parameters["id"] ?? "")
                return reply(answer, request: request, endpoint: "/v1/events/subscriptions/{id}") { .noContent }
            }.usingStore(),
            Endpoint("POST", "/v1/events/emit", .write) { [self] request, _ in try emit(request) },
            Endpoint("GET", "/v1/events", .read) { [self] _, _ in
                .now(.json(["events": .array(bus.types.map { $0.json() })]))
            },
            Endpoint("POST", "/v1/events", .write) { [self] request, _ in try register(request) },
            Endpoint("DELETE", "/v1/events", .write) { [self] request, _ in
                guard let pattern = try request.queryValue("pattern") else {
                    throw LinkError(.invalidRequest, "Give the type's 'pattern' (or DELETE /v1/events/{name})")
                }
                return try remove(name: nil, pattern: try Pattern(pattern))
            },
            Endpoint("DELETE", "/v1/events/{name}", .write) { [self] _, parameters in
                try remove(name: parameters["name"] ?? "", pattern: nil)
            },
        ]
    }

    /// Stops suspending polls and answers every waiting one (at shutdown, before the daemon stops).
    func close() {
        closing.store(true, ordering: .releasing)
        hub.releaseAll()
    }

    private func subscribe(_ request: Request) throws -> Reply {
        let body = try JSONFields(request.jsonBody(), allowed: ["events", "ttl"])
        guard case .array(let items)? = body["events"], !items.isEmpty else {
            throw LinkError.invalidField("events", expected: "a non-empty array of {path, name}")
        }
        var requests: [EventTypeRequest] = []
        for (index, item) in items.enumerated() {
            let entry = try JSONFields(item, path: "events[\(index)]", allowed: ["path", "name"])
            requests.append(EventTypeRequest(path: try entry.string("path"), name: try entry.string("name")))
        }
        let ttl = try body.int("ttl", in: EventBus.Limits.ttlRange) ?? EventBus.Limits.defaultTTL
        // Registering a type or binding a name is a write (API.md §5): without the admin token (when one is set) a
        // subscription may use existing types only, and nothing is registered.
        let answer = try types.subscribe(requests, ttl: .seconds(ttl)) {
            try auth.authorize(request, access: .write)
        }
        return reply(answer, request: request, endpoint: "/v1/events/subscriptions") { subscribed in
            .json(
                ["id": .string(subscribed.id), "cursor": .int(subscribed.cursor)], status: 201,
                headers: [("Location", "/v1/events/subscriptions/" + subscribed.id)])
        }
    }

    /// The reply to a write whose answer may wait for its commit: at once, or from the suspended connection once
    /// the commit is done (or failed).
    private func reply<Value>(
        _ answer: CommittedAnswer<Value>, request: Request, endpoint: String,
        _ response: @escaping @Sendable (Value) -> Response
    ) -> Reply {
        switch answer {
        case .now(let value):
            return .now(response(value))
        case .afterCommit(let whenCommitted):
            // The daemon's thread serves other connections meanwhile.
            return .later { [logger, requestID = request.id] pending in
                whenCommitted { outcome in
                    switch outcome {
                    case .success(let value): pending.complete(response(value))
                    case .failure(let error):
                        pending.complete(
                            Self.response(for: error, request: requestID, endpoint: endpoint, logger: logger))
                    }
                }
            }
        }
    }

    /// `POST /v1/events` `{"path", "name"?}`: 201 with the type when it registers or names one, 200 when it
    /// exists as given.
    private func register(_ request: Request) throws -> Reply {
        let body = try JSONFields(request.jsonBody(), allowed: ["path", "name"])
        let entry = EventTypeRequest(path: try body.requiredString("path"), name: try body.string("name"))
        let registered = try types.register(entry)
        return .now(.json(registered.type.json(), status: registered.changed ? 201 : 200))
    }

    /// `DELETE /v1/events/{name}` or `?pattern=`: 204; built-in types are `read_only`.
    private func remove(name: String?, pattern: Pattern?) throws -> Reply {
        try types.remove(name: name, pattern: pattern)
        return .now(.noContent)
    }

    private func poll(_ request: Request, id: String) throws -> Reply {
        var after: Int?
        var wait = EventEndpoints.defaultWaitSeconds
        for (key, value) in try request.queryItems() {
            switch key {
            case "after":
                guard let number = value.decimalValue else {
                    throw LinkError.invalidField("after", expected: "an integer ≥ 0")
                }
                after = number
            case "wait":
                guard let number = value.decimalValue, (0...EventEndpoints.maxWaitSeconds).contains(number) else {
                    throw LinkError.invalidField(
                        "wait", expected: "an integer from 0 to \(EventEndpoints.maxWaitSeconds)")
                }
                wait = number
            default:
                continue
            }
        }
        // `HEAD` must be safe: it answers at once the headers a poll without wait would get, acknowledging
        // nothing, releasing no waiting poll.
        if request.method == "HEAD" { return .now(.json(try hub.peek(id, after: after))) }
        // Answer at once when something is queued (or no wait was asked for, or the service is stopping).
        let stopping = closing.load(ordering: .acquiring)
        if !hub.pollsOnce || wait == 0 || stopping {
            if let immediate = try hub.poll(id, after: after, wait: .zero, waiter: UnusedPollWaiter.shared),
                immediate.hasNews || wait == 0 || stopping
            {
                return .now(.json(immediate))
            }
        }
        // Otherwise suspend the connection; an emit, the deadline, a newer poll or a cancel answers it.
        return .later { [hub, timer, logger, after, wait, requestID = request.id] pending in
            do {
                let deadline = ContinuousClock.now + .seconds(wait)
                // The suspended request waits itself; its answer is written on its own connection thread, not
                // the emitting one (``PendingResponse/poll(_:)``).
                if let ready = try hub.poll(id, after: after, wait: .seconds(wait), waiter: pending) {
                    pending.complete(.json(ready))
                } else {
                    timer.schedule(deadline)
                }
            } catch {
                pending.complete(
                    Self.response(
                        for: error, request: requestID, endpoint: "/v1/events/subscriptions/{id}", logger: logger))
            }
        }
    }

    /// The answer to a request that failed after its connection was suspended, as ``APIDispatcher`` answers one
    /// that fails at once: a ``LinkError`` as its envelope, anything else 500, logged.
    private static func response(
        for error: any Error, request requestID: String, endpoint: String, logger: Logger
    ) -> Response {
        if let error = error as? LinkError { return ErrorEnvelope.response(for: error) }
        logger.error(
            "request failed", metadata: ["request.id": "\(requestID)", "endpoint": "\(endpoint)", "error": "\(error)"])
        return ErrorEnvelope.response(for: ErrorEnvelope.unexpected(error))
    }

    private func emit(_ request: Request) throws -> Reply {
        let body = try JSONFields(request.jsonBody(), allowed: ["loc", "name", "params", "query", "extra"])
        let extra = body["extra"] ?? .null
        let time = WallClock.rfc3339Now()
        let location: Location
        switch (try body.string("loc"), try body.string("name")) {
        case (let loc?, nil):
            guard !body.has("params"), !body.has("query") else {
                throw LinkError(.invalidRequest, "'params' and 'query' go with 'name', not with 'loc'")
            }
            location = try locations.parse(loc)
        case (nil, let name?):
            let named = try NamedLocation(fields: body)
            location = try hub.location(named: name, params: named.params, query: named.query)
        default:
            throw LinkError(.invalidRequest, "Give exactly one of 'loc' and 'name'")
        }
        return reply(
            try hub.emitAnswer(location, extra: extra, time: time), request: request, endpoint: "/v1/events/emit"
        ) { result in .json(result.json()) }
    }
}
