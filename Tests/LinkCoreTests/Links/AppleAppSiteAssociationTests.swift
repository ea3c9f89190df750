import LinkCore
import Testing

/// The rendered bytes of the apple-app-site-association file.
@Suite struct AppleAppSiteAssociationTests {
    @Test(arguments: [false, true])
    func smallTable(webCredentials: Bool) throws {
        let file = AppleAppSiteAssociation(
            appIDs: [try AppleAppID("ABCDE12345.com.example.app"), try AppleAppID("FGHIJ67890.com.example.beta")],
            components: try AssociationFixtures.table(), webCredentials: webCredentials)
        let applinks =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app","FGHIJ67890.com.example.beta"],"#
            + #""components":[{"/":"/users/?*/posts/?*","comment":"userPost"},"#
            + #"{"/":"/users/?*","comment":"user","exclude":true},"#
            + #"{"/":"/Help","comment":"/Help","caseSensitive":false},"#
            + #"{"/":"/Help/","comment":"/Help","caseSensitive":false}]}]}"#
        let credentials = #","webcredentials":{"apps":["ABCDE12345.com.example.app","FGHIJ67890.com.example.beta"]}"#
        #expect(AssociationFixtures.text(file.encoded()) == applinks + (webCredentials ? credentials : "") + "}")
        #expect(try JSONParser.parse(file.encoded())["applinks"]?["details"]?.arrayValue?.count == 1)
    }

    @Test func withoutRoutes() throws {
        let file = AppleAppSiteAssociation(
            appIDs: [try AppleAppID("ABCDE12345.com.example.app")], components: AssociationComponents(routes: []))
        #expect(
            AssociationFixtures.text(file.encoded())
                == #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[]}]}}"#)
    }

    @Test func commentsAreEscaped() throws {
        let components = AssociationComponents(routes: [
            AssociationRoute(pattern: try Pattern("/q"), name: #"say "hi"\"#)
        ])
        let file = AppleAppSiteAssociation(appIDs: [], components: components)
        #expect(AssociationFixtures.text(file.encoded()).contains(#""comment":"say \"hi\"\\""#))
    }

    @Test func sizeLimit() throws {
        #expect(AppleAppSiteAssociation.maximumBytes == 131_072)
        try AppleAppSiteAssociation.checkSize([UInt8](repeating: 0x20, count: 131_072))
        #expect {
            try AppleAppSiteAssociation.checkSize([UInt8](repeating: 0x20, count: 131_073))
        } throws: { error in
            let error = error as? LinkError
            return error?.code == .associationTooLarge && error?.details == ["bytes": 131_073, "limit": 131_072]
        }
    }

    @Test func sameRoutesInAnyOrderSameBytes() throws {
        let appIDs = [try AppleAppID("ABCDE12345.com.example.app")]
        let routes = [
            AssociationRoute(pattern: try Pattern("/users/:id"), name: "user", appLinks: false),
            AssociationRoute(pattern: try Pattern("/Help"), caseInsensitive: true),
            AssociationRoute(pattern: try Pattern("/users/:id/posts/:postId"), name: "userPost"),
        ]
        let forward = AppleAppSiteAssociation(appIDs: appIDs, components: AssociationComponents(routes: routes))
        let backward = AppleAppSiteAssociation(
            appIDs: appIDs, components: AssociationComponents(routes: routes.reversed()))
        #expect(forward.encoded() == backward.encoded())
        #expect(
            forward.encoded()
                == AppleAppSiteAssociation(appIDs: appIDs, components: try AssociationFixtures.table()).encoded())
    }
}
