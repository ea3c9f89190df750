/// The app stores' URLs, recognised as RFC 3986 compares URLs: the scheme and the host without case (§3.1,
/// §3.2.2), the path exactly (`https://PLAY.google.com/store/apps/details?id=…` is Google Play).
enum StoreURL {
    /// An App Store page (`https://apps.apple.com/…`, `https://itunes.apple.com/…`).
    static func isAppStore(_ url: String) -> Bool {
        url.starts(origin: "https://apps.apple.com", path: "/")
            || url.starts(origin: "https://itunes.apple.com", path: "/")
    }

    /// An App Store page, over HTTPS or HTTP (where a campaign token is read).
    static func isAppStoreWithCampaign(_ url: String) -> Bool {
        url.starts(origin: "https://apps.apple.com", path: "/")
            || url.starts(origin: "http://apps.apple.com", path: "/")
    }

    /// A Google Play details page (`https://play.google.com/store/apps/details?…`).
    static func isPlayDetails(_ url: String) -> Bool {
        url.starts(origin: "https://play.google.com", path: "/store/apps/details?")
    }
}

extension String {
    /// Whether the string starts with `origin` (written in lower case), compared without ASCII case, then `path`,
    /// compared exactly. The same origin written with the host's trailing dot (`apps.apple.com.`) or the scheme's
    /// default port (`:443`, `:80`, or `:` alone) is that origin (RFC 3986 §6.2.3): a store page so written is still
    /// one.
    fileprivate func starts(origin: StaticString, path: StaticString) -> Bool {
        let bytes = utf8
        var index = bytes.startIndex
        let originBytes = UnsafeBufferPointer(start: origin.utf8Start, count: origin.utf8CodeUnitCount)
        for expected in originBytes {
            guard index != bytes.endIndex else { return false }
            let byte = bytes[index]
            guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == expected : byte == expected
            else { return false }
            bytes.formIndex(after: &index)
        }
        if index != bytes.endIndex, bytes[index] == UInt8(ascii: ".") { bytes.formIndex(after: &index) }
        let defaultPort = originBytes.starts(with: "https:".utf8) ? ":443".utf8 : ":80".utf8
        if bytes[index...].starts(with: defaultPort) {
            index = bytes.index(index, offsetBy: defaultPort.count)
        } else if index != bytes.endIndex, bytes[index] == UInt8(ascii: ":") {
            // An empty port is the default one too.
            bytes.formIndex(after: &index)
        }
        return bytes[index...].starts(with: UnsafeBufferPointer(start: path.utf8Start, count: path.utf8CodeUnitCount))
    }
}
