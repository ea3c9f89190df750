import LinkCore
import Testing

@Suite struct AppleAppIDTests {
    @Test(arguments: [
        ("ABCDE12345.com.example.app", "ABCDE12345", "com.example.app"),
        ("ABCDE12345.app", "ABCDE12345", "app"),
        ("0123456789.com.Example-App.v2", "0123456789", "com.Example-App.v2"),
    ])
    func acceptsAppleAppIDs(text: String, team: String, bundle: String) throws {
        let appID = try AppleAppID(text)
        #expect(appID.teamID == team)
        #expect(appID.bundleID == bundle)
        #expect(appID.description == text)
    }

    @Test(arguments: [
        "", "ABCDE12345", "ABCDE12345.", "abcde12345.com.example.app", "ABCDE1234.com.example.app",
        "ABCDE123456.com.example.app", "ABCDE12345.com..app", "ABCDE12345.com.example.", "ABCDE12345..app",
        "ABCDE12345.com.example_app", "ABCDE12345.com.exämple", "ABCDE-2345.com.example", "ABCDE12345.com example",
    ])
    func rejectsMalformedAppleAppIDs(text: String) {
        #expect(throws: LinkError.self) { try AppleAppID(text) }
    }

    @Test func errorsNameTheSettingAndTheValue() {
        #expect {
            try AppleAppID("ABC.app")
        } throws: { error in
            guard let error = error as? LinkError else { return false }
            return error.code == .invalidRequest && error.message.contains("links.apps.ios.appIDs")
                && error.message.contains("'ABC.app'") && error.details["field"] == "links.apps.ios.appIDs"
                && error.details["value"] == "ABC.app"
        }
    }
}
