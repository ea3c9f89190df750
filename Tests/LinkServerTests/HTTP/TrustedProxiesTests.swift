import Testing

@testable import LinkServer

/// `links.trustedProxies`: networks, and which address of `X-Forwarded-For` is the client (docs/links.md).
@Suite struct TrustedProxiesTests {
    static func address(_ text: String) -> ClientAddress {
        guard let address = ClientAddress(text: text) else { preconditionFailure("not an address: \(text)") }
        return address
    }

    @Test(arguments: [
        ("10.0.0.0/8", "10.0.0.0/8"), ("127.0.0.1", "127.0.0.1/32"), ("::1", "::1/128"),
        ("2001:db8::/32", "2001:db8::/32"), ("0.0.0.0/0", "0.0.0.0/0"), ("192.168.1.128/25", "192.168.1.128/25"),
    ])
    func networksAreRead(text: String, written: String) {
        #expect(IPNetwork(text)?.description == written)
    }

    @Test(arguments: [
        "", "/8", "10.0.0.0/", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.1/8", "::1/129", "2001:db8::1/32",
        "proxy.internal", "10.0.0", "10.0.0.0/8/8", "10.0.0.0 /8", "1.2.3.4/٣",
    ])
    func malformedNetworksAreRefused(text: String) {
        #expect(IPNetwork(text) == nil)
    }

    @Test func membership() throws {
        let ten = try #require(IPNetwork("10.0.0.0/8"))
        #expect(ten.contains(Self.address("10.255.0.1")))
        #expect(!ten.contains(Self.address("11.0.0.1")))
        // A dual-stack listener sees an IPv4 client as IPv4-mapped IPv6.
        #expect(ten.contains(Self.address("::ffff:10.1.2.3")))
        #expect(!ten.contains(Self.address("::ffff:11.1.2.3")))
        #expect(!ten.contains(Self.address("::a01:203")))
        let half = try #require(IPNetwork("192.168.1.128/25"))
        #expect(half.contains(Self.address("192.168.1.200")))
        #expect(!half.contains(Self.address("192.168.1.127")))
        let v6 = try #require(IPNetwork("2001:db8::/32"))
        #expect(v6.contains(Self.address("2001:db8:ffff::1")))
        #expect(!v6.contains(Self.address("2001:db9::1")))
        #expect(!v6.contains(Self.address("10.0.0.1")))
        #expect(try #require(IPNetwork("0.0.0.0/0")).contains(Self.address("203.0.113.7")))
    }

    @Test(
        arguments: [
            // No header: the peer.
            ("127.0.0.1", nil, "127.0.0.1"),
            // The proxy's own entry for its client.
            ("127.0.0.1", "203.0.113.7", "203.0.113.7"),
            // What the client wrote itself, left of the proxy's entry, is never read.
            ("127.0.0.1", "198.51.100.1, 203.0.113.7", "203.0.113.7"),
            ("127.0.0.1", "10.0.0.5,203.0.113.7", "203.0.113.7"),
            // Two trusted hops: the load balancer (10.0.0.2) reported the client to nginx (127.0.0.1).
            ("127.0.0.1", "198.51.100.1, 203.0.113.7, 10.0.0.2", "203.0.113.7"),
            // Every hop trusted: the leftmost.
            ("127.0.0.1", "10.0.0.9, 10.0.0.2", "10.0.0.9"),
            // An entry that is not an address stops the walk at the last trusted hop.
            ("127.0.0.1", "unknown", "127.0.0.1"),
            ("127.0.0.1", "203.0.113.7, unknown", "127.0.0.1"),
            ("127.0.0.1", "", "127.0.0.1"),
            ("127.0.0.1", "203.0.113.7, 10.0.0.2, junk", "127.0.0.1"),
            // Ports and brackets as proxies write them.
            ("127.0.0.1", "203.0.113.7:4711", "203.0.113.7"),
            ("127.0.0.1", "[2001:db8::1]:4711", "2001:db8::1"),
            ("127.0.0.1", " 2001:db8::7 ", "2001:db8::7"),
            ("127.0.0.1", "[2001:db8::1", "127.0.0.1"),
            ("127.0.0.1", "203.0.113.7:http", "127.0.0.1"),
            // A peer that is not a trusted proxy is the client, whatever it writes.
            ("198.51.100.9", "203.0.113.7", "198.51.100.9"),
            ("::ffff:127.0.0.1", "203.0.113.7", "203.0.113.7"),
        ] as [(String, String?, String)])
    func theClientIsTheRightmostUntrustedAddress(peer: String, forwardedFor: String?, client: String) throws {
        let proxies = TrustedProxies([try #require(IPNetwork("127.0.0.1")), try #require(IPNetwork("10.0.0.0/8"))])
        #expect(proxies.client(peer: Self.address(peer), forwardedFor: forwardedFor) == Self.address(client))
    }

    @Test func withoutTrustedProxiesTheHeaderIsNeverRead() {
        let peer = Self.address("127.0.0.1")
        #expect(TrustedProxies().client(peer: peer, forwardedFor: "203.0.113.7") == peer)
        #expect(TrustedProxies().client(peer: nil, forwardedFor: "203.0.113.7") == nil)
    }

    @Test func repeatedForwardedForLinesAreOneList() {
        var received = ReceivedHeaders(fieldCount: RequestHeaders.names.count)
        ReceivedHeadersTests.add(&received, "X-Forwarded-For", "198.51.100.1")
        ReceivedHeadersTests.add(&received, "x-forwarded-for", "203.0.113.7")
        #expect(received.takeHeaders()[.forwardedFor] == "198.51.100.1,203.0.113.7")
        // Each further line is appended in place: a client's thousand lines cost a thousand appends.
        for index in 0..<1_000 {
            ReceivedHeadersTests.add(&received, "X-Forwarded-For", "10.0.\(index / 256).\(index % 256)")
        }
        let list = received.takeHeaders()[.forwardedFor]?.split(separator: ",") ?? []
        #expect(list.count == 1_002)
        #expect(list.last == "10.0.3.231")
        // The API listener does not read it.
        var api = ReceivedHeaders(fieldCount: RequestHeaders.apiNames.count)
        ReceivedHeadersTests.add(&api, "X-Forwarded-For", "198.51.100.1")
        #expect(api.takeHeaders()[.forwardedFor] == nil)
    }
}
