import Foundation

/// A deferred deep link (API.md §9): the link a person tapped before the app was installed, as resolved then.
public struct DeferredLink: Sendable, Hashable, Decodable {
    /// The resolution at click time.
    public let resolution: Resolution
    public let clickedAt: Date
    /// The platform the link was clicked on: ``AppPlatform/ios`` or ``AppPlatform/android``.
    public let platform: AppPlatform
    /// The link as clicked.
    public let link: String
}
