extension String {
    /// The string's UTF-8 lent to `body` in place.
    ///
    /// `withUTF8` is `mutating`, so calling it on a copy (`var text = text`) retains and releases the string's
    /// storage: two atomic operations per call, on a line every thread touches when the string is a route's or a
    /// pattern's. Native and small strings are always contiguous; only a foreign string takes a copy.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }

    /// ``withUTF8Bytes(_:)`` for a body with a typed error (the standard `withUTF8` only rethrows `any Error`).
    @inlinable
    public func withUTF8Buffer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let outcome: Swift.Result<Result, Failure> = withUTF8Bytes { buffer in
            Swift.Result { () throws(Failure) -> Result in try body(buffer) }
        }
        return try outcome.get()
    }
}
