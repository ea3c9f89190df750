import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// Real `User-Agent`s of the bots of API.md §7 step 2 that no other test sends, each told apart on the links
/// listener: the JSON decision names the bot's kind. Several would be people without their row (`Embedly`,
/// `vkShare`, `GoogleOther` on an Android agent), and `redditbot` or `Pinterestbot` crawlers by the catch-all `bot`.
@Suite struct BotAgentTests {
    static let agents: [(String, String)] = [
        ("meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", "preview"),
        ("facebookcatalog/1.0", "preview"),
        (
            "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com",
            "preview"
        ),
        ("Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)", "preview"),
        ("Iframely/1.3.1 (+https://iframely.com/docs/about)", "preview"),
        ("Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)", "preview"),
        ("Mozilla/5.0 (compatible; Pinterestbot/1.0; +http://www.pinterest.com/bot.html)", "preview"),
        ("Mozilla/5.0 (compatible; vkShare; +http://vk.com/dev/Share)", "preview"),
        (
            "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/120.0.0.0 Mobile Safari/537.36 (compatible; Google-InspectionTool/1.0;)", "crawler"
        ),
        (
            "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/120.0.0.0 Mobile Safari/537.36 (compatible; GoogleOther)", "crawler"
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) BingPreview/1.0b",
            "crawler"
        ),
    ]

    /// §7 step 2: the bot's kind from its agent; a preview bot gets the card (`decision: "preview"`), a crawler what
    /// a desktop person gets (the route's desktop target).
    @Test(arguments: agents)
    func eachBotIsToldApart(agent: String, kind: String) throws {
        try withServer({ LinkListenerTests.configure(&$0) }) { (server) throws in
            #expect(try server.client().post("/v1/routes", LinkListenerTests.userRoute).status == 201)
            let reply = try server.linksClient().click(
                "/users/42", agent: agent, headers: ["Accept": "application/json"])
            #expect(reply.json?["bot"] == .string(kind))
            if kind == "preview" {
                #expect(reply.json?["decision"] == "preview")
                #expect(reply.json?["status"] == 200)
            } else {
                #expect(reply.json?["decision"] == "redirect")
                #expect(reply.json?["target"] == "https://www.example.com/u/42")
            }
        }
    }
}
