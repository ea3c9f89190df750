import LinkCore

/// `If-Match` (RFC 9110 §13.1.1) as revision conditions, and the entity tag of a revision.
enum ResourcePreconditions {
    /// The strong entity tag of a revision: `"12"`.
    static func entityTag(_ revision: Int) -> String { "\"\(revision)\"" }

    /// The condition an `If-Match` value sets: none when absent; `*` → the resource exists; a list of entity tags
    /// → one of their revisions (weak tags never match: If-Match compares strongly). A malformed value, or one
    /// without any of our tags, matches nothing.
    static func conditions(ifMatch header: String?) -> [RevisionCondition] {
        guard let header else { return [] }
        let value = header.trimmingSpaces
        if value == "*" { return [.exists] }
        var revisions: [Int] = []
        for element in value.split(separator: ",", omittingEmptySubsequences: false) {
            var tag = Substring(element.trimmingSpaces)
            if tag.isEmpty { continue }
            let weak = tag.hasPrefix("W/")
            if weak { tag = tag.dropFirst(2) }
            guard let opaque = opaqueText(tag) else { return [.never] }
            if !weak, let revision = opaque.decimalValue {
                revisions.append(revision)
            }
        }
        return [revisions.isEmpty ? .never : .oneOf(revisions)]
    }

    /// The text between the quotes of an opaque tag (`"` *etagc `"`), or `nil` when it is not one.
    private static func opaqueText(_ tag: Substring) -> Substring? {
        guard tag.utf8.count >= 2, tag.utf8.first == UInt8(ascii: "\""), tag.utf8.last == UInt8(ascii: "\"") else {
            return nil
        }
        let inner = tag.dropFirst().dropLast()
        // etagc = %x21 / %x23-7E / obs-text
        let valid = inner.utf8.allSatisfy { $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 }
        return valid ? inner : nil
    }
}
