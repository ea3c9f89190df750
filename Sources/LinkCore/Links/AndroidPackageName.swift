/// An Android app's package name (API.md §7 "Settings"), e.g. `com.example.app`.
///
/// At least two segments joined by `.`, each starting with a letter and holding only `A–Z a–z 0–9 _`.
public struct AndroidPackageName: Sendable, Hashable, CustomStringConvertible {
    /// The package name as given.
    public let description: String

    /// Validates `text`.
    ///
    /// - Parameter field: the setting named in the error.
    /// - Throws: `invalid_request` naming `field` and `text` (``LinkError/invalidSetting(_:value:reason:)``).
    public init(_ text: String, field: String = "links.apps.android.package") throws(LinkError) {
        func fail(_ reason: String) -> LinkError { .invalidSetting(field, value: text, reason: reason) }
        let segments = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count >= 2 else { throw fail("a package name has at least two segments joined by '.'") }
        for segment in segments {
            guard let first = segment.first else { throw fail("a package name must not have an empty segment") }
            guard Self.isLetter(first) else { throw fail("each segment must start with a letter") }
            guard segment.allSatisfy(Self.isNameByte) else {
                throw fail("a package name may hold only A-Z, a-z, 0-9, '_' and '.'")
            }
        }
        description = text
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }
}
