/// UTC days and RFC 3339 text from wall-clock milliseconds, without Foundation.
public enum UTCCalendar {
    /// `2026-11-23T09:00:00.123Z` for milliseconds since the Unix epoch (UTC; the proleptic Gregorian calendar).
    public static func rfc3339(milliseconds: Int64) -> String {
        let (seconds, millis) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let adjusted = millis < 0 ? (seconds - 1, millis + 1000) : (seconds, millis)
        let (days, secondOfDay) = floorDivide(adjusted.0, 86_400)
        let (year, month, day) = civil(fromDays: days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "." + pad(adjusted.1, 3) + "Z"
    }

    /// `2026-11-23` for days since the Unix epoch.
    public static func day(_ days: Int64) -> String {
        let (year, month, day) = civil(fromDays: days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    /// Days since the Unix epoch of `YYYY-MM-DD` (a real calendar day), else `nil`.
    public static func days(parsing text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
            day >= 1
        else { return nil }
        let days = days(fromCivil: year, month, day)
        // Round-trip to reject days past the end of the month (2026-02-30).
        return civil(fromDays: days) == (year, month, day) ? days : nil
    }

    /// Milliseconds since the Unix epoch of an RFC 3339 timestamp (`2026-12-01T00:00:00Z`, optional fraction,
    /// `Z` or a `±HH:MM` offset; `T` may be lower case), else `nil`.
    public static func milliseconds(parsing text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let days = days(parsing: String(decoding: bytes[0..<10], as: UTF8.self))
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19), hour < 24,
            minute < 60, second < 60
        else { return nil }
        var index = 19
        var millis: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                millis += Int64(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index - start <= 9 else { return nil }
        }
        var offset: Int64 = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6), hours < 24,
                minutes < 60
            else { return nil }
            offset = (hours * 60 + minutes) * 60_000 * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
        default: return nil
        }
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis - offset
    }

    /// The UTC day (days since the Unix epoch) of a wall-clock instant in milliseconds.
    public static func day(ofMilliseconds milliseconds: Int64) -> Int64 {
        floorDivide(milliseconds, 86_400_000).0
    }

    /// Howard Hinnant's days-from-civil algorithm.
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let (q, r) = a.quotientAndRemainder(dividingBy: b)
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    /// Howard Hinnant's days-to-civil algorithm.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
