import Testing

@testable import LinkServer

/// The links listener compares a path with its reserved paths only when it may be one: every reserved path must
/// pass the quick check, or it would be served as a click.
@Suite struct LinksDispatcherPathTests {
    @Test(arguments: [
        "/.well-known/apple-app-site-association", "/apple-app-site-association", "/.well-known/assetlinks.json",
        "/.well-known/other", "/robots.txt", "/favicon.ico", "/v1/deferred/claim", "/v1/links/opens",
    ])
    func reservedPathsPassTheQuickCheck(_ path: String) {
        #expect(LinksDispatcher.mayBeReserved(path))
    }

    @Test(arguments: ["", "/", "/users/42", "/products/shoes", "/Robots.txt", "/%2Ewell-known/x"])
    func otherPathsSkipTheComparisons(_ path: String) {
        #expect(!LinksDispatcher.mayBeReserved(path))
    }
}
