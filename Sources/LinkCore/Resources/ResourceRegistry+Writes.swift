extension ResourceRegistry {
    /// The registry after one write, and what the write did.
    public typealias Outcome = (registry: ResourceRegistry, change: ResourceChange)

    /// Creates a resource, or applies `onExists` to the one with the same pattern (`POST /v1/resources`).
    ///
    /// - `fail`: `resource_exists` (details: the existing `path` and `name`).
    /// - `keep`: the existing pattern and value stay; a new name, if given, replaces the old one (freeing it).
    ///   With nothing to rename the result is ``ResourceChange/unchanged(_:)``: no write, no new revision.
    /// - `replace`: the new pattern text and value or rule; the name is the new one if given, else stays.
    ///
    /// `conditions` (`If-Match`) are checked against the resource with the same pattern, and never met when there is
    /// none; only when the write would otherwise succeed (RFC 9110 §13.2.1: a 409 stays a 409).
    ///
    /// - Throws: also `name_conflict` (details `name`, its `pattern`, `requestedPattern`) when the name is bound to
    ///   another pattern; `revision_mismatch` when a condition is not met.
    public func creating(_ creation: ResourceCreation, conditions: [RevisionCondition] = []) throws(LinkError)
        -> Outcome
    {
        let shape = creation.pattern.shape()
        guard let index = storage.byShape[shape] else {
            try checkName(creation.name, for: creation.pattern, owner: nil)
            if !conditions.isEmpty {
                throw LinkError(
                    .revisionMismatch, "No resource has the pattern \(creation.pattern) to match If-Match",
                    details: ["path": .string(creation.pattern.description), "name": .null, "revision": .null])
            }
            let resource = Resource(
                pattern: creation.pattern, name: creation.name, content: creation.content, revision: revision + 1)
            let next = ResourceRegistry(storage: Storage(resources: resources + [resource], revision: revision + 1))
            return (next, .created(resource))
        }
        let existing = storage.resources[index]
        if creation.onExists == .fail { throw ResourceRegistry.exists(existing) }
        try checkName(creation.name, for: creation.pattern, owner: index)
        try check(existing, against: conditions)
        var resource = existing
        resource.name = creation.name ?? existing.name
        if creation.onExists == .replace {
            resource.pattern = creation.pattern
            resource.content = creation.content
        } else if resource.name == existing.name {
            return (self, .unchanged(existing))
        }
        return replacing(at: index, with: resource)
    }

    /// Gives the resource addressed by `update.target` a new value or rule (`PATCH /v1/resources`); its pattern
    /// text and name stay.
    ///
    /// - Throws: `no_match` (details `path`) or `unknown_name` (details `name`) when nothing is addressed, then
    ///   `revision_mismatch` when `update.ifRevision` or one of `conditions` does not admit its revision.
    public func updating(_ update: ResourceUpdate, conditions: [RevisionCondition] = []) throws(LinkError) -> Outcome {
        let index = try index(of: update.target)
        try check(storage.resources[index], against: update.conditions + conditions)
        var resource = storage.resources[index]
        resource.content = update.content
        return replacing(at: index, with: resource)
    }

    /// Removes the resource addressed by `target` (`DELETE /v1/resources`); the removal is a write and bumps the
    /// global revision.
    ///
    /// - Throws: `no_match` or `unknown_name`, then `revision_mismatch` when a condition fails.
    public func deleting(_ target: ResourceTarget, conditions: [RevisionCondition] = []) throws(LinkError) -> Outcome {
        let index = try index(of: target)
        let removed = storage.resources[index]
        try check(removed, against: conditions)
        var resources = resources
        resources.remove(at: index)
        return (ResourceRegistry(storage: Storage(resources: resources, revision: revision + 1)), .deleted(removed))
    }

    /// The index of the resource a write addresses.
    func index(of target: ResourceTarget) throws(LinkError) -> Int {
        switch target {
        case .pattern(let pattern):
            guard let index = storage.byShape[pattern.shape()] else {
                throw LinkError(
                    .noMatch, "No resource has the pattern \(pattern)",
                    details: ["path": .string(pattern.description)])
            }
            return index
        case .name(let name):
            guard let index = storage.byName[name] else { throw ResourceRegistry.unknownName(name) }
            return index
        }
    }

    /// The registry with `resource` stamped with the next revision in place of the one at `index`.
    private func replacing(at index: Int, with resource: Resource) -> Outcome {
        var resource = resource
        resource.revision = revision + 1
        var resources = resources
        resources[index] = resource
        return (ResourceRegistry(storage: Storage(resources: resources, revision: revision + 1)), .updated(resource))
    }

    /// Throws `name_conflict` when `name` is bound to a resource other than the one at `owner`.
    private func checkName(_ name: String?, for pattern: Pattern, owner: Int?) throws(LinkError) {
        guard let name, let holder = storage.byName[name], holder != owner else { return }
        let bound = storage.resources[holder].pattern
        throw LinkError(
            .nameConflict, "The name '\(name)' is already bound to \(bound)",
            details: [
                "name": .string(name), "pattern": .string(bound.description),
                "requestedPattern": .string(pattern.description),
            ])
    }

    private func check(_ resource: Resource, against conditions: [RevisionCondition]) throws(LinkError) {
        guard conditions.allSatisfy({ $0.admits(resource.revision) }) else {
            throw LinkError(
                .revisionMismatch, "The resource \(resource.pattern) is at revision \(resource.revision)",
                details: [
                    "path": .string(resource.pattern.description), "name": resource.nameJSON,
                    "revision": .int(resource.revision),
                ])
        }
    }
}
