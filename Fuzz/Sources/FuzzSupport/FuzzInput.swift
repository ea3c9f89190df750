import LinkCore

/// The bytes libFuzzer hands to `LLVMFuzzerTestOneInput`, with the views the targets need.
public struct FuzzInput {
    public let bytes: UnsafeBufferPointer<UInt8>

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    }

    /// The input as text; invalid UTF-8 becomes U+FFFD, as it does when the server reads a C string.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The input as text split at the first `n - 1` newlines into `n` parts (missing parts are empty), so that one
    /// input can carry several strings: a pattern and parameter values, a base and a child pattern.
    public func lines(_ n: Int) -> [String] {
        var parts = text.split(separator: "\n", maxSplits: n - 1, omittingEmptySubsequences: false).map(String.init)
        while parts.count < n { parts.append("") }
        return parts
    }

    /// The input parsed as JSON with the API's depth limit; `nil` when it is not JSON.
    public var json: JSONValue? { try? JSONParser.parse(bytes) }
}
