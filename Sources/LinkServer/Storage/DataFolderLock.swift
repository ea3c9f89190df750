import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive lock on the data folder, held for the life of the store.
///
/// Two processes on one folder would each keep their own in-memory state and overwrite each other's writes, so
/// the second one must not start. `flock` locks belong to the open file: the kernel releases them when the
/// process exits, even after `kill -9`, so a crash never leaves a stale lock behind.
final class DataFolderLock: Sendable {
    static let fileName = "linkserver.lock"
    private let descriptor: Mutex<Int32?>

    /// Takes the lock, or fails with a ``ConfigError`` (exit code 2) naming the folder and the holder's pid.
    init(directory: String) throws {
        let path = (directory as NSString).appendingPathComponent(DataFolderLock.fileName)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ConfigError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var locked = flock(descriptor, LOCK_EX | LOCK_NB) == 0
        // Held by this very process: by a store it closed an instant ago, whose open file a child that another thread
        // is spawning still shares until its exec (a `flock` belongs to the open file, which the fork copies). Such a
        // hold ends within moments; wait for it a little. (A holder in another pid namespace with the same pid, two
        // containers each pid 1 on one volume, is refused as any other, 2 s later.)
        if !locked, DataFolderLock.readPID(descriptor) == String(getpid()) {
            let deadline = ContinuousClock.now + .seconds(2)
            while !locked && ContinuousClock.now < deadline {
                usleep(10_000)
                locked = flock(descriptor, LOCK_EX | LOCK_NB) == 0
            }
        }
        guard locked else {
            let holder = DataFolderLock.readPID(descriptor)
            Glibc.close(descriptor)
            throw ConfigError(
                "storage.dataDir \(directory) is in use by another LinkServer process"
                    + (holder.map { " (pid \($0))" } ?? "") + "; give each process its own data folder")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = Mutex(descriptor)
    }

    deinit { release() }

    /// Releases the lock (once; later calls do nothing).
    func release() {
        if let descriptor = descriptor.withLock({ $0.take() }) { Glibc.close(descriptor) }
    }

    private static func readPID(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
