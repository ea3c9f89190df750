import Glibc

/// A whole file read with POSIX calls, and why it could not be, in the system's words: the one reader of the config
/// file, the routes file, the click counts kept at a stop and `/proc`'s files.
enum FileBytes {
    /// A failed `open` or `read`: its `errno`, described as the system does ("No such file or directory",
    /// "Permission denied", "Is a directory").
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        var description: String { String(cString: strerror(code)) }
    }

    /// The bytes of the file at `path`, read `chunk` bytes at a time.
    static func read(_ path: String, chunk size: Int = 65_536) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: size)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure(code: errno) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}
