import ArgumentParser
import Dispatch
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the process: parses the command line, loads the configuration, starts the application, reloads the routes
/// file on SIGHUP and stops cleanly on SIGTERM or SIGINT. Exit codes: 0 after a clean stop, 2 for an invalid setting, 1 for other
/// start-up failures.
enum Launcher {
    static func run(arguments: [String]) -> Int32 {
        let command: LinkServerCommand
        do {
            command = try LinkServerCommand.parse(arguments)
        } catch {
            let code = LinkServerCommand.exitCode(for: error)
            let message = LinkServerCommand.fullMessage(for: error)
            if code == .success {
                print(message)
                return 0
            }
            FileHandle.standardError.write(Data((message + "\n").utf8))
            return 2
        }
        let config: Config
        do {
            config = try ConfigLoader.load(
                commandLine: command.commandLine, configFile: command.config,
                environment: ProcessInfo.processInfo.environment)
        } catch {
            FileHandle.standardError.write(Data("LinkServer: \(error)\n".utf8))
            return 2
        }
        LoggingSystem.bootstrap { label in
            switch config.logFormat {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = config.logLevel
                return handler
            case .json:
                var handler = JSONLogHandler(label: label)
                handler.logLevel = config.logLevel
                return handler
            }
        }
        let logger = Logger(label: "LinkServer")
        // Catch SIGTERM and SIGINT before anything listens: a signal sent as soon as the first listener is logged
        // must stop the process cleanly, not be lost between `SIG_IGN` and its dispatch source.
        let termination = TerminationSignal()
        let application: Application
        do {
            application = try Application(config: config, logger: logger)
            try application.start()
        } catch let error as ConfigError {
            logger.critical("invalid configuration", metadata: ["error": "\(error)"])
            return 2
        } catch let error as PostgresStoreError {
            logger.critical("shared store unreachable", metadata: ["error": "\(error)"])
            return 2
        } catch {
            logger.critical("start failed", metadata: ["error": "\(error)"])
            return 1
        }
        termination.onReload { application.reloadRoutesFile() }
        termination.wait()
        application.beginStopping()
        if config.shutdownDelay > 0 {
            // `/readyz` says `stopping` while everything is still served, so that a load balancer (a Kubernetes
            // endpoint list, whose update races the signal) stops sending first. A second signal cuts it short.
            logger.info(
                "still serving until the load balancer has seen /readyz 503, or a second signal",
                metadata: ["server.shutdownDelay": "\(config.shutdownDelay)"])
            if termination.waitForAnother(upTo: .seconds(config.shutdownDelay)) {
                logger.info("a second signal: stopping now")
            }
        }
        // No reload runs beside the stop; a further SIGTERM or SIGINT ends its wait for requests in flight.
        termination.finishReloads()
        termination.onFurtherSignals { application.endGrace() }
        application.shutdown()
        termination.finish()
        return 0
    }
}

/// SIGTERM and SIGINT, caught from creation on; ``wait()`` returns once one arrived, however early. Created before
/// the application starts, so no signal can arrive between the first listener and the handlers. SIGHUP is caught
/// from creation on too (its default would end the process): one that arrives before ``onReload(_:)`` gives it a
/// handler (the start logs "listening on" before it ends) is kept and runs the reload then.
final class TerminationSignal {
    private let received = DispatchSemaphore(value: 0)
    /// What a SIGTERM or SIGINT does once the stop has begun (``onFurtherSignals(_:)``); until then it is counted
    /// in ``received``. Read by the one handler each signal runs, so none falls between two handlers.
    private let further = FurtherSignals()
    private let reloads = ReloadRequests()
    private let hangUp: any DispatchSourceSignal
    /// SIGTERM's and SIGINT's.
    private var stops: [any DispatchSourceSignal] = []

    init() {
        signal(SIGHUP, SIG_IGN)
        hangUp = DispatchSource.makeSignalSource(signal: SIGHUP, queue: reloads.queue)
        hangUp.setEventHandler { [reloads] in reloads.received() }
        hangUp.resume()
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [received, further] in
                if let action = further.action.withLock({ $0 }) { action() } else { received.signal() }
            }
            source.resume()
            stops.append(source)
        }
    }

    /// Runs `reload` on every SIGHUP from now on, and once at once if one came before (one at a time, off the signal
    /// handler).
    func onReload(_ reload: @escaping @Sendable () -> Void) {
        reloads.handle(with: reload)
    }

    /// Blocks until SIGTERM or SIGINT arrives.
    func wait() {
        received.wait()
    }

    /// Blocks until another SIGTERM or SIGINT arrives (`true`) or `duration` has passed (`false`).
    func waitForAnother(upTo duration: Duration) -> Bool {
        let milliseconds = Int(duration.milliseconds)
        return received.wait(timeout: .now() + .milliseconds(milliseconds)) == .success
    }

    /// Stops catching SIGHUP, then waits until a reload under way (or kept for the handler) has ended, so that none
    /// runs beside the shutdown.
    func finishReloads() {
        hangUp.cancel()
        reloads.queue.sync {}
    }

    /// Runs `action` on every SIGTERM or SIGINT from now on, and at once for one that came since the last wait.
    func onFurtherSignals(_ action: @escaping @Sendable () -> Void) {
        further.action.withLock { $0 = action }
        if received.wait(timeout: .now()) == .success { action() }
    }

    /// Stops catching signals (they stay ignored), then waits until a reload under way has ended.
    func finish() {
        for source in stops { source.cancel() }
        finishReloads()
    }
}

/// What a SIGTERM or SIGINT does once the stop has begun (``TerminationSignal/onFurtherSignals(_:)``).
final class FurtherSignals: Sendable {
    let action = Mutex<(@Sendable () -> Void)?>(nil)
}

/// The SIGHUPs' reload handler, and whether a SIGHUP came before it was given: that one runs the handler as soon as it
/// is given. Every reload runs on `queue`, one at a time.
final class ReloadRequests: Sendable {
    let queue = DispatchQueue(label: "linkserver-reload")
    private let state = Mutex<(handler: (@Sendable () -> Void)?, pending: Bool)>((nil, false))

    /// A SIGHUP, on `queue`: runs the handler, or keeps the request for it.
    func received() {
        let handler = state.withLock { state in
            if state.handler == nil { state.pending = true }
            return state.handler
        }
        handler?()
    }

    /// Gives the handler; a request kept before runs it once, on `queue`.
    func handle(with reload: @escaping @Sendable () -> Void) {
        let early = state.withLock { state in
            state.handler = reload
            defer { state.pending = false }
            return state.pending
        }
        if early { queue.async(execute: reload) }
    }
}
