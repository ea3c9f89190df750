/// The apple-app-site-association file (API.md §7 "Files for the operating systems"), written deterministically.
///
/// Compact JSON, no insignificant whitespace, keys always in this order:
/// `{"applinks":{"details":[{"appIDs":[…],"components":[{"/":…,"comment":…,"caseSensitive":false,"exclude":true},
/// …]}]},"webcredentials":{"apps":[…]}}`, where `caseSensitive` appears only for a case-insensitive route,
/// `exclude` only for a web-only one, and `webcredentials` only when asked for. Never the legacy `appID` / `paths`.
public struct AppleAppSiteAssociation: Sendable, Hashable {
    /// The most bytes Apple reads (128 KB); a larger file is `association_too_large`.
    public static let maximumBytes = 131_072

    /// The app IDs (`links.apps.ios.appIDs`), in order.
    public var appIDs: [AppleAppID]
    public var components: AssociationComponents
    /// Whether to add `webcredentials` (`links.apps.ios.webcredentials`).
    public var webCredentials: Bool

    public init(appIDs: [AppleAppID], components: AssociationComponents, webCredentials: Bool = false) {
        self.appIDs = appIDs
        self.components = components
        self.webCredentials = webCredentials
    }

    /// The file's bytes.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + components.components.count * 64)
        writer.beginObject()
        writer.key("applinks")
        writer.beginObject()
        writer.key("details")
        writer.beginArray()
        writer.beginObject()
        writer.key("appIDs")
        writeAppIDs(into: &writer)
        writer.key("components")
        writer.beginArray()
        for component in components.components {
            writer.beginObject()
            writer.key("/")
            writer.string(component.glob)
            writer.key("comment")
            writer.string(component.comment)
            if component.caseInsensitive {
                writer.key("caseSensitive")
                writer.value(.bool(false))
            }
            if component.exclude {
                writer.key("exclude")
                writer.value(.bool(true))
            }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.endArray()
        writer.endObject()
        if webCredentials {
            writer.key("webcredentials")
            writer.beginObject()
            writer.key("apps")
            writeAppIDs(into: &writer)
            writer.endObject()
        }
        writer.endObject()
        return writer.bytes
    }

    private func writeAppIDs(into writer: inout JSONWriter) {
        writer.beginArray()
        for appID in appIDs { writer.string(appID.description) }
        writer.endArray()
    }

    /// Checks that `bytes`, an encoded file, fit Apple's limit.
    ///
    /// - Throws: `association_too_large` with details `bytes` and `limit` (``maximumBytes``).
    public static func checkSize(_ bytes: [UInt8]) throws(LinkError) {
        guard bytes.count > maximumBytes else { return }
        throw LinkError(
            .associationTooLarge,
            "The apple-app-site-association file would be \(bytes.count) bytes; Apple reads at most \(maximumBytes)",
            details: ["bytes": .int(bytes.count), "limit": .int(maximumBytes)])
    }
}
