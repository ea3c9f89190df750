import LinkCore
import Testing

/// One test per row of the documented table, each row exercised by an agent built from its token.
@Suite struct UserAgentTableTests {
    /// The tokens every `allOf` row of `platform` requires.
    private static func allOf(_ platform: Platform) -> [String] {
        UserAgentTable.rows.filter { $0.outcome == .platform(platform) && $0.match == .allOf }.map(\.token)
    }

    @Test(arguments: UserAgentTable.rows)
    func row(_ row: UserAgentRule) {
        switch (row.outcome, row.match) {
        case (.bot(let kind), .substring):
            #expect(UserAgentClass(userAgent: "Mozilla/5.0 (compatible; \(row.token)/1.0)").bot == kind)
            // Case-sensitive: another case is no match unless a case-insensitive catch-all finds it.
            let shouted = row.token.uppercased()
            if !["BOT", "CRAWLER", "SPIDER"].contains(where: { shouted.contains($0) }) {
                #expect(UserAgentClass(userAgent: "Mozilla/5.0 (compatible; \(shouted)/1.0)").bot == nil)
            }
        case (.bot(let kind), .substringIgnoringCase):
            #expect(UserAgentClass(userAgent: "Some\(row.token)/1.0").bot == kind)
            #expect(UserAgentClass(userAgent: "SOME\(row.token.uppercased())/1.0").bot == kind)
        case (.platform(let platform), .substring):
            #expect(UserAgentClass(userAgent: "Mozilla/5.0 (\(row.token); like Gecko)").platform == platform)
        case (.platform(let platform), .allOf):
            let all = Self.allOf(platform)
            #expect(UserAgentClass(userAgent: all.joined(separator: " ")).platform == platform)
            let missing = all.filter { $0 != row.token }.joined(separator: " ")
            #expect(UserAgentClass(userAgent: missing).platform == .desktop)
        case (.platform(let platform), .noneOf):
            let all = Self.allOf(platform)
            #expect(UserAgentClass(userAgent: all.joined(separator: " ")).platform == platform)
            #expect(UserAgentClass(userAgent: (all + [row.token]).joined(separator: " ")).platform == .desktop)
        case (.platform(let platform), .otherwise):
            #expect(UserAgentClass(userAgent: "").platform == platform)
            #expect(UserAgentClass(userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:121.0)").platform == platform)
        case (.inAppBrowser, .substring):
            #expect(UserAgentClass(userAgent: "Mozilla/5.0 (iPhone) [\(row.token)/1.0]").isInAppBrowser)
            #expect(!UserAgentClass(userAgent: "Mozilla/5.0 (iPhone)").isInAppBrowser)
        default:
            Issue.record("no test for a row matched \(row.match) with outcome \(row.outcome)")
        }
    }

    @Test func botRowsComeInTheDocumentedOrder() {
        let bots = UserAgentTable.rows.compactMap { row -> (String, BotKind, UserAgentRule.Match)? in
            if case .bot(let kind) = row.outcome { return (row.token, kind, row.match) }
            return nil
        }
        #expect(bots.prefix(18).allSatisfy { $0.1 == .preview && $0.2 == .substring })
        #expect(bots.dropFirst(18).allSatisfy { $0.1 == .crawler })
        #expect(bots.suffix(3).map(\.0) == ["bot", "crawler", "spider"])
        #expect(bots.suffix(3).allSatisfy { $0.2 == .substringIgnoringCase })
        #expect(bots.count == 36)
    }

    /// API.md §7 step 2 lists the bot tokens: the table holds exactly those, each with its kind, in the contract's
    /// order (so nothing is added, dropped or moved between `preview` and `crawler` without the contract).
    @Test func botTokensAreExactlyTheContractsList() {
        let preview = [
            "facebookexternalhit", "Facebot", "meta-externalagent", "facebookcatalog", "Twitterbot", "Slackbot",
            "LinkedInBot", "Discordbot", "TelegramBot", "WhatsApp", "SkypeUriPreview", "Embedly", "Iframely",
            "redditbot", "Pinterestbot", "vkShare", "Bluesky Cardyb", "Mastodon/",
        ]
        let crawler = [
            "Googlebot", "Google-InspectionTool", "GoogleOther", "bingbot", "BingPreview", "Applebot", "DuckDuckBot",
            "YandexBot", "Baiduspider", "AASA-Bot", "HeadlessChrome", "curl/", "Wget/", "python-requests",
            "Go-http-client", "bot", "crawler", "spider",
        ]
        let bots = UserAgentTable.rows.compactMap { row -> String? in
            guard case .bot(let kind) = row.outcome else { return nil }
            return "\(kind.rawValue) \(row.token)"
        }
        #expect(bots == preview.map { "preview " + $0 } + crawler.map { "crawler " + $0 })
    }

    @Test func platformsComeInTheDocumentedOrder() {
        var order: [Platform] = []
        for row in UserAgentTable.rows {
            if case .platform(let platform) = row.outcome, !order.contains(platform) { order.append(platform) }
        }
        #expect(order == [.ios, .android, .ambiguous, .desktop])
    }
}

extension UserAgentRule: CustomTestStringConvertible {
    public var testDescription: String { "\(token.isEmpty ? "(otherwise)" : token) → \(outcome)" }
}
