extension SegmentTrie {
    /// A successful match: the entry, its value, and the parameter values taken from the location (the entry's
    /// pattern is `entries[index].pattern`; a copy of it in every match cost a retain and a release per array).
    public struct Match: Sendable {
        /// The index of the entry in ``SegmentTrie/entries``.
        public let index: Int
        public let value: Value
        /// Parameter values in pattern order; a catch-all's value is its decoded segments joined with `/`.
        public let parameters: PathParameters

        @inlinable init(index: Int, value: Value, parameters: PathParameters) {
            self.index = index
            self.value = value
            self.parameters = parameters
        }
    }

    /// The best match for a location's decoded segments, with its parameters; `nil` when nothing matches.
    @inlinable public func match(_ segments: [String]) -> Match? {
        guard let found = index.firstIndex(matching: segments) else { return nil }
        // Read in place (a copy retains and releases), from the targets rather than the entries (see `targets`).
        return targets.withUnsafeBufferPointer { targets in
            let target = targets[found]
            return Match(
                index: found, value: target.value,
                parameters: target.layout.map { PathParameters(layout: $0, segments: segments) } ?? PathParameters())
        }
    }

    /// The index of the best-matching entry, without extracting parameters (the fastest lookup).
    @inlinable public func firstIndex(matching segments: [String]) -> Int? {
        index.firstIndex(matching: segments)
    }
}
