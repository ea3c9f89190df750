extension JSONValue {
    /// The compact JSON text of this value as UTF-8 bytes, written by ``JSONWriter`` (the one encoder: non-finite
    /// doubles, which JSON cannot represent, as `null`; a double so that it reads back as one, `2.0` not `2`).
    public func encoded() -> [UInt8] {
        var writer = JSONWriter(capacity: 64)
        writer.value(self)
        return writer.finish()
    }

    /// The compact JSON text of this value.
    public func encodedString() -> String { String(decoding: encoded(), as: UTF8.self) }
}
