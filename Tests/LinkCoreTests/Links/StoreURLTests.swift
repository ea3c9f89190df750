import Testing

@testable import LinkCore

/// The stores' URLs are recognised with their scheme and host in any case (RFC 3986 §3.1, §3.2.2), their path as
/// written.
@Suite struct StoreURLTests {
    @Test func schemeAndHostInAnyCase() {
        #expect(StoreURL.isPlayDetails("https://play.google.com/store/apps/details?id=com.example.app"))
        #expect(StoreURL.isPlayDetails("HTTPS://PLAY.Google.COM/store/apps/details?id=com.example.app"))
        #expect(StoreURL.isAppStore("https://Apps.Apple.com/app/id1"))
        #expect(StoreURL.isAppStore("https://ITUNES.apple.com/app/id1"))
        #expect(StoreURL.isAppStoreWithCampaign("HTTP://apps.apple.COM/app/id1?pt=1&ct=x"))
    }

    /// The same origin with the host's trailing dot or the scheme's default port (RFC 3986 §6.2.3).
    @Test func theSameOriginWrittenOtherwise() {
        #expect(StoreURL.isAppStore("https://apps.apple.com./app/id1"))
        #expect(StoreURL.isAppStore("https://apps.apple.com:443/app/id1"))
        #expect(StoreURL.isAppStore("https://apps.apple.com.:443/app/id1"))
        #expect(StoreURL.isAppStoreWithCampaign("http://apps.apple.com:80/app/id1?ct=x"))
        #expect(StoreURL.isPlayDetails("https://play.google.com.:443/store/apps/details?id=x"))
        #expect(StoreURL.isAppStore("https://apps.apple.com:/app/id1"))
        #expect(!StoreURL.isAppStore("https://apps.apple.com:8443/app/id1"))
        #expect(!StoreURL.isAppStore("https://apps.apple.com:80/app/id1"))
        #expect(!StoreURL.isAppStore("https://apps.apple.com../app/id1"))
        #expect(!StoreURL.isAppStoreWithCampaign("http://apps.apple.com:443/app/id1"))
    }

    @Test func otherURLsAreNot() {
        // The path is compared as written; the host must end where the store's does.
        #expect(!StoreURL.isPlayDetails("https://play.google.com/STORE/apps/details?id=x"))
        #expect(!StoreURL.isPlayDetails("https://play.google.com/store/apps/details"))
        #expect(!StoreURL.isPlayDetails("https://play.google.com.example.org/store/apps/details?id=x"))
        #expect(!StoreURL.isPlayDetails("http://play.google.com/store/apps/details?id=x"))
        #expect(!StoreURL.isAppStore("https://apps.apple.com.example.org/app/id1"))
        #expect(!StoreURL.isAppStore("https://apps.apple.co"))
        #expect(!StoreURL.isAppStore("http://apps.apple.com/app/id1"))
        #expect(!StoreURL.isAppStoreWithCampaign("ftp://apps.apple.com/app/id1"))
        #expect(!StoreURL.isAppStore(""))
    }

    /// An Android person sent to a Play page written with a capital host still gets the token and the link in
    /// `referrer` (§9: "whenever the target is a Google Play details URL for the package").
    @Test func aPlayURLWithACapitalHostCarriesTheToken() throws {
        var settings = ClickDeciderTests.settings()
        settings.android?.storeURL = "https://PLAY.GOOGLE.COM/store/apps/details?id=com.example.app"
        let facts = ClickFacts(
            location: try Location("/users/42"), linkAsClicked: "https://links.example.com/users/42",
            host: "links.example.com", platform: .android, bot: nil, inAppBrowser: false)
        let decision = ClickDecider(settings: settings).decide(
            .init(
                facts: facts, lsp: nil, now: ClickDeciderTests.now, counted: true, clicksCounted: nil, token: { "T" }),
            resolver: ClickDeciderTests.resolver())
        #expect(decision.tokenUsed)
        #expect(
            decision.target == "https://PLAY.GOOGLE.COM/store/apps/details?id=com.example.app&referrer="
                + "linkserver_token%3DT%26linkserver_link%3Dhttps%253A%252F%252Flinks.example.com%252Fusers%252F42")
    }
}
