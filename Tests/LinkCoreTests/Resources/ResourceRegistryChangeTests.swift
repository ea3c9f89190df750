import LinkCore
import Testing

@Suite struct ResourceRegistryChangeTests {
    static func registry() throws -> ResourceRegistry {
        try ResourceFixtures.registry(
            #"[{"path": "/u/:id", "name": "user", "value": 1}, {"path": "/plain", "value": 2}]"#)
    }

    @Test(arguments: [
        (#"{"path": "/u/:id", "value": "new"}"#, "/u/7", #""new""#),
        (#"{"path": "/u/:other", "value": null}"#, "/u/7", "null"),
        (#"{"name": "user", "compute": {"cat": [{"var": "params.id"}, "!"]}}"#, "/u/7", #""7!""#),
        (#"{"path": "/plain", "value": {"a": [1, 2.5]}, "ifRevision": 2}"#, "/plain", #"{"a": [1, 2.5]}"#),
    ])
    func updatesByPathOrName(body: String, probe: String, value: String) throws {
        let registry = try Self.registry()
        let (next, change) = try ResourceFixtures.update(registry, body)
        #expect(next.revision == 3)
        #expect(change.resource.revision == 3)
        guard case .updated = change else {
            Issue.record("expected an update, got \(change)")
            return
        }
        #expect(try ResourceFixtures.value(next, at: probe) == (try ResourceFixtures.json(value)))
        // Pattern text and name stay as registered; the other resource is untouched.
        #expect(ResourceFixtures.summary(next).count == 2)
        #expect(next.resource(named: "user")?.pattern.description == "/u/:id")
        #expect(try ResourceFixtures.value(registry, at: "/u/7") == 1)
    }

    @Test(arguments: [
        (#"{"path": "/v/:id", "value": 1}"#, LinkError.Code.noMatch, #"{"path": "/v/:id"}"#),
        (#"{"name": "nobody", "value": 1}"#, .unknownName, #"{"name": "nobody"}"#),
        (
            #"{"name": "user", "value": 1, "ifRevision": 2}"#, .revisionMismatch,
            #"{"path": "/u/:id", "name": "user", "revision": 1}"#
        ),
        (
            #"{"path": "/plain", "value": 1, "ifRevision": 0}"#, .revisionMismatch,
            #"{"path": "/plain", "name": null, "revision": 2}"#
        ),
    ])
    func failedUpdates(body: String, code: LinkError.Code, details: String) throws {
        let error = #expect(throws: LinkError.self) { try ResourceFixtures.update(Self.registry(), body) }
        #expect(error?.code == code)
        #expect(error?.details == (try ResourceFixtures.json(details)).objectValue)
    }

    @Test(arguments: [
        ([RevisionCondition.exists], true), ([.revision(1)], true), ([.oneOf([5, 1])], true), ([.never], false),
        ([.revision(2)], false), ([.exists, .revision(2)], false), ([.oneOf([1]), .exists], true), ([], true),
    ])
    func conditionsMustAllAdmitTheRevision(conditions: [RevisionCondition], passes: Bool) throws {
        let registry = try Self.registry()
        for write in [
            { try ResourceFixtures.update(registry, #"{"name": "user", "value": 9}"#, conditions: conditions) },
            { try registry.deleting(.name("user"), conditions: conditions) },
        ] as [() throws -> ResourceRegistry.Outcome] {
            do {
                _ = try write()
                #expect(passes)
            } catch let error as LinkError {
                #expect(!passes && error.code == .revisionMismatch)
            }
        }
    }

    @Test func aMissingResourceIsNotFoundWhateverTheConditions() throws {
        let error = #expect(throws: LinkError.self) {
            try Self.registry().deleting(.name("nobody"), conditions: [.never])
        }
        #expect(error?.code == .unknownName)
    }

    @Test func deletesByPathOrNameAndBumpsTheRevision() throws {
        let registry = try Self.registry()
        let (byPath, removed) = try registry.deleting(.pattern(Pattern("/u/:x")))
        #expect(removed == .deleted(registry.resources[0]))
        #expect(byPath.revision == 3)
        #expect(ResourceFixtures.summary(byPath) == ["/plain - 2"])
        #expect(byPath.resource(named: "user") == nil)
        #expect(throws: LinkError.self) { try ResourceFixtures.value(byPath, at: "/u/1") }

        let (byName, _) = try registry.deleting(.name("user"))
        #expect(ResourceFixtures.summary(byName) == ["/plain - 2"])
        let (empty, _) = try byName.deleting(.pattern(Pattern("/plain")))
        #expect(empty.count == 0)
        #expect(empty.revision == 4)
        let again = #expect(throws: LinkError.self) { try empty.deleting(.pattern(Pattern("/plain"))) }
        #expect(again?.code == .noMatch)
        #expect(again?.details == ["path": "/plain"])
        // The freed name and pattern can be used again.
        let (recreated, change) = try ResourceFixtures.create(empty, #"{"path": "/u/:id", "name": "user", "value": 0}"#)
        #expect(change == .created(recreated.resources[0]))
        #expect(ResourceFixtures.summary(recreated) == ["/u/:id user 5"])
    }

    @Test func everyWriteBumpsOneGlobalRevisionAndStampsOnlyItsResource() throws {
        var registry = ResourceRegistry()
        var revisions: [Int] = []
        for index in 0..<20 {
            let body =
                index % 3 == 2
                ? #"{"path": "/r/\#(index % 4)", "value": \#(index), "onExists": "replace"}"#
                : #"{"path": "/r/\#(index % 4)", "value": \#(index), "onExists": "keep"}"#
            let (next, change) = try ResourceFixtures.create(registry, body)
            if change.isWrite { revisions.append(next.revision) }
            registry = next
        }
        #expect(revisions == Array(1...revisions.count))
        #expect(registry.revision == revisions.count)
        #expect(Set(registry.resources.map(\.revision)).count == registry.count)
        #expect(registry.resources.allSatisfy { $0.revision <= registry.revision })
    }
}
