/// An iOS app's ID as the apple-app-site-association file lists it: `TEAMID.bundle.id` (API.md §7 "Settings").
///
/// The team ID is 10 characters `A–Z 0–9`; the bundle ID is one or more non-empty segments of `A–Z a–z 0–9 -`
/// joined by `.`.
public struct AppleAppID: Sendable, Hashable, CustomStringConvertible {
    /// The 10-character team ID, e.g. `ABCDE12345`.
    public let teamID: String
    /// The bundle ID, e.g. `com.example.app`.
    public let bundleID: String

    /// Validates `text`.
    ///
    /// - Parameter field: the setting named in the error.
    /// - Throws: `invalid_request` naming `field` and `text` (``LinkError/invalidSetting(_:value:reason:)``).
    public init(_ text: String, field: String = "links.apps.ios.appIDs") throws(LinkError) {
        let bytes = Array(text.utf8)
        func fail(_ reason: String) -> LinkError { .invalidSetting(field, value: text, reason: reason) }
        guard bytes.count > 11, bytes[10] == UInt8(ascii: ".") else {
            throw fail("expected TEAMID.bundle.id with a 10-character team ID")
        }
        guard bytes[..<10].allSatisfy(Self.isTeamIDByte) else {
            throw fail("the team ID must be 10 characters A-Z or 0-9")
        }
        let bundle = bytes[11...]
        guard bundle.allSatisfy({ Self.isBundleByte($0) || $0 == UInt8(ascii: ".") }) else {
            throw fail("the bundle ID may hold only A-Z, a-z, 0-9, '-' and '.'")
        }
        guard !bundle.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).contains(where: \.isEmpty)
        else {
            throw fail("the bundle ID must not have an empty segment")
        }
        teamID = String(decoding: bytes[..<10], as: UTF8.self)
        bundleID = String(decoding: bundle, as: UTF8.self)
    }

    /// `TEAMID.bundle.id`.
    public var description: String { teamID + "." + bundleID }

    private static func isTeamIDByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isBundleByte(_ byte: UInt8) -> Bool {
        isTeamIDByte(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == UInt8(ascii: "-")
    }
}
