import LinkCore
import Testing

/// The one wording of `invalid_request` about a body's fields (API.md §1), whichever endpoint reads the body.
@Suite struct JSONFieldsTests {
    private func error(_ body: () throws -> Void) -> LinkError? {
        do {
            try body()
            return nil
        } catch {
            return error as? LinkError
        }
    }

    @Test func notAnObject() {
        let failure = error { _ = try JSONFields([1, 2]) }
        #expect(failure?.code == .invalidRequest)
        #expect(failure?.message == "Field 'body' must be an object, not array")
        #expect(failure?.details == ["field": "body", "expected": "an object"])
    }

    @Test func anUnknownFieldNamesItsPathAndTheAllowedOnes() {
        let failure = error {
            _ = try JSONFields(["ttl": 5, "colour": "red"], path: "events[2]", allowed: ["ttl", "id"])
        }
        #expect(failure?.message == "Unknown field 'events[2].colour'")
        #expect(
            failure?.details == ["field": "events[2].colour", "reason": "unknown field", "allowed": ["id", "ttl"]])
    }

    @Test func aWrongTypeSaysWhatWasExpectedAndWhatCame() throws {
        let fields = try JSONFields(["id": 7, "flag": "yes", "list": [:]])
        #expect(error { _ = try fields.string("id") }?.message == "Field 'id' must be a string, not number")
        #expect(error { _ = try fields.bool("flag") }?.details == ["field": "flag", "expected": "a boolean"])
        #expect(error { _ = try fields.array("list") }?.message == "Field 'list' must be an array, not object")
    }

    @Test func aMissingFieldIsRequired() throws {
        let fields = try JSONFields(["other": 1], path: "routes[0]")
        let failure = error { _ = try fields.requiredString("path") }
        #expect(failure?.message == "Field 'routes[0].path' is required")
        #expect(failure?.details == ["field": "routes[0].path"])
    }

    @Test func integersWithinARange() throws {
        let fields = try JSONFields(["ttl": 99_999, "priority": 2.5, "n": 3])
        #expect(try fields.int("n", in: 1...5) == 3)
        #expect(try fields.int("absent", in: 1...5) == nil)
        #expect(
            error { _ = try fields.int("ttl", in: 1...3600) }?.message
                == "Field 'ttl' must be an integer from 1 to 3600, not 99999")
        #expect(
            error { _ = try fields.int("priority", in: Int.min...Int.max) }?.details == [
                "field": "priority", "expected": "an integer",
            ])
    }

    /// Request bodies: the OpenAPI document's request schemas do not allow `null` (schemathesis sends it).
    @Test func aNullIsAWrongTypeInARequestBody() throws {
        let fields = try JSONFields(["name": nil, "ttl": nil, "on": nil, "list": nil])
        #expect(error { _ = try fields.string("name") }?.message == "Field 'name' must be a string, not null")
        #expect(error { _ = try fields.requiredString("name") }?.details == ["field": "name", "expected": "a string"])
        #expect(
            error { _ = try fields.int("ttl", in: 1...5) }?.message
                == "Field 'ttl' must be an integer from 1 to 5, not null")
        #expect(error { _ = try fields.bool("on") } != nil)
        #expect(error { _ = try fields.array("list") } != nil)
        #expect(fields.has("name"))
        #expect(!fields.has("loc"))
    }

    /// Definitions: their optional members are nullable in the document (`"name": null` is a route without a name).
    @Test func aNullIsAbsentInADefinition() throws {
        let fields = try JSONFields(["name": nil, "ttl": nil, "on": nil, "list": nil], nullMeansAbsent: true)
        #expect(try fields.string("name") == nil)
        #expect(try fields.int("ttl", in: 1...5) == nil)
        #expect(try fields.bool("on") == nil)
        #expect(try fields.array("list") == nil)
        #expect(error { _ = try fields.requiredString("name") }?.message == "Field 'name' is required")
        #expect(fields.has("name"))
    }

    @Test func insideRedirectRulesTheCodeIsInvalidRule() {
        #expect(error { _ = try JSONFields("x", path: "redirect[0]", code: .invalidRule) }?.code == .invalidRule)
    }
}
