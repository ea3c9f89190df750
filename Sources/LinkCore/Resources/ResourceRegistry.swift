/// Every resource of the service as an immutable snapshot (ARCHITECTURE.md): writes return a new registry and
/// what changed; readers share a snapshot freely.
///
/// Resources are kept in creation order, unique by pattern shape (parameter names ignored) and by name, with a
/// ``SegmentTrie`` over their patterns for reads by location. ``revision`` is the global revision: every write
/// bumps it by one and stamps the written resource with it. Copying a registry copies one reference.
public struct ResourceRegistry: Sendable {
    /// The frozen indexes of one snapshot.
    final class Storage: Sendable {
        /// Creation order; the trie's entry index is the index here.
        let resources: [Resource]
        let byShape: [String: Int]
        let byName: [String: Int]
        let trie: SegmentTrie<Void>
        let revision: Int

        init(resources: [Resource], revision: Int) {
            self.resources = resources
            self.revision = revision
            var byShape: [String: Int] = [:]
            var byName: [String: Int] = [:]
            byShape.reserveCapacity(resources.count)
            for (index, resource) in resources.enumerated() {
                byShape[resource.shape] = index
                if let name = resource.name { byName[name] = index }
            }
            self.byShape = byShape
            self.byName = byName
            trie = SegmentTrie(resources.map { SegmentTrie.Entry($0.pattern, ()) })
        }
    }

    let storage: Storage

    /// An empty registry at revision 0.
    public init() {
        storage = Storage(resources: [], revision: 0)
    }

    /// A registry of stored resources (listed in creation order) at global revision `revision`.
    ///
    /// The revision is raised to the highest resource revision if it is lower.
    ///
    /// - Throws: `resource_exists` or `name_conflict` when two resources share a pattern shape or a name.
    public init(resources: [Resource], revision: Int) throws(LinkError) {
        var shapes: Set<String> = []
        var names: Set<String> = []
        for resource in resources {
            guard shapes.insert(resource.shape).inserted else {
                throw ResourceRegistry.exists(resource)
            }
            if let name = resource.name, !names.insert(name).inserted {
                throw LinkError(
                    .nameConflict, "Two resources are named '\(name)'",
                    details: ["name": .string(name), "pattern": .string(resource.pattern.description)])
            }
        }
        storage = Storage(resources: resources, revision: max(revision, resources.map(\.revision).max() ?? 0))
    }

    init(storage: Storage) {
        self.storage = storage
    }

    /// The global revision: the number of writes so far (0 before any).
    public var revision: Int { storage.revision }

    /// Every resource, in creation order.
    public var resources: [Resource] { storage.resources }

    public var count: Int { storage.resources.count }

    /// The resource registered under `pattern`, parameter names ignored.
    public func resource(at pattern: Pattern) -> Resource? {
        storage.byShape[pattern.shape()].map { storage.resources[$0] }
    }

    /// The resource named `name`.
    public func resource(named name: String) -> Resource? {
        storage.byName[name].map { storage.resources[$0] }
    }

    /// `{"resources": [...]}`, each item as ``Resource/json``.
    public var listJSON: JSONValue {
        .object(["resources": .array(storage.resources.map(\.json))])
    }

    static func exists(_ resource: Resource) -> LinkError {
        LinkError(
            .resourceExists, "A resource already has the pattern \(resource.pattern)",
            details: ["path": .string(resource.pattern.description), "name": resource.nameJSON])
    }
}
