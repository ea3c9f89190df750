/// The ordered component list of the association files, built from the live routes (API.md §7 "Files for the
/// operating systems").
///
/// Both platforms test components in order, stop at the first match, and let their wildcards match `/`; so the
/// list is sorted by specificity:
/// - patterns are compared segment by segment by kind, literal before parameter before catch-all;
/// - when the kinds agree all the way and one pattern is longer, the longer comes first;
/// - remaining ties go by the globs' bytes (then by input order).
///
/// A pattern ending in a literal segment also gets a twin glob ending in `/` (LinkServer ignores a trailing slash,
/// the platforms do not), right after it with the same comment and flags. A route with `appLinks: false` keeps its
/// place and is `exclude`d. When two components have the same glob, only the first is kept.
public struct AssociationComponents: Sendable, Hashable {
    /// The components, in the order the files list them.
    public let components: [AssociationComponent]

    /// Builds the list for `routes` (in any order).
    public init(routes: [AssociationRoute]) {
        let entries = routes.enumerated().map { index, route in
            Entry(
                route: route, index: index, kinds: route.pattern.segments.map(Self.kind),
                glob: Array(
                    AssociationComponent.glob(of: route.pattern).utf8))
        }
        var components: [AssociationComponent] = []
        components.reserveCapacity(entries.count * 2)
        var seen = Set<String>()
        for entry in entries.sorted(by: Self.precedes) {
            let glob = String(decoding: entry.glob, as: UTF8.self)
            let component = AssociationComponent(
                glob: glob, comment: entry.route.name ?? entry.route.pattern.description,
                caseInsensitive: entry.route.caseInsensitive, exclude: !entry.route.appLinks)
            if seen.insert(glob).inserted { components.append(component) }
            if entry.kinds.last == 0 {
                var twin = component
                twin.glob = glob + "/"
                if seen.insert(twin.glob).inserted { components.append(twin) }
            }
        }
        self.components = components
    }

    /// A route with what it is sorted by.
    private struct Entry {
        var route: AssociationRoute
        var index: Int
        /// Each segment's kind: 0 literal, 1 parameter, 2 catch-all.
        var kinds: [Int]
        var glob: [UInt8]
    }

    private static func kind(_ segment: PatternSegment) -> Int {
        switch segment {
        case .literal: return 0
        case .parameter: return 1
        case .catchAll: return 2
        }
    }

    /// Whether `a` is listed before `b`.
    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        for (kindA, kindB) in zip(a.kinds, b.kinds) where kindA != kindB {
            return kindA < kindB
        }
        if a.kinds.count != b.kinds.count { return a.kinds.count > b.kinds.count }
        if a.glob != b.glob { return a.glob.lexicographicallyPrecedes(b.glob) }
        return a.index < b.index
    }
}
