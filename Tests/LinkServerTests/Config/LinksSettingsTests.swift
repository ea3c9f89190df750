import Foundation
import LinkCore
import Testing

@testable import LinkServer

/// `links.*` (API.md §7): the example file loads; every malformed value stops the start naming the setting.
@Suite struct LinksSettingsTests {
    static let example: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("config/linkserver.example.json").path
    }()

    @Test func theExampleConfigLoads() throws {
        let config = try ConfigLoader.load(
            configFile: Self.example, environment: ["LINK_LINKS_PORT": "9091"])
        #expect(config.links.port == 9091)
        #expect(config.links.ios?.appIDs.map(\.description) == ["ABCDE12345.com.example.app"])
        #expect(config.links.android?.package.description == "com.example.app")
        #expect(config.links.linkPolicy == LinkPolicy(iosScheme: "myapp", androidScheme: "myapp"))
        #expect(config.links.webURL?.description == "https://www.example.com{location}")
        #expect(config.links.preview.isSet)
        #expect(config.links.robotsTxt == nil)
        #expect(config.trustedProxies.networks.isEmpty)
    }

    /// Host names in any case, with a leading `*.` or a trailing dot, and addresses, are entries of `links.hosts`.
    @Test func hostNamesAndAddressesAreHosts() throws {
        let path = TestServer.temporaryDirectory() + "/linkserver.json"
        let hosts = [
            "Links.Example.COM", "*.example.com", "links.example.com.", "127.0.0.1", "[::1]", "::2", "my_host",
        ]
        try JSONValue.object(["links": .object(["hosts": .array(hosts.map(JSONValue.string))])]).description.write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(try ConfigLoader.load(configFile: path, environment: [:]).linkHosts == hosts.map { $0.lowercased() })
    }

    /// A `LINK_` variable that names no setting is reported (and warned about at start): a typo would otherwise
    /// silently leave the default. Derived names, short names, `LINK_CONFIG` and the test switches are not.
    @Test func variablesThatNameNoSettingAreReported() throws {
        let config = try ConfigLoader.load(
            configFile: nil,
            environment: [
                "LINK_SERVER_MAX_URI_BYTES": "9000", "LINK_SERVER_MAX_URIBYTES": "9000", "LINK_PORT": "9",
                "LINK_LINKS_WEB_URL": "https://www.example.com{location}", "LINK_ADMIN_TOKN": "x",
                "LINK_TEST_POSTGRES_URL": "postgres://x", "PATH": "/bin",
            ])
        #expect(config.server.maxURIBytes == 9000)
        #expect(config.unusedVariables == ["LINK_ADMIN_TOKN", "LINK_SERVER_MAX_URI_BYTES"])
    }

    @Test func trustedProxiesAreReadFromTheEnvironment() throws {
        let config = try ConfigLoader.load(
            configFile: Self.example, environment: ["LINK_LINKS_TRUSTED_PROXIES": "127.0.0.1,10.0.0.0/8,fd00::/8"])
        #expect(config.trustedProxies.networks.map(\.description) == ["127.0.0.1/32", "10.0.0.0/8", "fd00::/8"])
    }

    @Test(arguments: [
        (#"{"links": {"webURL": "https://{x}.example.com/"}}"#, "links.webURL"),
        (#"{"links": {"webURL": "https://www.example.com/{id}"}}"#, "links.webURL"),
        (#"{"links": {"redirectStatus": 303}}"#, "links.redirectStatus"),
        (#"{"links": {"apps": {"ios": {"appIDs": ["com.example.app"]}}}}"#, "links.apps.ios.appIDs"),
        (#"{"links": {"apps": {"ios": {"appIDs": []}}}}"#, "links.apps.ios.appIDs"),
        (#"{"links": {"apps": {"ios": {}}}}"#, "links.apps.ios.appIDs"),
        (#"{"links": {"apps": {"android": {}}}}"#, "links.apps.android.package"),
        (
            #"{"links": {"apps": {"android": {"package": "example", "sha256CertFingerprints": ["00"]}}}}"#,
            "links.apps.android.package"
        ),
        (
            #"{"links": {"apps": {"android": {"package": "com.example.app", "sha256CertFingerprints": ["AB:CD"]}}}}"#,
            "links.apps.android.sha256CertFingerprints"
        ),
        (
            #"{"links": {"apps": {"android": {"package": "com.example.app"}}}}"#,
            "links.apps.android.sha256CertFingerprints"
        ),
        (#"{"links": {"apps": {"windows": {}}}}"#, "links.apps.windows"),
        // The store URL is every link's iOS target when it has none: §7's ct-needs-pt rule holds for it too.
        (
            #"{"links": {"apps": {"ios": {"appIDs": ["ABCDE12345.com.x"], "storeURL": "https://apps.apple.com/app/id1?ct=abc"}}}}"#,
            "links.apps.ios.storeURL"
        ),
        (#"{"links": {"webURL": "https://www.example.com/a b{location}"}}"#, "links.webURL"),
        (#"{"links": {"webURL": "https://www.example.com/%zz{location}"}}"#, "links.webURL"),
        (#"{"links": {"notFoundURL": "https://www.example.com/\u00e9"}}"#, "links.notFoundURL"),
        (#"{"links": {"notFoundURL": "/404"}}"#, "links.notFoundURL"),
        (#"{"links": {"trustedProxies": ["10.0.0.1/8"]}}"#, "links.trustedProxies"),
        (#"{"links": {"trustedProxies": ["proxy.internal"]}}"#, "links.trustedProxies"),
        (#"{"links": {"hosts": ["https://links.example.com"]}}"#, "links.hosts"),
        (#"{"links": {"hosts": ["*"]}}"#, "links.hosts"),
        (#"{"links": {"hosts": ["a.*.example.com"]}}"#, "links.hosts"),
        (#"{"links": {"hosts": ["links.example.com/path"]}}"#, "links.hosts"),
        (#"{"links": {"hosts": ["links.example.com:8081"]}}"#, "links.hosts"),
        (#"{"links": {"hosts": ["links..example.com"]}}"#, "links.hosts"),
        (#"{"links": {"hosts": [""]}}"#, "links.hosts"),
        (#"{"links": {"hosts": []}}"#, "links.hosts"),
    ])
    func malformedSettingsStopTheStartNamingTheSetting(json: String, setting: String) throws {
        let path = TestServer.temporaryDirectory() + "/linkserver.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try ConfigLoader.load(configFile: path, environment: [:])
        } throws: { error in
            "\(error)".contains(setting)
        }
    }
}
