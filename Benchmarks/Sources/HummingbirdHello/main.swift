// Hummingbird 2 hello-world, the framework baseline of `scripts/bench`: `GET /` answers a small JSON body.
// Usage: HummingbirdHello [PORT]; prints `listening on http://127.0.0.1:PORT` on stderr once bound (port 0 picks
// a free one). SwiftNIO's singleton event-loop group has one thread per core, like LinkServer's MHD pool.
import Hummingbird
import Logging

#if canImport(Glibc)
    import Glibc
#endif

let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 0
let router = Router()
router.get("/") { _, _ -> Response in
    Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
}
var logger = Logger(label: "HummingbirdHello")
logger.logLevel = .warning
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        let line = "listening on http://127.0.0.1:\(channel.localAddress?.port ?? port)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    },
    logger: logger
)
try await app.runService()
