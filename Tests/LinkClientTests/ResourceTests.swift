import LinkClient
import Testing

/// Resources: reads by location and by name, writes with revisions and `If-Match`.
@Suite struct ResourceTests {
    @Test func createReadUpdateDeleteWithRevisions() async throws {
        try await withLiveServer { server in
            let client = server.client()
            let created = try await client.createResource(
                path: "/flags/:platform", name: "flags", .value(["dark": true, "limit": 3]))
            #expect(created.path == "/flags/:platform")
            #expect(created.name == "flags")
            #expect(created.content == .value(["dark": true, "limit": 3]))

            let read = try await client.resource(at: "/flags/ios?beta=1")
            #expect(read.value == ["dark": true, "limit": 3])
            #expect(read.resource.revision == created.revision)
            #expect(read.params == ["platform": "ios"])
            #expect(read.query == ["beta": "1"])
            let byName = try await client.resource(named: "flags", params: ["platform": "android"])
            #expect(byName.params == ["platform": "android"])

            let updated = try await client.updateResource(
                .name("flags"), to: .value(["dark": false]), ifRevision: created.revision)
            #expect(updated.revision > created.revision)
            let stale = try await #require(throws: LinkServiceError.self) {
                try await client.updateResource(.path("/flags/:p"), to: .value(1), ifRevision: created.revision)
            }
            #expect(stale.status == 412)
            #expect(stale.code == .revisionMismatch)

            let kept = try await client.createResource(path: "/flags/:x", .value("other"), onExists: .keep)
            #expect(kept.content == .value(["dark": false]))
            let exists = try await #require(throws: LinkServiceError.self) {
                try await client.createResource(path: "/flags/:x", .value("other"))
            }
            #expect(exists.code == .resourceExists)
            let staleReplace = try await #require(throws: LinkServiceError.self) {
                try await client.createResource(
                    path: "/flags/:x", .value("other"), onExists: .replace, ifRevision: created.revision)
            }
            #expect(staleReplace.code == .revisionMismatch)

            // `null` is a value (§4), written as such on create and on change.
            let nothing = try await client.createResource(path: "/nothing", .value(.null))
            #expect(nothing.content == .value(.null))
            #expect(try await client.resource(at: "/nothing").value == .null)
            try await client.updateResource(.path("/nothing"), to: .value(1))
            let cleared = try await client.updateResource(.path("/nothing"), to: .value(.null))
            #expect(cleared.content == .value(.null))
            #expect(try await client.resource(at: "/nothing").value == .null)
            try await client.deleteResource(.path("/nothing"))

            // A whole number past 2^53 (an id) is written and read back exactly.
            let id: JSONValue = ["id": .integer(9_007_199_254_740_993)]
            #expect(try await client.createResource(path: "/ids/:n", .value(id)).content == .value(id))
            #expect(try await client.resource(at: "/ids/1").value["id"]?.integerValue == 9_007_199_254_740_993)
            try await client.deleteResource(.path("/ids/:n"))

            #expect(try await client.resources().map(\.path) == ["/flags/:platform"])
            let refused = try await #require(throws: LinkServiceError.self) {
                try await client.deleteResource(.path("/flags/:platform"), ifRevision: created.revision)
            }
            #expect(refused.code == .revisionMismatch)
            try await client.deleteResource(.path("/flags/:platform"), ifRevision: updated.revision)
            #expect(try await client.resources().isEmpty)
            let gone = try await #require(throws: LinkServiceError.self) { try await client.resource(named: "flags") }
            #expect(gone.code == .unknownName)
        }
    }

    @Test func computedResourcesEvaluateAtReadTime() async throws {
        try await withLiveServer { server in
            let client = server.client()
            try await client.createResource(
                path: "/greeting/:name", .compute(["cat": ["Hello, ", ["var": "params.name"]]]))
            #expect(try await client.resource(at: "/greeting/Ada").value == "Hello, Ada")
            let listed = try await client.resources()
            #expect(listed.first?.content == .compute(["cat": ["Hello, ", ["var": "params.name"]]]))
            try await client.deleteResource(.path("/greeting/:n"))
            let none = try await #require(throws: LinkServiceError.self) {
                try await client.resource(at: "/greeting/x")
            }
            #expect(none.code == .noMatch)
        }
    }
}
