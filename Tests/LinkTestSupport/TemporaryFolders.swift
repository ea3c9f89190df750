import Foundation

/// Folders for a test process's files (data folders, config files, logs), all inside one folder of the process that
/// is removed when the process exits. Each server a test starts keeps a SQLite file in its folder: a test run left
/// ~800 of them in the system's temporary folder, run after run, before.
public enum TemporaryFolders {
    /// The process's folder, made on first use; removed at exit (a crashed or killed run leaves it behind, with the
    /// process id in its name).
    public static let root: String = {
        let path = NSTemporaryDirectory() + "linkserver-tests-\(getpid())-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TemporaryFolders.root) }
        return path
    }()

    /// A new empty folder named `prefix` and a unique suffix, removed with the others at exit.
    public static func make(_ prefix: String) -> String {
        let path = root + "/" + prefix + "-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
