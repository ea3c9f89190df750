import Synchronization

/// A route's constant members of a resolve answer (API.md §2), copied into every answer as they are:
/// ``Resolution/write(to:)`` renders them (the answer's shape is written there) and places them.
///
/// Rendered the first time the route is part of an answer, not when it is registered: a table of 100,000 routes
/// of which few are ever resolved would otherwise carry them all (the memory per route of docs/benchmarks.md).
/// Immutable once made, and its bytes are its own: read by every worker thread without locks or retains.
final class RouteAnswerParts: @unchecked Sendable {
    /// `"route":{"name":…,"pattern":…}`
    let route: UnsafeBufferPointer<UInt8>
    /// `"destination":…,"presentation":…`
    let destination: UnsafeBufferPointer<UInt8>
    /// `"pattern":…,"name":…`: the route's entry in an answer's `matches`, up to its location.
    let chainEntry: UnsafeBufferPointer<UInt8>
    private let storage: UnsafeMutableBufferPointer<UInt8>

    /// The three parts, each the members of an object written by a `JSONWriter`, copied into one allocation.
    init(route: ArraySlice<UInt8>, destination: ArraySlice<UInt8>, chainEntry: ArraySlice<UInt8>) {
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(
            capacity: route.count + destination.count + chainEntry.count)
        var end = 0
        func place(_ part: ArraySlice<UInt8>) -> UnsafeBufferPointer<UInt8> {
            let start = end
            end = storage[start...].initialize(fromContentsOf: part)
            return UnsafeBufferPointer(rebasing: storage[start..<end])
        }
        self.route = place(route)
        self.destination = place(destination)
        self.chainEntry = place(chainEntry)
        self.storage = storage
    }

    deinit {
        storage.deallocate()
    }
}

/// The slot a ``Route`` keeps its parts in once they are rendered.
struct RouteAnswerPartsSlot: ~Copyable, Sendable {
    private let parts = Atomic<Unmanaged<RouteAnswerParts>?>(nil)

    init() {}

    deinit {
        parts.load(ordering: .acquiring)?.release()
    }

    /// Calls `body` with the parts, made by `render` the first time. Two threads that both find the slot empty both
    /// render; the first to store wins and the other drops its copy. `body` borrows the parts (no retain: the slot
    /// keeps them as long as its route lives).
    func withParts<Result>(
        render: () -> RouteAnswerParts, _ body: (RouteAnswerParts) -> Result
    ) -> Result {
        if let stored = parts.load(ordering: .acquiring) { return stored._withUnsafeGuaranteedRef(body) }
        let made = Unmanaged.passRetained(render())
        let (stored, current) = parts.compareExchange(
            expected: nil, desired: made, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if stored { return made._withUnsafeGuaranteedRef(body) }
        made.release()
        return current!._withUnsafeGuaranteedRef(body)
    }
}
