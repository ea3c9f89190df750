import Foundation

/// The answer to ``LinkClient/open(_:platform:)``: what the app should do with the link it was opened with.
public struct LinkOpen: Sendable, Hashable, Decodable {
    /// `open`, `expired` or `not_found` today. The list is open: a value a later service adds arrives as itself
    /// (treat one you do not know like `not_found`: show ``LinkOpen/target`` or a message).
    public struct Decision: RawRepresentable, Sendable, Hashable, Decodable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(from decoder: any Decoder) throws { rawValue = try String(from: decoder) }
        public var description: String { rawValue }

        /// Show the resolution's destination.
        public static let open = Decision(rawValue: "open")
        /// The link is outside its validity or used up: show ``LinkOpen/target`` (or a message).
        public static let expired = Decision(rawValue: "expired")
        /// No route matched: show ``LinkOpen/target`` (or a message).
        public static let notFound = Decision(rawValue: "not_found")
    }

    public let decision: Decision
    /// The web page for `expired` / `not_found` when the service has one, else `nil`.
    public let target: String?
    /// The resolution, with its destination and presentation (`nil` when no route matched, or when the service
    /// has a read token and this client did not send it).
    public let resolution: Resolution?

    enum CodingKeys: String, CodingKey { case decision, target, resolution }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        decision = try container.decode(Decision.self, forKey: .decision)
        target = try container.decodeIfPresent(String.self, forKey: .target)
        resolution = try container.decodeIfPresent(Resolution.self, forKey: .resolution)
    }
}

/// The platform an app open is counted under, and a deferred link was clicked on: `ios` or `android` today. The
/// list is open, as ``LinkOpen/Decision``'s: a value a later service adds arrives as itself.
public struct AppPlatform: RawRepresentable, Sendable, Hashable, Decodable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(from decoder: any Decoder) throws { rawValue = try String(from: decoder) }
    public var description: String { rawValue }

    public static let ios = AppPlatform(rawValue: "ios")
    public static let android = AppPlatform(rawValue: "android")

    /// This build's platform (Android builds of Swift say `android`; everything else counts as `ios`).
    public static var current: AppPlatform {
        #if os(Android)
            .android
        #else
            .ios
        #endif
    }
}
