import Foundation
import Testing

@testable import LinkServer

/// The data folder's lock (`linkserver.lock`): a second holder is refused, naming the first; a hold by this very
/// process that ends within moments (a store closed an instant ago, whose open file a child being spawned by another
/// thread shares until its exec) is waited for, so that a store can be reopened in process right after it is closed.
@Suite struct DataFolderLockTests {
    @Test func aSecondHolderIsRefusedNamingTheFirst() throws {
        let directory = TestServer.temporaryDirectory()
        let first = try DataFolderLock(directory: directory)
        defer { first.release() }
        let error = #expect(throws: ConfigError.self) { try DataFolderLock(directory: directory) }
        #expect(error?.description.contains("in use by another LinkServer process (pid \(getpid()))") == true)
    }

    /// A data folder that cannot be made is refused in the system's words, naming the setting.
    @Test func aDataFolderThatCannotBeMadeIsNamed() throws {
        let file = TestServer.temporaryDirectory() + "/file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let under = #expect(throws: ConfigError.self) { try SQLiteStore(directory: file + "/data") }
        #expect(under?.description == "cannot create storage.dataDir \(file)/data: Not a directory")
        let itself = #expect(throws: ConfigError.self) { try SQLiteStore(directory: file) }
        #expect(itself?.description == "storage.dataDir \(file) is not a folder")
    }

    @Test func aHoldThatEndsWithinMomentsIsWaitedFor() throws {
        let directory = TestServer.temporaryDirectory()
        let first = try DataFolderLock(directory: directory)
        let releaser = Thread {
            usleep(200_000)
            first.release()
        }
        releaser.start()
        let second = try DataFolderLock(directory: directory)
        second.release()
    }
}
