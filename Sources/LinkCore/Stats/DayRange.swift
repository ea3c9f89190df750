/// The UTC days a statistics query covers (API.md §8): inclusive, at most ``maxDays``, by default the 30 days
/// ending today.
public struct DayRange: Sendable, Hashable {
    public static let maxDays: Int64 = 366
    public static let defaultDays: Int64 = 30
    /// `0000-01-01`, the first day `YYYY-MM-DD` can write: a range that would start before it starts there.
    public static let firstDay: Int64 = UTCCalendar.days(parsing: "0000-01-01")!

    /// Days since the Unix epoch, inclusive.
    public var from: Int64
    public var to: Int64

    public init(from: Int64, to: Int64) {
        self.from = from
        self.to = to
    }

    /// Reads `from` and `to` (`YYYY-MM-DD`, both optional). Without `to` the range ends today (or 29 days after
    /// `from`, whichever is earlier); without `from` it starts 29 days before `to`, or at ``firstDay`` (a day
    /// before year 0 has no `YYYY-MM-DD`). A malformed day, `from` after `to`, or more than 366 days is
    /// `invalid_request`.
    public init(from fromText: String?, to toText: String?, today: Int64) throws(LinkError) {
        func day(_ text: String, _ field: String) throws(LinkError) -> Int64 {
            guard let day = UTCCalendar.days(parsing: text) else {
                throw LinkError(
                    .invalidRequest, "'\(field)' must be a day as YYYY-MM-DD",
                    details: ["field": .string(field), "value": .string(text)])
            }
            return day
        }
        let from = try fromText.map { (text) throws(LinkError) in try day(text, "from") }
        let to = try toText.map { (text) throws(LinkError) in try day(text, "to") }
        switch (from, to) {
        case (nil, nil): self.init(from: today - DayRange.defaultDays + 1, to: today)
        case (let from?, nil): self.init(from: from, to: max(from, min(today, from + DayRange.defaultDays - 1)))
        case (nil, let to?): self.init(from: max(DayRange.firstDay, to - DayRange.defaultDays + 1), to: to)
        case (let from?, let to?): self.init(from: from, to: to)
        }
        guard self.from <= self.to else {
            throw LinkError(
                .invalidRequest, "'from' must not be after 'to'",
                details: [
                    "field": "from", "from": .string(UTCCalendar.day(self.from)),
                    "to": .string(UTCCalendar.day(self.to)),
                ]
            )
        }
        guard self.to - self.from + 1 <= DayRange.maxDays else {
            throw LinkError(
                .invalidRequest, "A range covers at most \(DayRange.maxDays) days",
                details: ["field": "to", "limit": .int(Int(DayRange.maxDays))])
        }
    }

    public func contains(_ day: Int64) -> Bool { (from...to).contains(day) }
}
