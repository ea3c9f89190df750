import LinkCore

/// An HTTP response ready to be handed to libmicrohttpd.
struct Response: Sendable {
    var status: Int
    /// Usually an array made once and shared (``jsonOnly``, the click headers): one retain, not an allocation.
    var headers: [(String, String)]
    /// A redirect's `Location`, sent after ``headers``: kept apart so that a redirect shares a constant header list.
    var location: String?
    var body: [UInt8]

    init(status: Int, headers: [(String, String)] = [], location: String? = nil, body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.location = location
        self.body = body
    }

    static let jsonContentType = "application/json; charset=utf-8"
    /// The headers of most JSON answers, made once.
    static let jsonOnly = [("Content-Type", jsonContentType)]

    /// A JSON response with the service's content type.
    static func json(_ value: JSONValue, status: Int = 200, headers: [(String, String)] = []) -> Response {
        json(writing: { $0.value(value) }, status: status, headers: headers)
    }

    /// A JSON response written by `write` into a ``JSONWriter``.
    static func json(
        writing write: (inout JSONWriter) -> Void, status: Int = 200, headers: [(String, String)] = []
    ) -> Response {
        var writer = JSONWriter(capacity: 512)
        write(&writer)
        return Response(
            status: status, headers: jsonHeaders(headers), body: writer.finish(appending: UInt8(ascii: "\n")))
    }

    /// `Content-Type` and then `headers`, in an array made once at its size (appending to a one-element array
    /// reallocated it).
    private static func jsonHeaders(_ headers: [(String, String)]) -> [(String, String)] {
        if headers.isEmpty { return jsonOnly }
        var all: [(String, String)] = []
        all.reserveCapacity(1 + headers.count)
        all.append(("Content-Type", jsonContentType))
        all.append(contentsOf: headers)
        return all
    }

    /// A JSON response from bytes already written by a ``JSONWriter``.
    static func json(_ writer: consuming JSONWriter, status: Int = 200) -> Response {
        Response(
            status: status, headers: jsonOnly, body: writer.finish(appending: UInt8(ascii: "\n")))
    }

    /// A poll's answer (`{"events": […], "cursor", "missed"}`, API.md §5).
    static func json(_ answer: PollAnswer) -> Response {
        switch answer.content {
        case .result(let result): json(writing: { result.write(to: &$0) })
        case .value(let value): json(value)
        }
    }

    /// `204 No Content`.
    static let noContent = Response(status: 204)

    /// This answer, or `304 Not Modified` when it is a 200 whose `ETag` the client holds already (`ifNoneMatch`, RFC
    /// 9110 §13.1.2). The 304 keeps every field but `Content-Type` (§15.4.5: `ETag`, `Cache-Control`, …), and keeps
    /// the body: libmicrohttpd sends no content with a 304 and declares the body it is given in `Content-Length`, and
    /// a 304 may only declare the length a 200 would send (§8.6; an empty body made it `Content-Length: 0`, which a
    /// cache that updates its stored fields from the 304 would keep).
    consuming func unlessHeld(_ ifNoneMatch: String?) -> Response {
        guard let ifNoneMatch, status == 200, let tag = headers.first(where: { $0.0 == "ETag" })?.1,
            IfNoneMatch.matches(ifNoneMatch, entityTag: tag)
        else { return self }
        return Response(status: 304, headers: headers.filter { $0.0 != "Content-Type" }, body: body)
    }

    /// The value of the first header named `name` (case-insensitive).
    func header(_ name: String) -> String? {
        if let location, name.lowercased() == "location" { return location }
        return headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// What an endpoint answers: a response now, or later from another thread (long-polls).
enum Reply: Sendable {
    case now(Response)
    /// The connection is suspended; `start` is called once with a ``PendingReply`` that must be completed exactly
    /// once, from any thread.
    case later(@Sendable (PendingReply) -> Void)
}

/// The handle of a suspended request; completing it resumes the connection with the response. A long-poll's
/// request waits for its answer itself (``PollAnswerWaiter``): answering it stores a ``PendingResponse/poll(_:)``.
protocol PendingReply: PollAnswerWaiter {
    /// Answers the request. Only the first call (of this or ``PollAnswerWaiter/answered(_:)``) has an effect;
    /// returns whether it was the first.
    @discardableResult func complete(_ response: Response) -> Bool
}

/// What a suspended request was completed with.
enum PendingResponse: Sendable {
    case ready(Response)
    /// A long-poll's answer, written when the connection resumes, on its own thread: one emit completes thousands
    /// of polls, and writing every answer on the emitting thread would serialise them there.
    case poll(PollAnswer)

    /// The response (written now for a poll's answer).
    var response: Response {
        switch self {
        case .ready(let response): response
        case .poll(let answer): .json(answer)
        }
    }
}
