/// The Digital Asset Links file `assetlinks.json` (API.md §7 "Files for the operating systems"), written
/// deterministically.
///
/// Compact JSON, no insignificant whitespace, keys always in the order of the contract's example:
/// `[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app",
/// "package_name":…,"sha256_cert_fingerprints":[…]},"relation_extensions":{"delegate_permission/common.handle_all_urls":
/// {"dynamic_app_link_components":[{"/":…,"exclude":true,"comments":…},…]}}}]`.
///
/// Components carry `comments` (not `comment`) and never `caseSensitive` (Android has none); `exclude` appears only
/// for a web-only route. With no routes, the one array holds `{"/":"*","exclude":true}`, never nothing.
public struct AssetLinks: Sendable, Hashable {
    /// `links.apps.android.package`.
    public var package: AndroidPackageName
    /// `links.apps.android.sha256CertFingerprints`, in order.
    public var fingerprints: [CertificateFingerprint]
    public var components: AssociationComponents

    public init(package: AndroidPackageName, fingerprints: [CertificateFingerprint], components: AssociationComponents)
    {
        self.package = package
        self.fingerprints = fingerprints
        self.components = components
    }

    /// The file's bytes.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter(capacity: 320 + components.components.count * 64)
        writer.beginArray()
        writer.beginObject()
        writer.key("relation")
        writer.beginArray()
        writer.string("delegate_permission/common.handle_all_urls")
        writer.endArray()
        writer.key("target")
        writer.beginObject()
        writer.key("namespace")
        writer.string("android_app")
        writer.key("package_name")
        writer.string(package.description)
        writer.key("sha256_cert_fingerprints")
        writer.beginArray()
        for fingerprint in fingerprints { writer.string(fingerprint.description) }
        writer.endArray()
        writer.endObject()
        writer.key("relation_extensions")
        writer.beginObject()
        writer.key("delegate_permission/common.handle_all_urls")
        writer.beginObject()
        writer.key("dynamic_app_link_components")
        writer.beginArray()
        if components.components.isEmpty {
            writer.beginObject()
            writer.key("/")
            writer.string("*")
            writer.key("exclude")
            writer.value(.bool(true))
            writer.endObject()
        }
        for component in components.components {
            writer.beginObject()
            writer.key("/")
            writer.string(component.glob)
            if component.exclude {
                writer.key("exclude")
                writer.value(.bool(true))
            }
            writer.key("comments")
            writer.string(component.comment)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.endObject()
        writer.endObject()
        writer.endArray()
        return writer.bytes
    }
}
