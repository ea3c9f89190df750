import Testing

@testable import LinkCore

private func p(_ id: String, _ priority: Int, since: Int64 = 0, expires: Int64 = 1000) -> Presentation {
    Presentation(id: id, priority: priority, payload: .string(id), since: since, expires: expires)
}

/// CSPopKit's rule, branch by branch (API.md §11).
@Suite struct SlotRuleTests {
    @Test(
        arguments: [
            // (current, new, expected change)
            (nil, p("a", 1), SlotRule.Change.presented(p("a", 1), replaced: nil)),
            (p("a", 1), p("b", 2), .presented(p("b", 2), replaced: p("a", 1))),
            (p("a", 2), p("b", 1), .rejected(current: p("a", 2))),
            // Equal priorities: the one showing stays.
            (p("a", 5), p("b", 5), .rejected(current: p("a", 5))),
            // Negative priorities compare as integers.
            (p("a", -10), p("b", -9), .presented(p("b", -9), replaced: p("a", -10))),
            (p("a", -1), p("b", -2), .rejected(current: p("a", -1))),
            (p("a", .min), p("b", .max), .presented(p("b", .max), replaced: p("a", .min))),
            // The same id updates, even with a lower priority, and keeps its start.
            (p("a", 9, since: 5), p("a", 1, since: 70, expires: 2000), .updated(p("a", 1, since: 5, expires: 2000))),
        ] as [(Presentation?, Presentation, SlotRule.Change)])
    func present(current: Presentation?, new: Presentation, expected: SlotRule.Change) {
        #expect(SlotRule.present(new, over: current) == expected)
    }

    @Test func dismissOnlyTheOneShowing() {
        #expect(SlotRule.dismiss("a", from: p("a", 1)) == .dismissed(p("a", 1)))
        #expect(SlotRule.dismiss("b", from: p("a", 1)) == .notCurrent)
        #expect(SlotRule.dismiss("a", from: nil) == .notCurrent)
    }

    @Test func expiryIsAtTheExactBoundary() {
        let showing = p("a", 1, since: 0, expires: 1000)
        #expect(SlotRule.expire(showing, now: 999) == nil)
        #expect(SlotRule.expire(showing, now: 1000) == .expired(showing))
        #expect(SlotRule.expire(showing, now: 1001) == .expired(showing))
        #expect(SlotRule.expire(nil, now: 1000) == nil)
    }

    @Test func reasonsAndWhatShowsAfterwards() {
        let a = p("a", 1)
        let b = p("b", 2)
        let cases: [(SlotRule.Change, String?, Presentation?, Presentation?)] = [
            (.presented(a, replaced: nil), "presented", a, nil),
            (.presented(b, replaced: a), "replaced", b, a),
            (.updated(a), "presented", a, nil),
            (.rejected(current: b), nil, b, nil),
            (.dismissed(a), "dismissed", nil, a),
            (.expired(a), "expired", nil, a),
            (.notCurrent, nil, b, nil),
        ]
        for (change, reason, current, ended) in cases {
            #expect(change.reason == reason, "\(change)")
            #expect(change.current(before: b) == current, "\(change)")
            #expect(change.ended == ended, "\(change)")
        }
    }

    @Test(arguments: [
        ("device-42", true), ("a", true), ("A.b:c_d-9", true), (String(repeating: "x", count: 128), true),
        ("", false), (String(repeating: "x", count: 129), false), ("a b", false), ("a/b", false), ("é", false),
        ("a%00", false),
    ])
    func names(text: String, valid: Bool) {
        #expect(Presentation.isValidName(text) == valid)
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"), (1_795_000_000_123, "2026-11-18T11:06:40.123Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"), (-1, "1969-12-31T23:59:59.999Z"),
        (4_102_444_799_999, "2099-12-31T23:59:59.999Z"),
    ])
    func timestamps(milliseconds: Int64, text: String) {
        #expect(UTCCalendar.rfc3339(milliseconds: milliseconds) == text)
    }
}
