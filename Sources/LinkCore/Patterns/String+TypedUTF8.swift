extension String {
    /// `withUTF8` for a body with a typed error (the standard one only rethrows `any Error`).
    mutating func withUTF8Buffer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let outcome: Swift.Result<Result, Failure> = withUTF8 { buffer in
            Swift.Result { () throws(Failure) -> Result in try body(buffer) }
        }
        return try outcome.get()
    }
}
