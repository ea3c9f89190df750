import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The built `LinkServer` executable run as a child process (for exit codes, signals and `kill -9`).
final class ServerProcess {
    /// The binary: `$LINKSERVER_BINARY`, else the debug build of this checkout (`scripts/test` builds it first).
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["LINKSERVER_BINARY"] { return path }
        return packageRoot.appendingPathComponent(".build/debug/LinkServer").path
    }

    let process = Process()
    /// The child's stdout and stderr go to this file: unlike a pipe drained by a reader thread, everything the
    /// child wrote is there as soon as it has exited.
    private let logPath = TestServer.temporaryDirectory() + "/server.log"
    private(set) var port: UInt16 = 0

    /// The checkout's root (where `config/` is).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    init(arguments: [String], environment: [String: String] = [:], directory: URL? = nil) throws {
        process.executableURL = URL(fileURLWithPath: ServerProcess.binary)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("LINK_") { env[key] = nil }
        // Many servers run at once: the public listener picks a free port too unless a test says otherwise.
        env["LINK_LINKS_PORT"] = "0"
        env.merge(environment) { _, new in new }
        process.environment = env
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let logFile = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardError = logFile
        process.standardOutput = logFile
        try process.run()
        try logFile.close()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Everything the process printed so far.
    var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// The public listener's port, from its `links listening on http://HOST:PORT` line (0 before it is logged).
    var linksPort: UInt16 {
        guard let range = log.range(of: #"links listening on http://[^ \n]+:(\d+)"#, options: .regularExpression) else {
            return 0
        }
        let line = log[range]
        return UInt16(line[line.index(after: line.lastIndex(of: ":")!)...]) ?? 0
    }

    /// Waits for the `listening on http://HOST:PORT` line and returns the port.
    @discardableResult
    func waitUntilListening(timeout: Duration = .seconds(30)) throws -> UInt16 {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let range = log.range(of: #"listening on http://[^ \n]+:(\d+)"#, options: .regularExpression) {
                let line = log[range]
                port = UInt16(line[line.index(after: line.lastIndex(of: ":")!)...])!
                return port
            }
            if !process.isRunning { break }
            usleep(20_000)
        }
        throw HTTPClient.Failure(description: "server did not start: \(log)")
    }

    /// Waits for the public listener's `links listening on` line, logged after the API listener's, and returns its
    /// port (``linksPort`` read right after ``waitUntilListening(timeout:)`` may still be 0 on a slow machine).
    @discardableResult
    func waitForLinksPort(timeout: Duration = .seconds(30)) throws -> UInt16 {
        try waitForLog("links listening on", timeout: timeout)
        return linksPort
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits until the log holds `text` at least `count` times (the process announces what it did).
    func waitForLog(_ text: String, count: Int = 1, timeout: Duration = .seconds(30)) throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if log.components(separatedBy: text).count - 1 >= count { return }
            if !process.isRunning { break }
            usleep(20_000)
        }
        throw HTTPClient.Failure(description: "no '\(text)' (×\(count)) in the log: \(log)")
    }

    /// Waits for exit and returns the status.
    func waitForExit(timeout: Duration = .seconds(30)) throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                throw HTTPClient.Failure(description: "server did not exit: \(log)")
            }
            usleep(10_000)
        }
        return process.terminationStatus
    }
}
