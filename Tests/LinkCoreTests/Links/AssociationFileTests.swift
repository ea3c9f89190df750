import LinkCore
import Testing

/// The rendered bytes of both association files for a small route table.
@Suite struct AssociationFileTests {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static func table() throws -> AssociationComponents {
        AssociationComponents(routes: [
            AssociationRoute(pattern: try Pattern("/users/:id"), name: "user", appLinks: false),
            AssociationRoute(pattern: try Pattern("/Help"), caseInsensitive: true),
            AssociationRoute(pattern: try Pattern("/users/:id/posts/:postId"), name: "userPost"),
        ])
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test(arguments: [false, true])
    func appleAppSiteAssociation(webCredentials: Bool) throws {
        let file = AppleAppSiteAssociation(
            appIDs: [try AppleAppID("ABCDE12345.com.example.app"), try AppleAppID("FGHIJ67890.com.example.beta")],
            components: try Self.table(), webCredentials: webCredentials)
        let applinks =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app","FGHIJ67890.com.example.beta"],"#
            + #""components":[{"/":"/users/?*/posts/?*","comment":"userPost"},"#
            + #"{"/":"/users/?*","comment":"user","exclude":true},"#
            + #"{"/":"/Help","comment":"/Help","caseSensitive":false},"#
            + #"{"/":"/Help/","comment":"/Help","caseSensitive":false}]}]}"#
        let credentials = #","webcredentials":{"apps":["ABCDE12345.com.example.app","FGHIJ67890.com.example.beta"]}"#
        #expect(Self.text(file.encoded()) == applinks + (webCredentials ? credentials : "") + "}")
        #expect(try JSONParser.parse(file.encoded())["applinks"]?["details"]?.arrayValue?.count == 1)
    }

    @Test func appleAppSiteAssociationWithoutRoutes() throws {
        let file = AppleAppSiteAssociation(
            appIDs: [try AppleAppID("ABCDE12345.com.example.app")], components: AssociationComponents(routes: []))
        #expect(
            Self.text(file.encoded())
                == #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[]}]}}"#)
    }

    @Test func assetLinks() throws {
        let file = AssetLinks(
            package: try AndroidPackageName("com.example.app"),
            fingerprints: [try CertificateFingerprint(Self.fingerprint.lowercased())], components: try Self.table())
        let expected =
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"#
            + #""target":{"namespace":"android_app","package_name":"com.example.app","#
            + #""sha256_cert_fingerprints":["\#(Self.fingerprint)"]},"#
            + #""relation_extensions":{"delegate_permission/common.handle_all_urls":{"#
            + #""dynamic_app_link_components":[{"/":"/users/?*/posts/?*","comments":"userPost"},"#
            + #"{"/":"/users/?*","exclude":true,"comments":"user"},"#
            + #"{"/":"/Help","comments":"/Help"},{"/":"/Help/","comments":"/Help"}]}}}]"#
        #expect(Self.text(file.encoded()) == expected)
        #expect(try JSONParser.parse(file.encoded()).arrayValue?.count == 1)
    }

    /// The example of API.md §7, whitespace removed, byte for byte.
    @Test func assetLinksMatchTheContractsExample() throws {
        let file = AssetLinks(
            package: try AndroidPackageName("com.example.app"),
            fingerprints: [try CertificateFingerprint(Self.fingerprint)],
            components: AssociationComponents(routes: [
                AssociationRoute(pattern: try Pattern("/users/:id"), name: "user", appLinks: false),
                AssociationRoute(pattern: try Pattern("/users/:id/posts/:postId"), name: "userPost"),
            ]))
        let example = """
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "com.example.app",
                         "sha256_cert_fingerprints": ["\(Self.fingerprint)"]},
              "relation_extensions": {"delegate_permission/common.handle_all_urls": {
                "dynamic_app_link_components": [
                  {"/": "/users/?*/posts/?*", "comments": "userPost"},
                  {"/": "/users/?*", "exclude": true, "comments": "user"}]}}}]
            """
        #expect(Self.text(file.encoded()) == String(example.filter { $0 != " " && $0 != "\n" }))
    }

    @Test func assetLinksWithoutRoutesExcludeEverything() throws {
        let file = AssetLinks(
            package: try AndroidPackageName("com.example.app"),
            fingerprints: [try CertificateFingerprint(Self.fingerprint)], components: AssociationComponents(routes: []))
        let text = Self.text(file.encoded())
        #expect(text.hasSuffix(#""dynamic_app_link_components":[{"/":"*","exclude":true}]}}}]"#))
    }

    @Test func commentsAreEscaped() throws {
        let components = AssociationComponents(routes: [
            AssociationRoute(pattern: try Pattern("/q"), name: #"say "hi"\"#)
        ])
        let file = AppleAppSiteAssociation(appIDs: [], components: components)
        #expect(Self.text(file.encoded()).contains(#""comment":"say \"hi\"\\""#))
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

    @Test func sameRoutesSameBytes() throws {
        let appIDs = [try AppleAppID("ABCDE12345.com.example.app")]
        let one = AppleAppSiteAssociation(appIDs: appIDs, components: try Self.table()).encoded()
        let routes = try Self.table()
        #expect(AppleAppSiteAssociation(appIDs: appIDs, components: routes).encoded() == one)
    }
}
