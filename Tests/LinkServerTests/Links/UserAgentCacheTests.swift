import LinkCore
import Testing

@testable import LinkServer

/// The links listener's cache of user-agent classes: the classifier's answers, bounded in agents and in length.
@Suite struct UserAgentCacheTests {
    static let agents = [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
            + "Version/17.0 Mobile/15E148 Safari/604.1",
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
            + "Mobile Safari/537.36",
        "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 "
            + "Safari/605.1.15",
        "",
    ]

    @Test(arguments: agents)
    func aKnownAgentGetsTheClassifiersAnswer(agent: String) {
        let cache = UserAgentCache()
        let expected = UserAgentClassifier.standard.classify(agent)
        #expect(cache.classify(agent) == expected)
        #expect(cache.count == 1)
        #expect(cache.classify(agent) == expected)
        #expect(cache.count == 1)
    }

    @Test func theCacheHoldsAtMostItsCapacityAndStaysRight() {
        let cache = UserAgentCache()
        let agents = (0..<(4 * UserAgentCache.capacity)).map { "agent \($0)" } + UserAgentCacheTests.agents
        for agent in agents { _ = cache.classify(agent) }
        #expect(cache.count <= UserAgentCache.capacity)
        // Most agents have a slot of their own.
        #expect(cache.count > UserAgentCache.capacity / 2)
        // Whichever agent holds a slot now, every agent still gets the classifier's answer.
        for agent in agents.shuffled() {
            #expect(cache.classify(agent) == UserAgentClassifier.standard.classify(agent))
        }
    }

    @Test func agentsThatShareASlotTakeItOverFromEachOther() throws {
        let cache = UserAgentCache()
        let iphone = UserAgentCacheTests.agents[0]
        var iphoneBytes = iphone
        let slot = iphoneBytes.withUTF8 { UserAgentCache.slot(of: $0) }
        let rival = try #require(
            (0..<200_000).lazy.map { "bot \($0)" }.first { name in
                var name = name
                return name.withUTF8 { UserAgentCache.slot(of: $0) } == slot
            })
        #expect(cache.classify(iphone).platform == .ios)
        #expect(cache.classify(rival) == UserAgentClassifier.standard.classify(rival))
        #expect(cache.count == 1)
        #expect(cache.classify(iphone).platform == .ios)
        #expect(cache.count == 1)
    }

    @Test func aLongAgentIsClassifiedButNotKept() {
        let cache = UserAgentCache()
        let long = UserAgentCacheTests.agents[0] + String(repeating: " padding", count: 100)
        #expect(long.utf8.count > UserAgentCache.longestKept)
        #expect(cache.classify(long) == UserAgentClassifier.standard.classify(long))
        #expect(cache.classify(long).platform == .ios)
        #expect(cache.count == 0)
    }
}
