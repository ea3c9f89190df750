import LinkCore
import Testing

@Suite struct ResourceRegistryCreateTests {
    /// One create sequence: bodies in turn, what each did (`created`, `updated`, `unchanged` or an error code),
    /// then every resource as `pattern name revision`, the value read at `probe`, and the global revision.
    struct Sequence: Sendable, CustomTestStringConvertible {
        var label: String
        var bodies: [String]
        var outcomes: [String]
        var resources: [String]
        var probe: String
        var value: JSONValue
        var revision: Int
        var testDescription: String { label }
    }

    static let sequences: [Sequence] = [
        Sequence(
            label: "fail is the default", bodies: [#"{"path": "/f", "value": 1}"#, #"{"path": "/f", "value": 2}"#],
            outcomes: ["created", "resource_exists"], resources: ["/f - 1"], probe: "/f", value: 1, revision: 1),
        Sequence(
            label: "explicit fail",
            bodies: [#"{"path": "/f", "value": 1}"#, #"{"path": "/f", "value": 2, "onExists": "fail"}"#],
            outcomes: ["created", "resource_exists"], resources: ["/f - 1"], probe: "/f", value: 1, revision: 1),
        Sequence(
            label: "keep without a name changes nothing",
            bodies: [#"{"path": "/f", "value": 1}"#, #"{"path": "/f", "value": 2, "onExists": "keep"}"#],
            outcomes: ["created", "unchanged"], resources: ["/f - 1"], probe: "/f", value: 1, revision: 1),
        Sequence(
            label: "keep with the same name changes nothing",
            bodies: [
                #"{"path": "/f", "name": "f", "value": 1}"#,
                #"{"path": "/f", "name": "f", "value": 2, "onExists": "keep"}"#,
            ],
            outcomes: ["created", "unchanged"], resources: ["/f f 1"], probe: "/f", value: 1, revision: 1),
        Sequence(
            label: "keep with a new name renames and keeps the value",
            bodies: [
                #"{"path": "/f", "name": "old", "value": 1}"#,
                #"{"path": "/f", "name": "new", "value": 2, "onExists": "keep"}"#,
            ],
            outcomes: ["created", "updated"], resources: ["/f new 2"], probe: "/f", value: 1, revision: 2),
        Sequence(
            label: "keep names an unnamed resource",
            bodies: [#"{"path": "/f", "value": 1}"#, #"{"path": "/f", "name": "f", "value": 2, "onExists": "keep"}"#],
            outcomes: ["created", "updated"], resources: ["/f f 2"], probe: "/f", value: 1, revision: 2),
        Sequence(
            label: "keep leaves the old pattern text",
            bodies: [
                #"{"path": "/u/:id", "compute": {"var": "params.id"}}"#,
                #"{"path": "/u/:x", "name": "u", "value": 0, "onExists": "keep"}"#,
            ],
            outcomes: ["created", "updated"], resources: ["/u/:id u 2"], probe: "/u/7", value: "7", revision: 2),
        Sequence(
            label: "replace takes the new value and keeps the name",
            bodies: [
                #"{"path": "/f", "name": "f", "value": 1}"#, #"{"path": "/f", "value": 2, "onExists": "replace"}"#,
            ],
            outcomes: ["created", "updated"], resources: ["/f f 2"], probe: "/f", value: 2, revision: 2),
        Sequence(
            label: "replace with a new name",
            bodies: [
                #"{"path": "/f", "name": "a", "value": 1}"#,
                #"{"path": "/f", "name": "b", "value": null, "onExists": "replace"}"#,
            ],
            outcomes: ["created", "updated"], resources: ["/f b 2"], probe: "/f", value: nil, revision: 2),
        Sequence(
            label: "replace takes the new pattern text",
            bodies: [
                #"{"path": "/u/:id", "value": 1}"#,
                #"{"path": "/u/:x", "compute": {"cat": ["x=", {"var": "params.x"}]}, "onExists": "replace"}"#,
            ],
            outcomes: ["created", "updated"], resources: ["/u/:x - 2"], probe: "/u/9", value: "x=9", revision: 2),
        Sequence(
            label: "replace of a missing resource creates it",
            bodies: [#"{"path": "/f", "value": 1, "onExists": "replace"}"#],
            outcomes: ["created"], resources: ["/f - 1"], probe: "/f", value: 1, revision: 1),
        Sequence(
            label: "keep of a missing resource creates it",
            bodies: [#"{"path": "/f", "name": "f", "value": 1, "onExists": "keep"}"#],
            outcomes: ["created"], resources: ["/f f 1"], probe: "/f", value: 1, revision: 1),
        Sequence(
            label: "replace twice bumps twice",
            bodies: [
                #"{"path": "/f", "value": 1}"#, #"{"path": "/f", "value": 2, "onExists": "replace"}"#,
                #"{"path": "/f", "value": 2, "onExists": "replace"}"#,
            ],
            outcomes: ["created", "updated", "updated"], resources: ["/f - 3"], probe: "/f", value: 2, revision: 3),
        Sequence(
            label: "a name bound to another pattern is refused, whatever onExists says",
            bodies: [
                #"{"path": "/a", "name": "n", "value": 1}"#, #"{"path": "/b", "value": 2}"#,
                #"{"path": "/b", "name": "n", "value": 3, "onExists": "replace"}"#,
                #"{"path": "/b", "name": "n", "value": 3, "onExists": "keep"}"#,
                #"{"path": "/c", "name": "n", "value": 3}"#,
            ],
            outcomes: ["created", "created", "name_conflict", "name_conflict", "name_conflict"],
            resources: ["/a n 1", "/b - 2"], probe: "/b", value: 2, revision: 2),
        Sequence(
            label: "fail wins over a name conflict",
            bodies: [
                #"{"path": "/a", "name": "n", "value": 1}"#, #"{"path": "/b", "value": 2}"#,
                #"{"path": "/b", "name": "n", "value": 3}"#,
            ],
            outcomes: ["created", "created", "resource_exists"], resources: ["/a n 1", "/b - 2"], probe: "/a",
            value: 1, revision: 2),
        Sequence(
            label: "a renamed resource frees its old name for another pattern",
            bodies: [
                #"{"path": "/a", "name": "n", "value": 1}"#,
                #"{"path": "/a", "name": "m", "value": 1, "onExists": "keep"}"#,
                #"{"path": "/b", "name": "n", "value": 2}"#,
            ],
            outcomes: ["created", "updated", "created"], resources: ["/a m 2", "/b n 3"], probe: "/b", value: 2,
            revision: 3),
        Sequence(
            label: "the list keeps creation order through replacements",
            bodies: [
                #"{"path": "/a", "value": 1}"#, #"{"path": "/b", "value": 2}"#, #"{"path": "/c", "value": 3}"#,
                #"{"path": "/a", "value": 4, "onExists": "replace"}"#,
            ],
            outcomes: ["created", "created", "created", "updated"], resources: ["/a - 4", "/b - 2", "/c - 3"],
            probe: "/a", value: 4, revision: 4),
    ]

    @Test(arguments: sequences)
    func createSequence(_ sequence: Sequence) throws {
        var registry = ResourceRegistry()
        var outcomes: [String] = []
        for body in sequence.bodies {
            do {
                let (next, change) = try ResourceFixtures.create(registry, body)
                switch change {
                case .created: outcomes.append("created")
                case .updated: outcomes.append("updated")
                case .unchanged: outcomes.append("unchanged")
                case .deleted: outcomes.append("deleted")
                }
                #expect(next.revision == registry.revision + (change.isWrite ? 1 : 0))
                if change.isWrite { #expect(change.resource.revision == next.revision) }
                registry = next
            } catch let error as LinkError {
                outcomes.append(error.code.rawValue)
            }
        }
        #expect(outcomes == sequence.outcomes)
        #expect(ResourceFixtures.summary(registry) == sequence.resources)
        #expect(try ResourceFixtures.value(registry, at: sequence.probe) == sequence.value)
        #expect(registry.revision == sequence.revision)
    }

    @Test func conflictsCarryDetails() throws {
        let registry = try ResourceFixtures.registry(
            #"[{"path": "/a/:id", "name": "n", "value": 1}, {"path": "/b", "value": 2}]"#)
        let exists = #expect(throws: LinkError.self) {
            try ResourceFixtures.create(registry, #"{"path": "/a/:other", "value": 3}"#)
        }
        #expect(exists?.code == .resourceExists)
        #expect(exists?.details == ["path": "/a/:id", "name": "n"])
        let unnamed = #expect(throws: LinkError.self) {
            try ResourceFixtures.create(registry, #"{"path": "/b", "value": 3}"#)
        }
        #expect(unnamed?.details["name"] == .null)
        let conflict = #expect(throws: LinkError.self) {
            try ResourceFixtures.create(registry, #"{"path": "/c", "name": "n", "value": 3}"#)
        }
        #expect(conflict?.code == .nameConflict)
        #expect(conflict?.details == ["name": "n", "pattern": "/a/:id", "requestedPattern": "/c"])
    }

    @Test func aFailedWriteLeavesTheRegistryAlone() throws {
        let registry = try ResourceFixtures.registry(#"[{"path": "/a", "name": "n", "value": 1}]"#)
        _ = try? ResourceFixtures.create(registry, #"{"path": "/b", "name": "n", "value": 2}"#)
        #expect(ResourceFixtures.summary(registry) == ["/a n 1"])
        #expect(registry.resource(named: "n")?.pattern.description == "/a")
    }

    @Test func keepAnswersWithTheResourceAsItIs() throws {
        let registry = try ResourceFixtures.registry(#"[{"path": "/a", "name": "n", "compute": {"var": "query.x"}}]"#)
        let (next, change) = try ResourceFixtures.create(registry, #"{"path": "/a", "value": 5, "onExists": "keep"}"#)
        #expect(change == .unchanged(registry.resources[0]))
        #expect(next.revision == 1)
        #expect(change.resource.json == ["path": "/a", "name": "n", "revision": 1, "compute": ["var": "query.x"]])
    }

    @Test func renamingOrphansTheOldName() throws {
        let registry = try ResourceFixtures.registry(
            #"[{"path": "/a", "name": "old", "value": 1}, {"path": "/a", "name": "new", "value": 2, "onExists": "replace"}]"#
        )
        #expect(registry.resource(named: "old") == nil)
        #expect(registry.resource(named: "new")?.content == .value(2))
        let error = #expect(throws: LinkError.self) { try registry.read(named: "old", params: [:]) }
        #expect(error?.code == .unknownName)
        #expect(error?.details == ["name": "old"])
    }

    @Test func loadingRefusesDuplicatesAndRaisesTheRevision() throws {
        let a = Resource(pattern: try Pattern("/a/:x"), name: "n", content: .value(1), revision: 4)
        let b = Resource(pattern: try Pattern("/a/:y"), name: nil, content: .value(2), revision: 5)
        let c = Resource(pattern: try Pattern("/c"), name: "n", content: .value(3), revision: 6)
        #expect(throws: LinkError.self) { try ResourceRegistry(resources: [a, b], revision: 9) }
        #expect(throws: LinkError.self) { try ResourceRegistry(resources: [a, c], revision: 9) }
        #expect(try ResourceRegistry(resources: [a], revision: 9).revision == 9)
        let d = Resource(pattern: try Pattern("/d"), name: nil, content: .value(4), revision: 6)
        #expect(try ResourceRegistry(resources: [a, d], revision: 2).revision == 6)
        #expect(ResourceRegistry().revision == 0)
    }
}
