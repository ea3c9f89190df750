import ArgumentParser
import Dispatch
import Foundation
import Logging

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
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = config.logLevel
            return handler
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
        application.shutdown()
        return 0
    }
}

/// SIGTERM and SIGINT, caught from creation on; ``wait()`` returns once one arrived, however early. Created before
/// the application starts, so no signal can arrive between the first listener and the handlers. SIGHUP is ignored
/// from creation on (its default would end the process) until ``onReload(_:)`` gives it a handler.
final class TerminationSignal {
    private let received = DispatchSemaphore(value: 0)
    private var sources: [any DispatchSourceSignal] = []

    init() {
        signal(SIGHUP, SIG_IGN)
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [received] in received.signal() }
            source.resume()
            sources.append(source)
        }
    }

    /// Runs `reload` on every SIGHUP from now on (one at a time, off the signal handler).
    func onReload(_ reload: @escaping @Sendable () -> Void) {
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "linkserver-reload"))
        source.setEventHandler(handler: reload)
        source.resume()
        sources.append(source)
    }

    /// Blocks until SIGTERM or SIGINT arrives.
    func wait() {
        received.wait()
        for source in sources { source.cancel() }
    }
}
