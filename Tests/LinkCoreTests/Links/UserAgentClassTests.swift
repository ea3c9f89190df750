import LinkCore
import Testing

@Suite struct UserAgentClassTests {
    struct Agent: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var bot: BotKind?
        var platform: Platform
        var inApp = false
        var testDescription: String { name }
    }

    static let agents: [Agent] = [
        Agent(
            name: "iPhone Safari",
            text: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Version/17.2 Mobile/15E148 Safari/604.1", bot: nil, platform: .ios),
        Agent(
            name: "iPad Safari, desktop mode",
            text: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Version/17.2 Safari/605.1.15", bot: nil, platform: .ambiguous),
        Agent(
            name: "iPad Chrome",
            text: "Mozilla/5.0 (iPad; CPU OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1", bot: nil, platform: .ios),
        Agent(
            name: "Mac Safari",
            text: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2_1) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Version/17.2.1 Safari/605.1.15", bot: nil, platform: .ambiguous),
        Agent(
            name: "Mac Chrome",
            text: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/120.0.0.0 Safari/537.36", bot: nil, platform: .desktop),
        Agent(
            name: "Mac Edge",
            text: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91", bot: nil, platform: .desktop),
        Agent(
            name: "Mac Firefox",
            text: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:121.0) Gecko/20100101 Firefox/121.0", bot: nil,
            platform: .desktop),
        Agent(
            name: "Android Chrome",
            text: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
                + "Mobile Safari/537.36", bot: nil, platform: .android),
        Agent(
            name: "Windows Edge",
            text: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0", bot: nil, platform: .desktop),
        Agent(
            name: "facebookexternalhit",
            text: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", bot: .preview,
            platform: .desktop),
        Agent(
            name: "Apple Messages previewer",
            text: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) "
                + "Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0", bot: .preview,
            platform: .ambiguous),
        Agent(
            name: "Slackbot-LinkExpanding",
            text: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", bot: .preview, platform: .desktop),
        Agent(name: "WhatsApp", text: "WhatsApp/2.23.20.0 A", bot: .preview, platform: .desktop),
        Agent(
            name: "Googlebot",
            text: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", bot: .crawler,
            platform: .desktop),
        Agent(
            name: "Googlebot smartphone",
            text: "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/120.0.6099.71 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            bot: .crawler, platform: .android),
        Agent(name: "curl", text: "curl/8.5.0", bot: .crawler, platform: .desktop),
        Agent(name: "python-requests", text: "python-requests/2.31.0", bot: .crawler, platform: .desktop),
        Agent(name: "unknown bot", text: "FooBot/1.0", bot: .crawler, platform: .desktop),
        Agent(name: "unknown spider", text: "Mozilla/5.0 (compatible; SomeSPIDER)", bot: .crawler, platform: .desktop),
        Agent(name: "empty", text: "", bot: nil, platform: .desktop),
        Agent(
            name: "Instagram on iPhone",
            text: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 Instagram 309.0.0.28.111 (iPhone14,5; iOS 17_1; en_US; en; scale=3.00)", bot: nil,
            platform: .ios, inApp: true),
        Agent(
            name: "Facebook on Android",
            text: "Mozilla/5.0 (Linux; Android 13; SM-S908B Build/TP1A.220624.014; wv) AppleWebKit/537.36 "
                + "(KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36 "
                + "[FB_IAB/FB4A;FBAV/442.0.0.33.113;]", bot: nil, platform: .android, inApp: true),
        Agent(
            name: "TikTok on Android",
            text: "Mozilla/5.0 (Linux; Android 12; SM-G991B) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/110.0.5481.153 Mobile Safari/537.36 musical_ly_2023203030 BytedanceWebview/d8a21c6",
            bot: nil, platform: .android, inApp: true),
        Agent(
            name: "iPhone Chrome",
            text:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1",
            bot: nil, platform: .ios),
        Agent(
            name: "iPhone Firefox",
            text:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/121.0 Mobile/15E148 Safari/605.1.15",
            bot: nil, platform: .ios),
        Agent(
            name: "iPod touch",
            text:
                "Mozilla/5.0 (iPod touch; CPU iPhone OS 15_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Mobile/15E148 Safari/604.1",
            bot: nil, platform: .ios),
        Agent(
            name: "Google app on iPhone",
            text:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/300.0.598994205 Mobile/15E148 Safari/604.1",
            bot: nil, platform: .ios),
        Agent(
            name: "LinkedIn app on iPhone",
            text:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.29.7926",
            bot: nil, platform: .ios),
        Agent(
            name: "Facebook on iPhone",
            text:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/440.0.0.33.116;FBBV/548226429]",
            bot: nil, platform: .ios, inApp: true),
        Agent(
            name: "Samsung Internet",
            text:
                "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36",
            bot: nil, platform: .android),
        Agent(
            name: "Android Firefox",
            text: "Mozilla/5.0 (Android 14; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0",
            bot: nil, platform: .android),
        Agent(
            name: "Gmail on Android (WebView)",
            text:
                "Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230901.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.43 Mobile Safari/537.36",
            bot: nil, platform: .android),
        Agent(
            name: "Windows Chrome",
            text:
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
            bot: nil, platform: .desktop),
        Agent(
            name: "Windows Firefox",
            text: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
            bot: nil, platform: .desktop),
        Agent(
            name: "Linux Chrome",
            text:
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
            bot: nil, platform: .desktop),
        Agent(
            name: "Twitterbot",
            text: "Twitterbot/1.0",
            bot: BotKind.preview, platform: .desktop),
        Agent(
            name: "LinkedInBot",
            text: "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
            bot: BotKind.preview, platform: .desktop),
        Agent(
            name: "Discordbot",
            text: "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
            bot: BotKind.preview, platform: .desktop),
        Agent(
            name: "TelegramBot",
            text: "TelegramBot (like TwitterBot)",
            bot: BotKind.preview, platform: .desktop),
        Agent(
            name: "Mastodon",
            text: "Mastodon/4.2.0 (http.rb/5.1.1; +https://mastodon.social/)",
            bot: BotKind.preview, platform: .desktop),
        Agent(
            name: "Bluesky",
            text: "Mozilla/5.0 (compatible; Bluesky Cardyb/1.1; +mailto:support@bsky.app)",
            bot: BotKind.preview, platform: .desktop),
        Agent(
            name: "Facebot",
            text: "Facebot",
            bot: BotKind.preview, platform: .desktop),
        Agent(
            name: "bingbot",
            text: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
            bot: BotKind.crawler, platform: .desktop),
        Agent(
            name: "Applebot (a Mac agent)",
            text:
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
            bot: BotKind.crawler, platform: .ambiguous),
        Agent(
            name: "HeadlessChrome",
            text:
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
            bot: BotKind.crawler, platform: .desktop),
        Agent(
            name: "Wget",
            text: "Wget/1.21.3",
            bot: BotKind.crawler, platform: .desktop),
        Agent(
            name: "Go-http-client",
            text: "Go-http-client/2.0",
            bot: BotKind.crawler, platform: .desktop),
        Agent(
            name: "Baiduspider",
            text: "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
            bot: BotKind.crawler, platform: .desktop),
    ]

    @Test(arguments: agents)
    func classifiesRealAgents(_ agent: Agent) {
        #expect(
            UserAgentClass(userAgent: agent.text)
                == UserAgentClass(bot: agent.bot, platform: agent.platform, isInAppBrowser: agent.inApp))
    }

    @Test func rawValues() {
        #expect(Platform.allCases.map(\.rawValue) == ["ios", "android", "ambiguous", "desktop"])
        #expect(BotKind.allCases.map(\.rawValue) == ["preview", "crawler"])
        #expect(UserAgentClass(userAgent: "curl/8.5.0").botJSON == "crawler")
        #expect(UserAgentClass(userAgent: "").botJSON == false)
    }

    @Test func aCustomTableIsReadTheSameWay() {
        let classifier = UserAgentClassifier(rows: [
            UserAgentRule("probe", .bot(.crawler), .substringIgnoringCase),
            UserAgentRule("Kindle", .platform(.android)),
        ])
        #expect(
            classifier.classify("A PROBE on a Kindle")
                == UserAgentClass(
                    bot: .crawler, platform: .android,
                    isInAppBrowser: false))
        #expect(classifier.classify("iPhone") == UserAgentClass(bot: nil, platform: .desktop, isInAppBrowser: false))
    }
}
