import Testing

@testable import LinkServer

@Suite struct IfNoneMatchTests {
    static let table: [(header: String?, matches: Bool)] = [
        (nil, false),
        ("", false),
        ("*", true),
        (" * ", true),
        (#""abc""#, true),
        (#"W/"abc""#, true),
        (#""x", "abc""#, true),
        (#""x","abc""#, true),
        (#""x""#, false),
        ("abc", false),
        (#""ABC""#, false),
        (#""abc"x"#, false),
    ]

    @Test(arguments: table)
    func weakComparison(_ header: String?, _ matches: Bool) {
        #expect(IfNoneMatch.matches(header, entityTag: #""abc""#) == matches)
    }
}
