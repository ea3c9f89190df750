import Glibc
import LinkCore

/// Click counts a stop could not write to the store (a shared store out of reach), kept in a file of the data folder
/// for the next start (`clicks-unwritten.json`): a JSON array of `{"day", "pattern", "platform", "kind", "name",
/// "count"}`. Written whole to a temporary file, synced and renamed over the old one, so a crash leaves either file
/// whole. With a shared store several instances may use one folder: a stop adds to what is there and a start takes
/// it all, each under an exclusive lock of `clicks-unwritten.lock`, so no count is taken twice or overwritten. A
/// start writes them to the store before it removes the file.
struct KeptClicks {
    let directory: String
    let path: String

    init(directory: String) {
        self.directory = directory
        path = directory + "/clicks-unwritten.json"
    }

    /// Adds `counts` to the file (a stop).
    func add(_ counts: [ClickCount]) throws {
        try locked { () throws in
            var merged: [ClickKey: (name: String?, count: Int)] = [:]
            var order: [ClickKey] = []
            for count in try read() + counts {
                if merged[count.key] == nil { order.append(count.key) }
                let sum = ClickCount.adding(count.count, to: merged[count.key]?.count ?? 0)
                merged[count.key, default: (nil, 0)].count = sum
                if let name = count.name { merged[count.key]?.name = name }
            }
            try write(order.map { ClickCount(key: $0, name: merged[$0]?.name, count: merged[$0]?.count ?? 0) })
        }
    }

    /// Hands the counts kept by earlier stops to `store` (a start), then removes the file: only once they are
    /// stored, so a start that fails, or a store that refuses them, leaves them for the next one (a crash between
    /// the commit and the removal counts them twice, rather than never). Returns how many clicks were handed on;
    /// 0 without a file (nothing is made then: a start needs no writable folder). A file that cannot be read as
    /// written is an error, and left in place for the operator.
    func take(into store: ([ClickCount]) throws -> Void) throws -> Int {
        guard access(path, F_OK) == 0 else { return 0 }
        return try locked { () throws -> Int in
            let counts = try read()
            if !counts.isEmpty { try store(counts) }
            if unlink(path) != 0, errno != ENOENT { throw KeptClicks.failure("cannot remove \(path)") }
            syncFolder()
            return counts.reduce(0) { ClickCount.adding($1.count, to: $0) }
        }
    }

    /// Runs `body` holding the exclusive lock of the folder's kept counts (made with the folder when missing).
    private func locked<T>(_ body: () throws -> T) throws -> T {
        mkdir(directory, 0o700)
        let lockPath = directory + "/clicks-unwritten.lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw KeptClicks.failure("cannot open \(lockPath)") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw KeptClicks.failure("cannot lock \(lockPath)") }
        }
        return try body()
    }

    /// Replaces the file with `counts`.
    private func write(_ counts: [ClickCount]) throws(KeptClicks.Failure) {
        let json = JSONValue.array(
            counts.map { count in
                [
                    "day": .int(Int(count.key.day)), "pattern": .string(count.key.pattern),
                    "platform": .string(count.key.platform), "kind": .string(count.key.kind.rawValue),
                    "name": count.name.map(JSONValue.string) ?? .null, "count": .int(count.count),
                ]
            })
        let bytes = Array(json.encodedString().utf8)
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw KeptClicks.failure("cannot create \(temporary)") }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                let failure = KeptClicks.failure("cannot write \(temporary)")
                close(descriptor)
                unlink(temporary)
                throw failure
            }
            written += result
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw KeptClicks.failure("cannot keep \(path)")
        }
        syncFolder()
    }

    /// Makes a rename or a removal in the folder durable.
    private func syncFolder() {
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// The counts in the file, or `[]` when there is none.
    private func read() throws(KeptClicks.Failure) -> [ClickCount] {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            if error.code == ENOENT { return [] }
            throw Failure(description: "cannot read \(path): \(error)")
        }
        guard let json = try? JSONParser.parse(bytes), case .array(let items) = json else {
            throw Failure(description: "\(path) is not a JSON array")
        }
        return try items.map { item throws(KeptClicks.Failure) in
            guard case .int(let day) = item["day"], case .string(let pattern) = item["pattern"],
                case .string(let platform) = item["platform"], case .string(let kindText) = item["kind"],
                let kind = ClickKind(rawValue: kindText), case .int(let count) = item["count"], count > 0
            else { throw Failure(description: "\(path) has an item that is not a click count") }
            let key = ClickKey(day: Int64(day), pattern: pattern, platform: platform, kind: kind)
            return ClickCount(key: key, name: item["name"]?.stringValue, count: count)
        }
    }

    /// What went wrong with the file, and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static func failure(_ text: String) -> Failure {
        Failure(description: "\(text): \(String(cString: strerror(errno)))")
    }
}
