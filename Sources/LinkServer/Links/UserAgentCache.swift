import LinkCore
import Synchronization

/// The classes of the user agents seen lately, so a click classifies a known agent by one hash instead of a scan
/// of the agent for every token of the table (`UserAgentClassifier`): real traffic repeats a few hundred agents.
///
/// Bounded: agents longer than ``longestKept`` bytes are classified every time, and the cache starts over when it
/// holds ``capacity`` agents (10,000 distinct agents per second cost a reclassification each, never memory).
final class UserAgentCache: Sendable {
    static let capacity = 1_024
    static let longestKept = 512

    private let classifier: UserAgentClassifier
    private let classes = Mutex<[String: UserAgentClass]>([:])

    init(_ classifier: UserAgentClassifier = .standard) {
        self.classifier = classifier
    }

    func classify(_ userAgent: String) -> UserAgentClass {
        guard userAgent.utf8.count <= UserAgentCache.longestKept else { return classifier.classify(userAgent) }
        if let known = classes.withLock({ $0[userAgent] }) { return known }
        let found = classifier.classify(userAgent)
        classes.withLock { classes in
            if classes.count >= UserAgentCache.capacity { classes.removeAll(keepingCapacity: true) }
            classes[userAgent] = found
        }
        return found
    }

    /// How many agents are kept (for tests).
    var count: Int { classes.withLock { $0.count } }
}
