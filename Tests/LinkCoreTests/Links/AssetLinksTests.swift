import LinkCore
import Testing

/// The rendered bytes of assetlinks.json.
@Suite struct AssetLinksTests {
    @Test func smallTable() throws {
        let file = AssetLinks(
            package: try AndroidPackageName("com.example.app"),
            fingerprints: [try CertificateFingerprint(AssociationFixtures.fingerprint.lowercased())],
            components: try AssociationFixtures.table())
        let expected =
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"#
            + #""target":{"namespace":"android_app","package_name":"com.example.app","#
            + #""sha256_cert_fingerprints":["\#(AssociationFixtures.fingerprint)"]},"#
            + #""relation_extensions":{"delegate_permission/common.handle_all_urls":{"#
            + #""dynamic_app_link_components":[{"/":"/users/?*/posts/?*","comments":"userPost"},"#
            + #"{"/":"/users/?*","exclude":true,"comments":"user"},"#
            + #"{"/":"/Help","comments":"/Help"},{"/":"/Help/","comments":"/Help"}]}}}]"#
        #expect(AssociationFixtures.text(file.encoded()) == expected)
        #expect(try JSONParser.parse(file.encoded()).arrayValue?.count == 1)
    }

    /// The example of API.md §7, whitespace removed, byte for byte.
    @Test func matchesTheContractsExample() throws {
        let file = AssetLinks(
            package: try AndroidPackageName("com.example.app"),
            fingerprints: [try CertificateFingerprint(AssociationFixtures.fingerprint)],
            components: AssociationComponents(routes: [
                AssociationRoute(pattern: try Pattern("/users/:id"), name: "user", appLinks: false),
                AssociationRoute(pattern: try Pattern("/users/:id/posts/:postId"), name: "userPost"),
            ]))
        let example = """
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "com.example.app",
                         "sha256_cert_fingerprints": ["\(AssociationFixtures.fingerprint)"]},
              "relation_extensions": {"delegate_permission/common.handle_all_urls": {
                "dynamic_app_link_components": [
                  {"/": "/users/?*/posts/?*", "comments": "userPost"},
                  {"/": "/users/?*", "exclude": true, "comments": "user"}]}}}]
            """
        #expect(AssociationFixtures.text(file.encoded()) == String(example.filter { $0 != " " && $0 != "\n" }))
    }

    @Test func withoutRoutesExcludesEverything() throws {
        let file = AssetLinks(
            package: try AndroidPackageName("com.example.app"),
            fingerprints: [try CertificateFingerprint(AssociationFixtures.fingerprint)],
            components: AssociationComponents(routes: []))
        let text = AssociationFixtures.text(file.encoded())
        #expect(text.hasSuffix(#""dynamic_app_link_components":[{"/":"*","exclude":true}]}}}]"#))
    }
}
