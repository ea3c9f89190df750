import LinkCore
import Synchronization

/// The app-association files (API.md §7), built from the live route table once per change, not per request.
final class AssociationFiles: Sendable {
    /// A file's bytes and its `ETag` (`"` + the first 16 hex digits of the body's SHA-256 + `"`).
    struct File: Sendable {
        let body: [UInt8]
        let etag: String

        init(_ body: [UInt8]) {
            self.body = body
            etag = EntityTag.sha256(of: body)
        }
    }

    struct Built: Sendable {
        let apple: File?
        let android: File?
    }

    private let settings: LinksSettings
    private let cache = Mutex<(serial: UInt64, files: Built?)>((0, nil))

    init(settings: LinksSettings) {
        self.settings = settings
    }

    /// The files for the route table of `routes`, a published snapshot (the same snapshot's serial gives the cached
    /// files).
    func files(for routes: LiveState<Resolver>.Snapshot) -> Built {
        if let cached = cache.withLock({ $0.serial == routes.serial ? $0.files : nil }) { return cached }
        let built = build(routes.value.table)
        cache.withLock { $0 = (routes.serial, built) }
        return built
    }

    func build(_ table: RouteTable) -> Built {
        let components = AssociationFiles.components(table)
        let apple = settings.ios.map {
            File(
                AppleAppSiteAssociation(appIDs: $0.appIDs, components: components, webCredentials: $0.webcredentials)
                    .encoded())
        }
        let android = settings.android.map {
            File(AssetLinks(package: $0.package, fingerprints: $0.fingerprints, components: components).encoded())
        }
        return Built(apple: apple, android: android)
    }

    /// Refuses a table whose Apple file would exceed Apple's 128 KB (422 `association_too_large`).
    func check(_ table: RouteTable) throws(LinkError) {
        guard let ios = settings.ios else { return }
        let bytes = AppleAppSiteAssociation(
            appIDs: ios.appIDs, components: AssociationFiles.components(table), webCredentials: ios.webcredentials
        ).encoded()
        try AppleAppSiteAssociation.checkSize(bytes)
    }

    static func components(_ table: RouteTable) -> AssociationComponents {
        AssociationComponents(
            routes: table.routes.map {
                AssociationRoute(
                    pattern: $0.pattern, name: $0.name, caseInsensitive: $0.caseInsensitive,
                    appLinks: $0.link?.appLinks ?? true)
            })
    }
}
