import LinkCore
import Testing

/// The Play Store referrer of a deferred link (API.md §9) and its bound (api-notes: a link as clicked longer than
/// 2,048 bytes is not carried).
@Suite struct PlayReferrerTests {
    static let store = "https://play.google.com/store/apps/details?id=com.example.app"

    @Test func theTokenAndTheLinkAreAddedToTheReferrer() {
        let url = PlayReferrer.adding(token: "tok", link: "https://l.example/a?b=1", to: Self.store)
        #expect(
            url == Self.store
                + "&referrer=linkserver_token%3Dtok%26linkserver_link%3Dhttps%253A%252F%252Fl.example%252Fa%253Fb%253D1"
        )
        #expect(
            PlayReferrer.queryValue("referrer", in: url)
                == "linkserver_token=tok&linkserver_link=https%3A%2F%2Fl.example%2Fa%3Fb%3D1")
    }

    @Test func aLinkPastTheBoundIsLeftOut() {
        let long = "https://l.example/" + String(repeating: "a", count: LinksSettings.maxDeferredLinkBytes)
        #expect(
            PlayReferrer.adding(token: "tok", link: long, to: Self.store) == Self.store
                + "&referrer=linkserver_token%3Dtok")
        // Nothing to add: the store URL as it is, not an empty referrer; an existing referrer stays as it was.
        #expect(PlayReferrer.adding(token: nil, link: long, to: Self.store) == Self.store)
        let withReferrer = Self.store + "&referrer=utm_source%3Dmail"
        #expect(PlayReferrer.adding(token: nil, link: long, to: withReferrer) == withReferrer)
        let atTheBound = "https://l.example/" + String(repeating: "a", count: LinksSettings.maxDeferredLinkBytes - 18)
        #expect(PlayReferrer.adding(token: nil, link: atTheBound, to: Self.store).contains("linkserver_link"))
    }
}
