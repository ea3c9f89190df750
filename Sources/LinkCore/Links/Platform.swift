/// The platform a click comes from, as told by its `User-Agent` (API.md §7, step 2 "The platform").
public enum Platform: String, Sendable, Hashable, CaseIterable {
    /// iPhone, iPad (in mobile mode) or iPod.
    case ios
    /// Any Android device.
    case android
    /// Safari on a Mac, or on an iPad, which sends the Mac's agent: the page asks the browser for its touch points.
    case ambiguous
    /// Everything else.
    case desktop
}
