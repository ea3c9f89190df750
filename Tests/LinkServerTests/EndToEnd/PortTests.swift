import Testing

@testable import LinkServer

/// A port taken is refused at start, by another server of this process or any other, naming the setting and the
/// reason: the daemons once set `SO_REUSEPORT`, so a second server (or the links listener on the API's port) bound
/// the same port and the kernel split the connections between them, the API leaking onto the public listener.
@Suite struct PortTests {
    @Test func aPortTakenIsRefusedNamingItsSetting() throws {
        try withServer { (first) throws in
            let taken = first.port
            let api = #expect(throws: DaemonError.self) {
                try TestServer {
                    $0.server.port = taken
                    $0.links.enabled = false
                }
            }
            #expect(api?.description == "cannot listen on 127.0.0.1:\(taken) (server.port): Address already in use")
            let links = #expect(throws: DaemonError.self) { try TestServer { $0.links.port = taken } }
            #expect(links?.description == "cannot listen on 127.0.0.1:\(taken) (links.port): Address already in use")
            #expect(try first.client().get("/healthz").status == 200)
        }
    }
}
