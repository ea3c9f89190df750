import Foundation
import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal blocking HTTP/1.1 client over a real TCP socket, for end-to-end tests. Every read has a timeout, so a
/// server that never answers fails the test instead of hanging it.
final class HTTPClient {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        var json: JSONValue? { try? JSONParser.parse(body) }
        var text: String { String(decoding: body, as: UTF8.self) }
        /// `error.code` of an error envelope.
        var errorCode: String? { json?["error"]?["code"]?.stringValue }
        var errorDetails: JSONValue? { json?["error"]?["details"] }
        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: UInt16
    private var socket: Int32 = -1
    private var buffer: [UInt8] = []

    init(port: UInt16) {
        self.port = port
    }

    deinit { disconnect() }

    /// Connects to the server on 127.0.0.1; `source` binds the client's end to another loopback address first
    /// (`127.0.0.2`…), so the server sees another client address.
    func connect(timeoutSeconds: Int = 10, from source: String? = nil) throws {
        disconnect()
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw Failure(description: "bind() to \(source) failed: errno \(errno)") }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw Failure(description: "connect() to port \(port) failed: errno \(errno)") }
        buffer = []
    }

    func disconnect() {
        if socket >= 0 { close(socket) }
        socket = -1
    }

    /// Sends raw bytes (for malformed-request tests).
    func sendRaw(_ bytes: [UInt8]) throws {
        if socket < 0 { try connect() }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends one request on the current connection (opening one if needed) and reads the response.
    func request(
        _ method: String, _ target: String, body: [UInt8]? = nil, headers: [String: String] = [:]
    ) throws -> Reply {
        if socket < 0 { try connect() }
        var head = "\(method) \(target) HTTP/1.1\r\n"
        var headers = headers
        if !headers.keys.contains(where: { $0.lowercased() == "host" }) { headers["Host"] = "127.0.0.1:\(port)" }
        if let body {
            if headers.keys.first(where: { $0.lowercased() == "content-type" }) == nil {
                headers["Content-Type"] = "application/json"
            }
            headers["Content-Length"] = String(body.count)
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try sendRaw(Array(head.utf8) + (body ?? []))
        return try readResponse(method: method)
    }

    /// `request` with a JSON body.
    func request(_ method: String, _ target: String, json: JSONValue, headers: [String: String] = [:]) throws
        -> Reply
    {
        try request(method, target, body: json.encoded(), headers: headers)
    }

    func get(_ target: String, headers: [String: String] = [:]) throws -> Reply {
        try request("GET", target, headers: headers)
    }

    func post(_ target: String, _ json: JSONValue, headers: [String: String] = [:]) throws -> Reply {
        try request("POST", target, json: json, headers: headers)
    }

    /// Reads one response; throws when the server closes or times out first.
    func readResponse(method: String = "GET") throws -> Reply {
        let headerEnd = try readUntilHeaderEnd()
        let headText = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        buffer.removeFirst(headerEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line: \(headText)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        // No content after a HEAD, a 1xx, a 204 or a 304, whatever `Content-Length` says (RFC 9112 §6.3).
        let bodiless = method == "HEAD" || status < 200 || status == 204 || status == 304
        let length = bodiless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length { try fill() }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        if headers["connection"]?.lowercased() == "close" { disconnect() }
        return Reply(status: status, headers: headers, body: body)
    }

    /// Whether the server closed the connection (reads EOF within the timeout).
    func serverClosed() -> Bool {
        do {
            while true { try fill() }
        } catch {
            return (error as? Failure)?.description == "connection closed"
        }
    }

    /// Everything the server sends until it closes the connection (throws when it stays open past the read
    /// timeout): for checking that nothing follows a response.
    func readToEnd() throws -> [UInt8] {
        do {
            while true { try fill() }
        } catch let failure as Failure where failure.description == "connection closed" {
            defer { buffer = [] }
            return buffer
        }
    }

    /// Whether the server has closed the connection, without waiting: a pending end of stream or reset.
    /// Bytes already sent by the server are left unread.
    var isClosedByServer: Bool {
        guard socket >= 0 else { return true }
        var byte: UInt8 = 0
        let n = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if n == 0 { return true }
        return n < 0 && errno != EAGAIN && errno != EWOULDBLOCK
    }

    private func readUntilHeaderEnd() throws -> Int {
        while true {
            if let index = findHeaderEnd() { return index }
            try fill()
        }
    }

    private func findHeaderEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    private func fill() throws {
        guard socket >= 0 else { throw Failure(description: "connection closed") }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if n == 0 {
            disconnect()
            throw Failure(description: "connection closed")
        }
        guard n > 0 else { throw Failure(description: "recv failed or timed out: errno \(errno)") }
        buffer.append(contentsOf: chunk[..<n])
    }
}
