/// Where the service keeps its state (`storage.url`, API.md §12): the embedded SQLite database (the default) or a
/// PostgreSQL database shared by several instances.
///
/// Its `description` never shows the password, so it is safe in logs and error messages.
enum StorageURL: Sendable, Equatable, CustomStringConvertible {
    case sqlite
    case postgres(PostgresLocation)

    /// Parses `sqlite` or `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]`
    /// (`postgresql://` too); user, password and database are percent-decoded. The error never holds the password.
    init(parsing text: String) throws(ConfigError) {
        if text == "sqlite" {
            self = .sqlite
            return
        }
        self = .postgres(try PostgresLocation(parsing: text))
    }

    var description: String {
        switch self {
        case .sqlite: "sqlite"
        case .postgres(let location): location.description
        }
    }
}

/// The address of a PostgreSQL database.
struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    enum TLSMode: String, Sendable {
        case disable, prefer, require
    }

    var user: String
    var password: String?
    var host: String
    var port: Int
    var database: String
    var tls: TLSMode

    /// `postgres://user:***@host:port/database`: the password is replaced, so this may be logged.
    var description: String {
        "postgres://\(user)\(password == nil ? "" : ":***")@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
    }

    init(user: String, password: String?, host: String, port: Int, database: String, tls: TLSMode = .prefer) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.tls = tls
    }

    init(parsing text: String) throws(ConfigError) {
        let expected = "sqlite or postgres://user[:password]@host[:port]/database"
        func fail(_ reason: String) -> ConfigError {
            // Never echo the text: it may hold a password.
            ConfigError("invalid storage.url: \(reason) (expected \(expected))")
        }
        var rest = Substring(text)
        if rest.hasPrefix("postgres://") {
            rest = rest.dropFirst("postgres://".count)
        } else if rest.hasPrefix("postgresql://") {
            rest = rest.dropFirst("postgresql://".count)
        } else {
            throw fail("unknown scheme")
        }
        var tls = TLSMode.prefer
        if let question = rest.firstIndex(of: "?") {
            for item in rest[rest.index(after: question)...].split(separator: "&") {
                let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, parts[0] == "sslmode", let mode = TLSMode(rawValue: parts[1]) else {
                    throw fail("the only query item understood is sslmode=disable|prefer|require")
                }
                tls = mode
            }
            rest = rest[..<question]
        }
        guard let at = rest.lastIndex(of: "@") else { throw fail("no user") }
        let credentials = rest[..<at]
        let address = rest[rest.index(after: at)...]
        let user: String
        var password: String?
        if let colon = credentials.firstIndex(of: ":") {
            user = try PostgresLocation.decode(credentials[..<colon], fail("a malformed escape in the user"))
            password = try PostgresLocation.decode(
                credentials[credentials.index(after: colon)...], fail("a malformed escape in the password"))
        } else {
            user = try PostgresLocation.decode(credentials, fail("a malformed escape in the user"))
        }
        guard !user.isEmpty else { throw fail("no user") }
        guard let slash = address.firstIndex(of: "/") else { throw fail("no database") }
        let database = try PostgresLocation.decode(
            address[address.index(after: slash)...], fail("a malformed escape in the database"))
        guard !database.isEmpty, !database.contains("/") else { throw fail("no database") }
        var hostPort = address[..<slash]
        var host: Substring
        var port = 5432
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw fail("a malformed IPv6 host") }
            host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            hostPort = hostPort[hostPort.index(after: close)...]
            if !hostPort.isEmpty {
                guard hostPort.hasPrefix(":") else { throw fail("a malformed IPv6 host") }
                hostPort = hostPort.dropFirst()
                guard let number = Int(hostPort), (1...65535).contains(number) else { throw fail("a bad port") }
                port = number
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<colon]
            guard let number = Int(hostPort[hostPort.index(after: colon)...]), (1...65535).contains(number) else {
                throw fail("a bad port")
            }
            port = number
        } else {
            host = hostPort
        }
        guard !host.isEmpty else { throw fail("no host") }
        self.init(
            user: user, password: password, host: String(host), port: port, database: database, tls: tls)
    }

    /// Percent-decodes a URL component as UTF-8.
    private static func decode(_ text: Substring, _ error: @autoclosure () -> ConfigError) throws(ConfigError)
        -> String
    {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw error()
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw error() }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
