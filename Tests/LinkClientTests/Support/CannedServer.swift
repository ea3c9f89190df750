import Foundation
import LinkClient
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback server with scripted answers, for what the real service never does (an error code that does not
/// exist yet, a poll that never answers). It reads each request's head (and a declared body), records its request
/// line and when it came, and sends what `answer` makes of the request line, or nothing at all (the connection is
/// held) when that is `nil`. It serves until it is released.
final class CannedServer: Sendable {
    let port: UInt16
    private let descriptor: Int32
    /// Each request line received, with when it was received.
    let received = RequestLog()

    final class RequestLog: Sendable {
        private let entries = Mutex<[(line: String, at: ContinuousClock.Instant)]>([])

        func append(_ line: String) { entries.withLock { $0.append((line, ContinuousClock.now)) } }

        /// The requests so far whose request line starts with `prefix`.
        func requests(startingWith prefix: String) -> [(line: String, at: ContinuousClock.Instant)] {
            entries.withLock { $0.filter { $0.line.hasPrefix(prefix) } }
        }
    }

    /// A server that answers every request with `response`.
    convenience init(response: String) {
        self.init { _ in response }
    }

    init(answer: @escaping @Sendable (_ requestLine: String) -> String?) {
        let (descriptor, port) = RefusingPort.boundLoopbackSocket()
        precondition(listen(descriptor, 16) == 0, "cannot listen on a loopback port")
        self.descriptor = descriptor
        self.port = port
        let received = received
        Thread.detachNewThread {
            while true {
                let connection = accept(descriptor, nil, nil)
                // A signal to this thread (SIGCHLD, when another test's child process ends) interrupts `accept`:
                // ended there, the server stopped taking connections while its test went on (seen in full runs: a
                // test that waited a minute for a request that was never accepted).
                if connection < 0 && (errno == EINTR || errno == ECONNABORTED) { continue }
                if connection < 0 {
                    // Closed here, by the thread that accepts, not by `deinit`: closed there while this thread was
                    // between two `accept`s, its number went to the next test's server, whose connections this
                    // thread then accepted and answered with this server's answers (seen: a canned 500 in another
                    // test).
                    close(descriptor)
                    return
                }
                Thread.detachNewThread { Self.serve(connection, received, answer) }
            }
        }
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// A client of this server with a `URLSession` of its own, whose requests time out after `timeout` seconds, so
    /// that a test's connections and timeout are its own, not `URLSession.shared`'s. (The cross-talk once seen
    /// between these servers, a test answered by another's canned 500, was the listening socket's number reused:
    /// see the accept loop.) The session is not invalidated when the server goes: a subscription's deletion may
    /// still be on its way, and FoundationNetworking stops the process on a task made in an invalidated session.
    func client(timeout: TimeInterval = 60) -> LinkClient {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        return LinkClient(baseURL: baseURL, session: URLSession(configuration: configuration))
    }

    /// Ends the accepting thread's `accept` (the thread then closes the socket).
    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Reads requests on `connection` and answers each until the client closes it (or one gets no answer).
    private static func serve(
        _ connection: Int32, _ received: RequestLog,
        _ answer: @Sendable (String) -> String?
    ) {
        defer { close(connection) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(connection, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            bytes += chunk[..<count]
            while let end = headEnd(bytes) {
                let head = String(decoding: bytes[..<end], as: UTF8.self)
                let length =
                    head.lowercased().split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                guard bytes.count >= end + 4 + length else { break }
                bytes.removeFirst(end + 4 + length)
                let line = String(head.prefix { $0 != "\r" })
                received.append(line)
                // No answer: the connection is held until the client gives up on it.
                guard let response = answer(line) else { continue }
                _ = Array(response.utf8).withUnsafeBytes {
                    send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
            }
        }
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
