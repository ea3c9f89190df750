import CMicroHTTPD
import Foundation
import LinkCore
import Logging
import Synchronization

/// The composition root: opens the store, rebuilds state, wires endpoints into a ``APIDispatcher`` and serves it
/// with a ``Daemon``. Tests start one on port 0 in-process; `main` starts one and waits for a signal.
final class Application: Sendable {
    let config: Config
    let logger: Logger
    let store: any Store
    let dispatcher: APIDispatcher
    let daemon: Daemon
    let metrics = ServiceMetrics()
    let routes: LiveRoutes
    let events: EventEndpoints
    private let pollTimer: DeadlineTimer
    /// Keeps the embedded bus's subscriptions in the store (`nil` with a shared store, which keeps them itself).
    private let journal: SubscriptionJournal?
    /// Writes what the journal keeps behind, about once a second.
    private let journalTimer: DeadlineTimer?
    let resources: LiveResources
    let slots: SlotBoard
    let clicks: ClickLedger
    let links: LinkEngine
    /// The public listener (API.md §7); `nil` with `links.enabled: false`.
    let linksDaemon: Daemon?
    private let tokenPurge: DeadlineTimer
    /// Every endpoint served, for documentation checks.
    let endpointList: [Endpoint]

    /// Opens the store and loads state; does not listen yet.
    init(config: Config, logger: Logger) throws {
        self.config = config
        self.logger = logger
        store = try Application.openStore(config, logger: logger)
        // Read before the state below loads: whatever changes meanwhile is re-read by the follower.
        let baseline = try store.revisions()
        let configRoutes = try RoutesFile.load(config.routesFile)
        if configRoutes == nil {
            logger.warning("routes file not found; no config routes", metadata: ["file": "\(config.routesFile)"])
        }
        if config.readToken != nil, config.adminToken == nil {
            // API.md §6: writes need a token only when the admin token is set. Said, as it rarely is the intent.
            logger.warning("auth.readToken is set without auth.adminToken: writes need no token")
        } else if config.adminToken == nil, !BindAddressCheck.isLoopback(config.server.host) {
            // The quick start's way; anywhere else, anyone who reaches the API may change every route.
            logger.notice(
                "no auth.adminToken: anyone who reaches the API listener may write; set LINK_ADMIN_TOKEN",
                metadata: ["server.host": "\(config.server.host)"])
        }
        if !config.unusedVariables.isEmpty {
            logger.warning(
                "environment variables that name no setting are ignored",
                metadata: ["variables": "\(config.unusedVariables.joined(separator: ","))"])
        }
        routes = try LiveRoutes(
            configRoutes: configRoutes ?? [], store: store,
            hosts: config.linkHosts.map(HostAllowList.init), redirectLimit: config.redirectLimit,
            linkPolicy: config.links.linkPolicy)
        let association = AssociationFiles(settings: config.links)
        do {
            try routes.addCheck { table throws(LinkError) in try association.check(table) }
        } catch {
            throw ConfigError("the routes make the app-association file too large: \(error.message)")
        }
        // With a shared store, the endpoints that wait on it run on threads of their own (API.md §12).
        let storeWorkers = store.isShared ? StoreWorkers(threads: 16) : nil
        self.storeWorkers = storeWorkers
        let readiness = ReadinessFlag()
        var endpoints: [Endpoint] = []
        let following = Mutex<StoreFollower?>(nil)
        endpoints +=
            OperationsEndpoints(
                stage: {
                    let stage = readiness.value
                    guard stage == .ready, let follower = following.withLock({ $0 }) else { return stage }
                    return follower.isReachable ? .ready : .unavailable
                }, metrics: metrics
            ).endpoints
        endpoints += RuleEndpoints.endpoints
        endpoints += RouteEndpoints(registry: routes, metrics: metrics).endpoints
        // `seq` continues across restarts from the last durable reservation (API.md §5).
        let lastSeq = try StoredCounter.parsed(
            try store.meta(Application.seqReservationKey), Application.seqReservationKey)
        let bus = EventBus(
            types: try store.loadEventTypes(),
            limits: .init(
                queueLimit: config.eventsQueueLimit, maxSubscriptions: config.maxSubscriptions,
                maxTypes: config.eventsMaxTypes, maxEventsPerSubscription: config.eventsMaxPerSubscription),
            lastSeq: lastSeq,
            reserveSeqBlock: { [store, logger] limit in
                do {
                    return try store.reserveBlock(
                        Application.seqReservationKey, after: limit, count: EventBus.seqBlock)
                } catch let error as LinkError {
                    throw error
                } catch {
                    // The emit's answer says only what §1 allows (the bus makes any other error a 500): the
                    // store's own words go to the log.
                    logger.error("reserving event sequence numbers failed", metadata: ["error": "\(error)"])
                    throw SQLiteStore.machineFailure(error) ?? error
                }
            })
        let hub: any EventHub
        let shared = try (store as? PostgresStore).map { try SharedEventHub(types: bus, store: $0, logger: logger) }
        sharedHub = shared
        // With the embedded store, subscriptions are kept in it and come back now (API.md §5).
        let journal = (store as? SQLiteStore).map { SubscriptionJournal(store: $0, bus: bus, logger: logger) }
        try journal?.restore()
        self.journal = journal
        journalTimer = journal.map { journal in
            DeadlineTimer(name: "linkserver-subscription-sync") { now in
                journal.sync(now: now)
                return nil
            }
        }
        hub = shared ?? LocalEventHub(types: bus, journal: journal)
        pollTimer = DeadlineTimer(hub: hub)
        let auth = TokenCheck(adminToken: config.adminToken, readToken: config.readToken)
        events = EventEndpoints(
            types: LiveEventTypes(hub: hub, store: store, shared: shared != nil), timer: pollTimer,
            locations: LocationParser(hosts: config.linkHosts.map(HostAllowList.init)), auth: auth,
            logger: logger)
        endpoints += events.endpoints
        shared?.refreshTypes { [events] in try events.types.refresh() }
        resources = try LiveResources(store: store, hosts: config.linkHosts.map(HostAllowList.init))
        endpoints += ResourceEndpoints(state: resources).endpoints
        slots = try SlotBoard(store: store, hub: hub, onChange: { [metrics] change in metrics.recordPresent(change) })
        endpoints += SlotEndpoints(board: slots).endpoints
        clicks = ClickLedger(
            store: store, logger: logger, limit: config.links.bufferedClicks,
            kept: KeptClicks(directory: config.dataDir),
            storeReachable: { following.withLock { $0 }?.isReachable ?? true })
        endpoints += StatsEndpoints(ledger: clicks, routes: routes).endpoints
        endpoints += QREndpoints(linkHost: QRRequest.linkHost(from: config.linkHosts)).endpoints
        links = LinkEngine(
            settings: config.links, routes: routes, store: store, clicks: clicks, hub: hub, logger: logger,
            metrics: metrics, storeReachable: { following.withLock { $0 }?.isReachable ?? true })
        let appEndpoints = AppLinkEndpoints(engine: links, auth: auth, maxURIBytes: config.server.maxURIBytes).endpoints
        endpoints += appEndpoints
        endpoints +=
            LinkInspectionEndpoints(
                engine: links, association: association, linkHost: QRRequest.linkHost(from: config.linkHosts),
                hosts: config.linkHosts.map(HostAllowList.init)
            ).endpoints
        endpoints += ConsoleEndpoints().endpoints
        let rateLimited: LinksDispatcher?
        if config.links.enabled {
            var settings = config.server
            settings.port = config.links.port
            settings.portSetting = "links.port"
            settings.readsClientAddress = true
            let linksDispatcher = LinksDispatcher(
                engine: links, association: association, hosts: config.linkHosts, appEndpoints: appEndpoints,
                auth: auth, logger: logger, accessLogLevel: config.accessLogLevel, storeWorkers: storeWorkers,
                trustedProxies: config.trustedProxies, observer: { [metrics] in metrics.record($0) })
            linksDaemon = Daemon(settings: settings, handler: linksDispatcher, logger: logger)
            rateLimited = linksDispatcher
        } else {
            linksDaemon = nil
            rateLimited = nil
        }
        // Once a minute (the rate limiter's window): expired deferred tokens and idle rate-limited addresses go, and
        // the tokens left are counted. The first time is at start, before the listeners open.
        tokenPurge = DeadlineTimer(
            name: "linkserver-token-purge", longestSleep: .seconds(60), firstAfter: .seconds(60)
        ) { [logger, rateLimited, links] _ in
            rateLimited?.forgetIdleClients(now: WallClock.milliseconds())
            do {
                try links.purgeExpiredTokens()
            } catch {
                logger.warning("deferred token purge failed", metadata: ["error": "\(error)"])
            }
            return nil
        }
        endpointList = endpoints
        dispatcher = APIDispatcher(
            endpoints: endpoints, auth: auth, logger: logger, accessLogLevel: config.accessLogLevel,
            storeWorkers: storeWorkers, observer: { [metrics] in metrics.record($0) })
        daemon = Daemon(settings: config.server, handler: dispatcher, logger: logger)
        metrics.gauge("linkserver_routes") { [routes] in routes.count }
        metrics.gauge("linkserver_subscriptions_open") { [hub] in hub.subscriptionCount }
        metrics.gauge("linkserver_polls_waiting") { [hub] in hub.waitingCount }
        metrics.gauge("linkserver_resources") { [resources] in resources.snapshot.count }
        metrics.gauge("linkserver_slots") { [slots] in slots.count }
        metrics.gauge("linkserver_deferred_tokens") { [links] in links.storedTokenCount }
        readinessFlag = readiness
        if store.isShared {
            let follower = StoreFollower(
                store: store, logger: logger, baseline: baseline,
                refreshers: [
                    (.routes, { [routes] _ in try routes.refresh() }),
                    (.resources, { [resources] _ in try resources.refresh() }),
                    (.eventTypes, { [events] _ in try events.types.refresh() }),
                    (.slots, { [slots] _ in try slots.refresh() }),
                    (.events, { seq in shared?.eventsCommitted(through: seq) }),
                    (.subscriptions, { _ in try shared?.refreshCount() }),
                ])
            following.withLock { $0 = follower }
            self.follower = follower
            if case .postgres(let location) = config.storage {
                listener = try PostgresListener(location: location, logger: logger)
            } else {
                listener = nil
            }
        } else {
            follower = nil
            listener = nil
        }
    }

    /// Follows the changes other instances make to a shared store; `nil` with the embedded one.
    private let follower: StoreFollower?
    /// Wakes the follower and the shared hub when another instance commits (`LISTEN`); `nil` with the embedded store.
    private let listener: PostgresListener?
    /// Where requests that wait on a shared store run; `nil` with the embedded one.
    private let storeWorkers: StoreWorkers?
    /// The event bus kept in the shared store; `nil` with the embedded one.
    private let sharedHub: SharedEventHub?

    /// The embedded SQLite database, or the shared PostgreSQL one (API.md §12).
    private static func openStore(_ config: Config, logger: Logger) throws -> any Store {
        switch config.storage {
        case .sqlite:
            let store = try SQLiteStore(directory: config.dataDir)
            logger.info("using the embedded store", metadata: ["file": "\(store.path)"])
            return store
        case .postgres(let location):
            let store = try PostgresStore(location: location, logger: logger)
            logger.info("using the shared store", metadata: ["storage.url": "\(location)"])
            return store
        }
    }

    private let readinessFlag: ReadinessFlag
    /// Set by ``endGrace()``: the stop waits no longer for requests in flight.
    private let graceEnded = Atomic<Bool>(false)
    /// The `meta` key holding the highest event `seq` the bus may hand out before reserving more.
    static let seqReservationKey = "events.seqReserved"

    /// Listens; afterwards ``port`` is the bound port and `/readyz` answers 200.
    func start() throws {
        // `server.connectionLimit` holds for each listener.
        let listeners = linksDaemon == nil ? 1 : 2
        OpenFileLimit.raiseOpenFiles(toAtLeast: config.server.connectionLimit * listeners + 256, logger: logger)
        pollTimer.start()
        journalTimer?.start()
        slots.start()
        clicks.takeKept()
        clicks.start()
        try links.purgeExpiredTokens()
        tokenPurge.start()
        // Catch up with the shared store (once, synchronously) before /readyz can answer 200.
        follower?.start()
        if let listener, let follower {
            // After every (re)connect, re-read what a notification may have announced meanwhile.
            listener.start(
                connected: { [sharedHub] in
                    // Once the store answers the follower: the listening connection may be back before the pool.
                    follower.afterNextReach { sharedHub?.catchUp() }
                },
                notified: { [sharedHub] payload in
                    if payload.hasPrefix("poll:") {
                        let parts = payload.split(separator: ":")
                        if parts.count == 3, let generation = Int(parts[2]) {
                            sharedHub?.release(String(parts[1]), before: generation)
                        }
                    } else {
                        follower.pollSoon()
                    }
                })
        }
        // What loading the routes and the store freed is not needed again.
        cmhd_release_free_heap()
        try daemon.start()
        let host = config.server.host.contains(":") ? "[\(config.server.host)]" : config.server.host
        // The build's version rides on this line: a start that fails says one thing (API.md §12: "one clear
        // message"), and no line is logged before the configuration is known.
        logger.info("listening on http://\(host):\(daemon.port)", metadata: ["version": "\(BuildInfo.version)"])
        if let linksDaemon {
            try linksDaemon.start()
            logger.info("links listening on http://\(host):\(linksDaemon.port)")
        }
        readinessFlag.value = .ready
    }

    /// Reads the routes file again and replaces the config routes (SIGHUP). A file that is gone or does not load, or
    /// routes that conflict with the API routes, are logged and change nothing.
    func reloadRoutesFile() {
        do {
            // A file gone (moved away, a deploy half done) keeps the routes; `{"routes": []}` removes them.
            guard let definitions = try RoutesFile.load(config.routesFile) else {
                throw ConfigError("routes file \(config.routesFile) is not there")
            }
            try routes.replaceConfigRoutes(definitions)
            cmhd_release_free_heap()
            logger.info(
                "routes file reloaded",
                metadata: [
                    "file": "\(config.routesFile)",
                    "routes": "\(routes.resolver.table.definitions(from: .config).count)",
                ])
        } catch {
            logger.error(
                "routes file not reloaded; the routes stay as they were",
                metadata: ["file": "\(config.routesFile)", "error": "\(error)"])
        }
    }

    var port: UInt16 { daemon.port }
    /// The bound port of the public listener (0 when it is off).
    var linksPort: UInt16 { linksDaemon?.port ?? 0 }

    /// `/readyz` answers 503 `stopping` from now on; everything else is served as before, until ``shutdown()``.
    func beginStopping() {
        readinessFlag.value = .stopping
        logger.info("stopping: /readyz answers 503")
    }

    /// A further SIGTERM or SIGINT during ``shutdown()``: the requests still in flight are not waited for any more.
    func endGrace() {
        let inFlight = daemon.requestsInProgress + (linksDaemon?.requestsInProgress ?? 0)
        graceEnded.store(true, ordering: .releasing)
        logger.info("a further signal: not waiting for requests in flight", metadata: ["requests": "\(inFlight)"])
    }

    /// Stops accepting, finishes requests in flight, stops the daemon and closes the store.
    func shutdown() {
        readinessFlag.value = .stopping
        logger.info("shutting down")
        // Answer every waiting poll first: libmicrohttpd cannot stop with suspended connections.
        events.close()
        // Both listeners stop taking connections at once and share one grace, so the stop takes at most
        // `shutdownGrace` (an orchestrator's kill timer is sized from it), or less after a further signal.
        linksDaemon?.beginDraining()
        daemon.beginDraining()
        let deadline = ContinuousClock.now + .seconds(config.shutdownGrace)
        let waitEnded = { self.graceEnded.load(ordering: .acquiring) }
        linksDaemon?.stop(waitingUntil: deadline, unless: waitEnded)
        daemon.stop(waitingUntil: deadline, unless: waitEnded)
        tokenPurge.stop()
        listener?.stop()
        storeWorkers?.stop()
        // Before the follower stops: the ledger writes to a shared store only while the follower says it answers
        // (with the follower stopped, that would turn false 3 s later and the counts go to the data folder).
        clicks.stop()
        follower?.stop()
        pollTimer.stop()
        slots.stop()
        // The last acknowledgements and idle times: a clean stop loses none.
        journalTimer?.stop()
        journal?.finish()
        do {
            try store.close()
        } catch {
            logger.error("store close failed", metadata: ["error": "\(error)"])
        }
        logger.info("stopped")
    }
}

/// The lifecycle stage read by `/readyz`.
final class ReadinessFlag: Sendable {
    enum Stage: UInt8 {
        /// `unavailable`: a shared store stopped answering (API.md §12); never stored, derived when read.
        case starting, ready, stopping, unavailable
    }

    private let stage = Atomic<UInt8>(Stage.starting.rawValue)

    var value: Stage {
        get { Stage(rawValue: stage.load(ordering: .acquiring)) ?? .starting }
        set { stage.store(newValue.rawValue, ordering: .releasing) }
    }
}
