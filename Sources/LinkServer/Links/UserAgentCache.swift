import LinkCore
import Synchronization

/// The classes of the user agents seen lately, so a click classifies a known agent by a lookup instead of a scan
/// of the agent for every token of the table (`UserAgentClassifier`): real traffic repeats a few hundred agents.
///
/// Direct-mapped: an agent has one slot of ``capacity``, picked by a cheap hash of its bytes (eight at a time; a
/// `Dictionary` spent more on SipHash over a 140-byte agent than the rest of the lookup), and a new agent takes it
/// over from the one there. Bounded: agents longer than ``longestKept`` bytes are classified every time, and
/// 10,000 distinct agents a second cost a reclassification each, never memory. Agents that share a slot on purpose
/// only make each other miss.
final class UserAgentCache: Sendable {
    static let capacity = 1_024
    static let longestKept = 512

    private struct Slot {
        var agent: String
        var classes: UserAgentClass
    }

    private let classifier: UserAgentClassifier
    private let slots = Mutex<[Slot?]>(Array(repeating: nil, count: UserAgentCache.capacity))

    init(_ classifier: UserAgentClassifier = .standard) {
        self.classifier = classifier
    }

    func classify(_ userAgent: String) -> UserAgentClass {
        var agent = userAgent
        guard let slot = agent.withUTF8({ $0.count <= UserAgentCache.longestKept ? UserAgentCache.slot(of: $0) : nil })
        else { return classifier.classify(userAgent) }
        let known = slots.withLock { slots in
            slots[slot].flatMap { $0.agent == userAgent ? $0.classes : nil }
        }
        if let known { return known }
        let found = classifier.classify(userAgent)
        slots.withLock { $0[slot] = Slot(agent: userAgent, classes: found) }
        return found
    }

    /// How many agents are kept (for tests).
    var count: Int { slots.withLock { $0.count { $0 != nil } } }

    /// The slot of an agent's bytes: FNV-1a over 64-bit words, then a final mix so the low bits depend on all.
    static func slot(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var index = 0
        if let base = bytes.baseAddress {
            while index + 8 <= bytes.count {
                hash = (hash ^ UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) &* prime
                index += 8
            }
            while index < bytes.count {
                hash = (hash ^ UInt64(base[index])) &* prime
                index += 1
            }
        }
        hash ^= hash >> 32
        hash &*= 0x9e37_79b9_7f4a_7c15
        hash ^= hash >> 29
        return Int(truncatingIfNeeded: hash) & (capacity - 1)
    }
}
