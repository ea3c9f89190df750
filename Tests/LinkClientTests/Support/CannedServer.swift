import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback server that answers every request with one fixed HTTP response, for what the real service never
/// sends (an error code that does not exist yet). It reads each request's head (and a declared body) before
/// answering, and serves until it is released.
final class CannedServer: @unchecked Sendable {
    let port: UInt16
    private let descriptor: Int32

    init(response: String) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        precondition(bound && listen(descriptor, 16) == 0, "cannot listen on a loopback port")
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
        let bytes = Array(response.utf8)
        Thread.detachNewThread {
            while true {
                let connection = accept(descriptor, nil, nil)
                if connection < 0 { return }
                Self.answer(connection, bytes)
            }
        }
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// Reads requests on `connection` and answers each with `response` until the client closes it.
    private static func answer(_ connection: Int32, _ response: [UInt8]) {
        defer { close(connection) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(connection, &chunk, chunk.count, 0)
            if count <= 0 { return }
            received += chunk[..<count]
            while let end = headEnd(received) {
                let head = String(decoding: received[..<end], as: UTF8.self).lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                guard received.count >= end + 4 + length else { break }
                received.removeFirst(end + 4 + length)
                _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
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
