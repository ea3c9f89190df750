import Testing

@testable import LinkServer

@Suite struct StorageURLTests {
    @Test func sqliteIsTheDefaultAndAWord() throws {
        #expect(Config().storage == .sqlite)
        #expect(try StorageURL(parsing: "sqlite") == .sqlite)
    }

    @Test(arguments: [
        ("postgres://u:p@h:6543/d", PostgresLocation(user: "u", password: "p", host: "h", port: 6543, database: "d")),
        ("postgres://u@h/d", PostgresLocation(user: "u", password: nil, host: "h", port: 5432, database: "d")),
        (
            "postgresql://us%40r:p%3Aw%2Fd@[::1]:5000/my%20db?sslmode=disable",
            PostgresLocation(user: "us@r", password: "p:w/d", host: "::1", port: 5000, database: "my db", tls: .disable)
        ),
        ("postgres://u:@h/d", PostgresLocation(user: "u", password: "", host: "h", port: 5432, database: "d")),
    ])
    func parses(text: String, expected: PostgresLocation) throws {
        #expect(try StorageURL(parsing: text) == .postgres(expected))
    }

    @Test(arguments: [
        "mysql://u:secret@h/d", "postgres://h/d", "postgres://u:secret@h", "postgres://u:secret@h:99999/d",
        "postgres://u:secret@:5432/d", "postgres://u:sec%zzret@h/d", "postgres://u:secret@h/d?sslmode=maybe", "",
    ])
    func refusesWithoutShowingThePassword(text: String) {
        #expect {
            try StorageURL(parsing: text)
        } throws: { error in
            let message = "\(error)"
            return message.contains("storage.url") && !message.contains("secret") && !message.contains("sec%zz")
        }
    }

    @Test func descriptionHidesThePassword() throws {
        let url = try StorageURL(parsing: "postgres://app:s3cr3t@db.internal:5433/links")
        #expect(url.description == "postgres://app:***@db.internal:5433/links")
        #expect(!"\(url)".contains("s3cr3t"))
    }

    @Test func environmentAndFlagSetIt() throws {
        let fromEnvironment = try ConfigLoader.load(
            configFile: nil,
            environment: ["LINK_STORAGE_URL": "postgres://a:b@127.0.0.1:1/x"])
        #expect(fromEnvironment.storage.description == "postgres://a:***@127.0.0.1:1/x")
        let command = try LinkServerCommand.parse(["--storage-url", "sqlite"])
        let fromFlag = try ConfigLoader.load(
            commandLine: command.commandLine, configFile: nil,
            environment: ["LINK_STORAGE_URL": "postgres://a:b@127.0.0.1:1/x"])
        #expect(fromFlag.storage == .sqlite)
        #expect {
            try ConfigLoader.load(
                configFile: nil,
                environment: ["LINK_STORAGE_URL": "redis://a:topsecret@h/d"])
        } throws: { error in
            "\(error)".contains("LINK_STORAGE_URL") && !"\(error)".contains("topsecret")
        }
    }
}
