/// The registered event types, addressable by pattern shape and by name, and matchable against a location.
///
/// An immutable value: changes produce a new catalog, so a failed request changes nothing. Each type keeps the
/// index it was registered at for its lifetime (subscriptions refer to types by index); a removed type leaves
/// an empty slot, and registering its pattern again gives a new index.
public struct EventTypeCatalog: Sendable, Equatable {
    private var slots: [EventType?] = []
    private var byShape: [String: Int] = [:]
    private var byName: [String: Int] = [:]

    public init(_ types: [EventType] = []) {
        for type in types where byShape[type.pattern.shape()] == nil {
            if let name = type.name, byName[name] != nil { continue }
            add(type)
        }
    }

    private mutating func add(_ type: EventType) {
        byShape[type.pattern.shape()] = slots.count
        if let name = type.name { byName[name] = slots.count }
        slots.append(type)
    }

    /// The live types, in registration order.
    public var types: [EventType] { slots.compactMap { $0 } }

    /// How many types are registered.
    public var count: Int { byShape.count }

    /// The type registered at `index` (`nil` once removed).
    public func type(at index: Int) -> EventType? { index < slots.count ? slots[index] : nil }

    /// The type named `name`.
    public func index(named name: String) -> Int? { byName[name] }

    /// The type with the same pattern shape as `pattern` (parameter names may differ).
    public func index(of pattern: Pattern) -> Int? { byShape[pattern.shape()] }

    /// Removes the type at `index`: its name is free again and no emit matches it. Built-in types stay
    /// (`read_only`).
    public func removing(_ index: Int) throws(LinkError) -> EventTypeCatalog {
        guard let type = type(at: index) else { return self }
        if type.isBuiltIn {
            throw LinkError(
                .readOnly, "The event type '\(type.label)' is built in and cannot be removed",
                details: [
                    "name": type.name.map(JSONValue.string) ?? .null, "pattern": .string(type.pattern.description),
                ])
        }
        var catalog = self
        catalog.slots[index] = nil
        catalog.byShape[type.pattern.shape()] = nil
        if let name = type.name { catalog.byName[name] = nil }
        return catalog
    }

    /// Resolves subscription entries to type indices, registering new patterns and binding new names.
    ///
    /// - `{path}` registers the pattern, or reuses the type with the same shape (parameter names may differ);
    /// - `{name}` must name a registered type (`unknown_name`);
    /// - `{path, name}` also binds the name; a name bound to another pattern, or a pattern already named
    ///   otherwise, is `name_conflict`.
    /// Returns the new catalog, the index of each entry's type, and the types added or renamed (to persist).
    public func resolving(_ requests: [EventTypeRequest]) throws(LinkError) -> (
        catalog: EventTypeCatalog, indices: [Int], changed: [EventType]
    ) {
        var catalog = self
        var indices: [Int] = []
        var changed: Set<Int> = []
        for request in requests {
            if let name = request.name, !EventTypeCatalog.isValidName(name) {
                throw LinkError(
                    .invalidRequest, "Event name '\(name)' must match [A-Za-z0-9_.-]+", details: ["name": .string(name)]
                )
            }
            guard let path = request.path else {
                guard let name = request.name else {
                    throw LinkError(.invalidRequest, "Each event needs a 'path', a 'name', or both")
                }
                guard let index = catalog.byName[name] else {
                    throw LinkError(.unknownName, "No event type is named '\(name)'", details: ["name": .string(name)])
                }
                indices.append(index)
                continue
            }
            let pattern = try Pattern(path)
            let shape = pattern.shape()
            if let name = request.name, let bound = catalog.byName[name], let existing = catalog.slots[bound],
                existing.pattern.shape() != shape
            {
                throw LinkError(
                    .nameConflict, "The name '\(name)' is bound to \(existing.pattern)",
                    details: ["name": .string(name), "pattern": .string(existing.pattern.description)])
            }
            if let index = catalog.byShape[shape], let existing = catalog.slots[index] {
                if let name = request.name, existing.name != name {
                    if let existingName = existing.name {
                        throw LinkError(
                            .nameConflict,
                            "The event type \(existing.pattern) is already named '\(existingName)'",
                            details: ["name": .string(existingName), "pattern": .string(existing.pattern.description)])
                    }
                    catalog.slots[index]?.name = name
                    catalog.byName[name] = index
                    changed.insert(index)
                }
                indices.append(index)
            } else {
                catalog.add(EventType(pattern: pattern, name: request.name))
                indices.append(catalog.slots.count - 1)
                changed.insert(catalog.slots.count - 1)
            }
        }
        return (catalog, indices, changed.sorted().compactMap { catalog.slots[$0] })
    }

    /// Every type whose pattern matches the decoded `segments`, best first by the precedence of API.md §2
    /// (at the first segment where two patterns differ, a literal beats a parameter, which beats a catch-all),
    /// with the parameters each pattern captures.
    public func matches(_ segments: [String]) -> [(index: Int, parameters: PathParameters)] {
        var found: [(index: Int, rank: [UInt8])] = []
        for (index, type) in slots.enumerated() {
            guard let type else { continue }
            if let rank = EventTypeCatalog.rank(of: type.pattern, matching: segments) {
                found.append((index, rank))
            }
        }
        found.sort { $0.rank.lexicographicallyPrecedes($1.rank) || ($0.rank == $1.rank && $0.index < $1.index) }
        return found.map { ($0.index, slots[$0.index]!.pattern.parameters(in: segments)) }
    }

    /// The kinds of the pattern's segments (0 literal, 1 parameter, 2 catch-all) when it matches, else `nil`.
    static func rank(of pattern: Pattern, matching segments: [String]) -> [UInt8]? {
        var rank: [UInt8] = []
        rank.reserveCapacity(pattern.segments.count)
        for (position, segment) in pattern.segments.enumerated() {
            switch segment {
            case .literal(let text):
                guard position < segments.count, segments[position] == text else { return nil }
                rank.append(0)
            case .parameter:
                guard position < segments.count else { return nil }
                rank.append(1)
            case .catchAll:
                guard position < segments.count else { return nil }
                rank.append(2)
                return rank
            }
        }
        return pattern.segments.count == segments.count ? rank : nil
    }

    static func isValidName(_ name: String) -> Bool {
        RouteDefinition.isValidName(name)
    }
}
