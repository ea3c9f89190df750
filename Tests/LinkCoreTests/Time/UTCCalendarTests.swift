import Testing

@testable import LinkCore

@Suite struct UTCCalendarTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0)),
        ("2026-12-01T00:00:00Z", Int64(1_796_083_200_000)),
        ("2026-12-01T00:00:00.5Z", Int64(1_796_083_200_500)),
        ("2026-12-01t01:00:00+01:00", Int64(1_796_083_200_000)),
        ("2026-11-30T23:30:00-00:30", Int64(1_796_083_200_000)),
    ])
    func parsesRFC3339(text: String, milliseconds: Int64) {
        #expect(UTCCalendar.milliseconds(parsing: text) == milliseconds)
    }

    @Test(arguments: [
        "2026-12-01", "2026-12-01T00:00:00", "2026-02-30T00:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T00:00:00.Z",
        "2026-12-01T00:00:00+0100", "2026-12-01 00:00:00Z", "2026-12-01T00:00:00Zjunk",
    ])
    func refusesWhatIsNotRFC3339(text: String) {
        #expect(UTCCalendar.milliseconds(parsing: text) == nil)
    }
}
