extension StringProtocol {
    /// The number a non-empty run of ASCII digits spells (`"007"` is 7), or `nil` for anything else: a sign, spaces,
    /// other digits, or a value past `Int.max`. Swift's `Int(_:)` also takes a leading `+` or `-`, which the
    /// contract's integers (a cursor, a wait, a revision, an image size) never have.
    public var decimalValue: Int? {
        guard !isEmpty, utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(self)
    }
}
