import ArgumentParser
import Dispatch
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the process: parses the command line, loads the configuration, starts the application and stops it
/// cleanly on SIGTERM or SIGINT. Exit codes: 0 after a clean stop, 2 for an invalid setting, 1 for other
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
                commandLine: command.commandLineSource, configFile: command.config,
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
        let application: Application
        do {
            application = try Application(config: config, logger: logger)
            try application.start()
        } catch let error as ConfigError {
            logger.critical("invalid configuration", metadata: ["error": "\(error)"])
            return 2
        } catch {
            logger.critical("start failed", metadata: ["error": "\(error)"])
            return 1
        }
        waitForTerminationSignal()
        application.shutdown()
        return 0
    }

    /// Blocks until SIGTERM or SIGINT arrives.
    private static func waitForTerminationSignal() {
        let received = DispatchSemaphore(value: 0)
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { received.signal() }
            source.resume()
            sources.append(source)
        }
        received.wait()
        for source in sources { source.cancel() }
    }
}
