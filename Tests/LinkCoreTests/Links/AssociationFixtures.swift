import LinkCore

/// A small route table shared by the association file tests.
enum AssociationFixtures {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static func table() throws -> AssociationComponents {
        AssociationComponents(routes: [
            AssociationRoute(pattern: try Pattern("/users/:id"), name: "user", appLinks: false),
            AssociationRoute(pattern: try Pattern("/Help"), caseInsensitive: true),
            AssociationRoute(pattern: try Pattern("/users/:id/posts/:postId"), name: "userPost"),
        ])
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
