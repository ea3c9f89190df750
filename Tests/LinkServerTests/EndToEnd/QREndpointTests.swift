import Foundation
import LinkCore
import Synchronization
import Testing

@testable import LinkServer

/// `GET /v1/qr` (API.md §10) over HTTP; every image is decoded back with a real decoder (`zbarimg`).
@Suite struct QREndpointTests {
    /// URLs that must come back byte for byte: mixed case, a query, percent-encoded and raw non-ASCII, a fragment,
    /// every sub-delimiter, long digit runs (which libqrencode puts in numeric segments).
    static let urls = [
        "https://Example.COM/Users/42?Tab=Posts&q=%E6%B8%85%E5%8D%8E#Top",
        "http://x.io/ABCabc-123_~.!$&'()*+,;=:@/%2F",
        "https://links.example.com/清华/42",
        "https://x.io/12345678901234567890123456789012345678901234567890?id=9876543210",
        // Any absolute URL (§10): an app's own scheme, a mail address.
        "myapp://users/42?tab=Posts", "mailto:Support@example.com",
    ]

    /// `/v1/qr?url=<url>` with the URL encoded for a query (only unreserved characters left as they are).
    static func target(_ url: String, _ parameters: String = "") -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let encoded = url.addingPercentEncoding(withAllowedCharacters: unreserved)!
        return "/v1/qr?url=\(encoded)" + (parameters.isEmpty ? "" : "&" + parameters)
    }

    @Test func pngDecodesToExactlyTheURLAtTheExactSize() throws {
        try withServer { (server) throws in
            let client = server.client()
            for url in Self.urls {
                for parameters in [
                    "size=300", "size=64&margin=1&ecc=L", "size=513&margin=2&ecc=H", "size=777&ecc=Q&margin=16",
                ] {
                    let reply = try client.get(Self.target(url, "format=png&" + parameters))
                    #expect(reply.status == 200, "\(url) \(parameters): \(reply.text)")
                    #expect(reply.header("Content-Type") == "image/png")
                    let size = Int(parameters.split(separator: "&")[0].dropFirst("size=".count))!
                    #expect(PNGHeader(reply.body) == PNGHeader(width: size, height: size, bitDepth: 1, colorType: 0))
                    #expect(try QRDecoder.decode(png: reply.body) == url, "\(parameters)")
                }
            }
        }
    }

    @Test func svgDecodesToExactlyTheURL() throws {
        try withServer { (server) throws in
            let client = server.client()
            for url in Self.urls {
                let reply = try client.get(Self.target(url, "size=400&margin=3"))
                #expect(reply.status == 200)
                #expect(reply.header("Content-Type") == "image/svg+xml")
                let svg = reply.text
                #expect(svg.contains(#"width="400" height="400""#))
                #expect(svg.contains(#"shape-rendering="crispEdges""#))
                #expect(svg.components(separatedBy: "<path ").count == 2)
                // The viewBox is in modules: the symbol (4 × version + 17) and 3 modules of margin on each side.
                let viewBox = try #require(svg.firstMatch(of: /viewBox="-3 -3 (\d+) (\d+)"/))
                #expect(viewBox.1 == viewBox.2)
                #expect((Int(viewBox.1)! - 6 - 17) % 4 == 0)
                let png = try QRDecoder.rasterize(svg: reply.body)
                #expect(PNGHeader(png)?.width == 400)
                #expect(try QRDecoder.decode(png: png) == url)
            }
            // The default format is SVG, 512 pixels.
            let plain = try client.get(Self.target("https://x.io/a"))
            #expect(plain.header("Content-Type") == "image/svg+xml")
            #expect(plain.text.contains(#"width="512" height="512" viewBox="-4 -4 29 29""#))
        }
    }

    @Test(arguments: tooLong)
    func theLongestURLOfEachLevelIsVersion40AndDecodes(ecc: String, max: Int) throws {
        try withServer { (server) throws in
            let prefix = "https://x.io/"
            let url =
                prefix + String(repeating: "Ab", count: (max - prefix.utf8.count) / 2)
                + ((max - prefix.utf8.count) % 2 == 1 ? "z" : "")
            #expect(url.utf8.count == max)
            let reply = try server.client().get(Self.target(url, "format=png&size=1200&margin=4&ecc=\(ecc)"))
            #expect(reply.status == 200, "\(reply.text)")
            #expect(PNGHeader(reply.body)?.width == 1200)
            #expect(try QRDecoder.decode(png: reply.body) == url)
            // One byte more does not fit.
            let tooLong = try server.client().get(Self.target(url + "x", "ecc=\(ecc)"))
            #expect(tooLong.status == 400)
            #expect(tooLong.errorCode == "invalid_request")
            #expect(tooLong.errorDetails?["bytes"] == .int(max + 1))
            #expect(tooLong.errorDetails?["max"] == .int(max))
            #expect(tooLong.errorDetails?["ecc"] == .string(ecc))
        }
    }

    @Test func bareLocationsUseTheFirstLinkHostWithoutAWildcard() throws {
        try withServer({ $0.linkHosts = ["*.example.com", "links.example.com", "other.example.com"] }) {
            (server) throws in
            let reply = try server.client().get(Self.target("/Users/42?tab=Posts", "format=png"))
            #expect(reply.status == 200)
            #expect(try QRDecoder.decode(png: reply.body) == "https://links.example.com/Users/42?tab=Posts")
        }
        try withServer({ $0.linkHosts = ["*.example.com"] }) { (server) throws in
            let reply = try server.client().get(Self.target("/users/42"))
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_request")
            #expect(reply.errorDetails?["field"] == "url")
        }
    }

    @Test func entityTagsAreTheSameOnEveryInstanceAndAnswer304() throws {
        let target = Self.target("https://Example.com/a?b=C", "format=png&size=256")
        let first = try withServer { (server) throws in try server.client().get(target) }
        try withServer { (server) throws in
            let client = server.client()
            let reply = try client.get(target)
            let tag = try #require(reply.header("ETag"))
            #expect(tag == first.header("ETag"))
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 18)
            #expect(reply.body == first.body)
            #expect(reply.header("Cache-Control") == "public, max-age=86400")
            for condition in [tag, "W/\(tag)", "\"nope\", \(tag)", "*"] {
                let cached = try client.get(target, headers: ["If-None-Match": condition])
                #expect(cached.status == 304, "\(condition)")
                #expect(cached.body.isEmpty)
                #expect(cached.header("Content-Length") == String(reply.body.count))
                #expect(cached.header("ETag") == tag)
                #expect(cached.header("Cache-Control") == "public, max-age=86400")
            }
            #expect(try client.get(target, headers: ["If-None-Match": "\"nope\""]).status == 200)
            let svg = try client.get(Self.target("https://Example.com/a?b=C", "size=256"))
            #expect(svg.header("ETag") != tag)
            #expect(try client.get(target + "&ecc=H", headers: ["If-None-Match": tag]).status == 200)
        }
    }

    @Test func aSizeTooSmallForTheSymbolGivesTheMinimumSize() throws {
        try withServer { (server) throws in
            let client = server.client()
            // 400 bytes at level H: version 21, 101 modules; with margin 4 it needs 109 pixels.
            let url = "https://x.io/" + String(repeating: "q", count: 387)
            let reply = try client.get(Self.target(url, "ecc=H&size=100&format=png"))
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_request")
            let minSize = try #require(reply.errorDetails?["minSize"]?.intValue)
            #expect(minSize == 109)
            #expect(try client.get(Self.target(url, "ecc=H&size=\(minSize - 1)&format=png")).status == 400)
            let smallest = try client.get(Self.target(url, "ecc=H&size=\(minSize)&format=png"))
            #expect(smallest.status == 200)
            #expect(PNGHeader(smallest.body)?.width == minSize)
            #expect(try client.get(Self.target(url, "ecc=H&size=100")).errorDetails?["minSize"] == 109)
        }
    }

    static let tooLong: [(ecc: String, max: Int)] = [("L", 2953), ("M", 2331), ("Q", 1663), ("H", 1273)]

    @Test(arguments: tooLong)
    func urlsLongerThanVersion40Holds(_ ecc: String, _ max: Int) throws {
        try withServer { (server) throws in
            let url = "https://x.io/" + String(repeating: "7", count: max - 12)
            let reply = try server.client().get(Self.target(url, "ecc=\(ecc)"))
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_request")
            #expect(reply.errorDetails?["bytes"] == .int(max + 1))
            #expect(reply.errorDetails?["max"] == .int(max))
            #expect(reply.errorDetails?["ecc"] == .string(ecc))
        }
    }

    static let badParameters: [(query: String, code: String, field: String)] = [
        ("ecc=X&url=https://x.io", "invalid_request", "ecc"),
        ("format=gif&url=https://x.io", "invalid_request", "format"),
        ("size=63&url=https://x.io", "invalid_request", "size"),
        ("size=2049&url=https://x.io", "invalid_request", "size"),
        ("size=big&url=https://x.io", "invalid_request", "size"),
        ("margin=17&url=https://x.io", "invalid_request", "margin"),
        ("format=png", "invalid_request", "url"),
        ("url=/users/42", "invalid_request", "url"),
        ("url=https:x.io", "invalid_request", "url"),
        ("url=https:///x", "invalid_request", "url"),
        ("url=myapp:", "invalid_request", "url"),
        ("url=users/42", "invalid_request", "url"),
        ("url=https://x.io/%25zz", "invalid_url", "url"),
        // A query value that is not itself well escaped: the request's own query names the field too.
        ("url=/a%zz", "invalid_url", "url"),
        ("size=%ff&url=https://x.io", "invalid_url", "size"),
    ]

    @Test func badParametersAre400() throws {
        try withServer { (server) throws in
            let client = server.client()
            for (query, code, field) in Self.badParameters {
                let reply = try client.get("/v1/qr?" + query)
                #expect(reply.status == 400, "\(query)")
                #expect(reply.errorCode == code, "\(query)")
                #expect(reply.errorDetails?["field"] == .string(field), "\(query)")
                #expect(reply.header("ETag") == nil)
            }
        }
    }

    /// libqrencode and libpng on several MHD threads at once: every image is the one asked for.
    @Test func concurrentRequestsGetTheirOwnImages() throws {
        try withServer({ $0.server.threads = 4 }) { (server) throws in
            let port = server.port
            let images = Mutex<[String: [UInt8]]>([:])
            let done = DispatchGroup()
            for thread in 0..<4 {
                done.enter()
                Thread.detachNewThread {
                    defer { done.leave() }
                    let client = HTTPClient(port: port)
                    for request in 0..<6 {
                        let url = "https://x.io/T\(thread)/R\(request)?q=\(String(repeating: "z", count: thread * 40))"
                        let reply = try? client.get(Self.target(url, "format=png&size=200&ecc=Q"))
                        images.withLock { $0[url] = reply?.status == 200 ? reply?.body : [] }
                    }
                }
            }
            done.wait()
            let collected = images.withLock { $0 }
            #expect(collected.count == 24)
            for (url, png) in collected {
                #expect(try QRDecoder.decode(png: png) == url)
            }
        }
    }

    @Test func theReadTokenIsRequiredWhenSet() throws {
        try withServer({ $0.readToken = "r" }) { (server) throws in
            let client = server.client()
            let target = Self.target("https://x.io/a")
            #expect(try client.get(target).status == 401)
            #expect(try client.get(target, headers: ["Authorization": "Bearer r"]).status == 200)
        }
    }
}
