/// A ``UserAgentTable`` prepared for matching: rows grouped by outcome, tokens as bytes.
///
/// Matching is a plain byte substring search (no regular expressions), so a few dozen tokens over an agent of a
/// few hundred bytes take microseconds.
public struct UserAgentClassifier: Sendable {
    /// The classifier of the documented table.
    public static let standard = UserAgentClassifier(rows: UserAgentTable.rows)

    /// One platform's rows.
    private struct PlatformRules: Sendable {
        var platform: Platform
        var any: [[UInt8]] = []
        var allOf: [[UInt8]] = []
        var noneOf: [[UInt8]] = []
        var otherwise = false
    }

    /// Bot tokens in table order, with whether they are compared case-insensitively (then lower-cased).
    private let bots: [(token: [UInt8], ignoringCase: Bool, kind: BotKind)]
    /// The bot tokens in table order, then the in-app browser tokens, searched in one pass.
    private let tokens: TokenSet
    private let platforms: [PlatformRules]

    /// Prepares `rows` (see ``UserAgentTable`` for what each match mode means).
    public init(rows: [UserAgentRule]) {
        var bots: [(token: [UInt8], ignoringCase: Bool, kind: BotKind)] = []
        var platforms: [PlatformRules] = []
        var inAppBrowsers: [[UInt8]] = []
        for row in rows {
            switch row.outcome {
            case .bot(let kind):
                let ignoringCase = row.match == .substringIgnoringCase
                bots.append((ignoringCase ? row.bytes.map(Self.lowercased) : row.bytes, ignoringCase, kind))
            case .inAppBrowser:
                inAppBrowsers.append(row.bytes)
            case .platform(let platform):
                let index = platforms.firstIndex { $0.platform == platform } ?? platforms.count
                if index == platforms.count { platforms.append(PlatformRules(platform: platform)) }
                switch row.match {
                case .substring, .substringIgnoringCase: platforms[index].any.append(row.bytes)
                case .allOf: platforms[index].allOf.append(row.bytes)
                case .noneOf: platforms[index].noneOf.append(row.bytes)
                case .otherwise: platforms[index].otherwise = true
                }
            }
        }
        self.bots = bots
        tokens = TokenSet(bots.map { ($0.token, $0.ignoringCase) } + inAppBrowsers.map { ($0, false) })
        self.platforms = platforms
    }

    /// The class of `userAgent`; `desktop` when no platform row decides.
    public func classify(_ userAgent: String) -> UserAgentClass {
        var agent = userAgent
        return agent.withUTF8 { bytes in
            let (bot, inAppBrowser) = tokens.firstMatch(in: bytes, split: bots.count)
            return UserAgentClass(
                bot: bot.map { bots[$0].kind }, platform: platform(in: bytes), isInAppBrowser: inAppBrowser)
        }
    }

    private func platform(in bytes: UnsafeBufferPointer<UInt8>) -> Platform {
        for rules in platforms {
            if rules.otherwise { return rules.platform }
            if rules.any.contains(where: { Self.find($0, in: bytes, ignoringCase: false) }) { return rules.platform }
            if !rules.allOf.isEmpty, rules.allOf.allSatisfy({ Self.find($0, in: bytes, ignoringCase: false) }),
                !rules.noneOf.contains(where: { Self.find($0, in: bytes, ignoringCase: false) })
            {
                return rules.platform
            }
        }
        return .desktop
    }

    /// Whether `token` occurs in `bytes`; with `ignoringCase`, ASCII letters of `bytes` are lower-cased first
    /// (`token` is already lower-case).
    private static func find(_ token: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, ignoringCase: Bool) -> Bool {
        guard let first = token.first else { return true }
        guard bytes.count >= token.count else { return false }
        var start = 0
        let lastStart = bytes.count - token.count
        while start <= lastStart {
            let byte = ignoringCase ? lowercased(bytes[start]) : bytes[start]
            if byte == first {
                var offset = 1
                while offset < token.count {
                    let next = ignoringCase ? lowercased(bytes[start + offset]) : bytes[start + offset]
                    if next != token[offset] { break }
                    offset += 1
                }
                if offset == token.count { return true }
            }
            start += 1
        }
        return false
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
