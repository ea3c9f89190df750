import LinkCore
import Testing

@testable import LinkServer

/// The answers kept for `/v1/resolve` and `GET /v1/resources`: exact (by kind, bytes and snapshot) and bounded.
@Suite struct KeptAnswersTests {
    /// How many times an answer was worked out.
    private final class Calls {
        var count = 0
    }

    /// Looks `key` up, answering `answer` when it is worked out; returns the outcome's bytes and whether it was kept.
    private func ask(
        _ answers: KeptResponses, _ key: String, kind: KeptKey.Kind = .query, serial: UInt64 = 1,
        answer: String = "answer", calls: Calls? = nil
    ) -> (body: String, kept: Bool) {
        let (found, kept) = Array(key.utf8).withUnsafeBytes { bytes in
            answers.answer(kind, key: bytes, serial: serial) {
                calls?.count += 1
                return (Response(status: 200, body: Array(answer.utf8)), nil)
            }
        }
        return (String(decoding: found.response.body, as: UTF8.self), kept)
    }

    /// Asks twice (a request is kept the second time it is worked out); returns the second time's body.
    private func askTwice(
        _ answers: KeptResponses, _ key: String, kind: KeptKey.Kind = .query, serial: UInt64 = 1,
        answer: String = "answer"
    ) -> String {
        _ = ask(answers, key, kind: kind, serial: serial, answer: answer)
        return ask(answers, key, kind: kind, serial: serial, answer: answer).body
    }

    @Test func aRequestWorkedOutTwiceIsAnsweredFromWhatWasKept() {
        let answers = KeptResponses()
        let calls = Calls()
        #expect(ask(answers, "url=/a", answer: "A", calls: calls) == ("A", false))
        #expect(answers.count == 0)
        #expect(ask(answers, "url=/a", answer: "A", calls: calls) == ("A", false))
        #expect(ask(answers, "url=/a", answer: "other", calls: calls) == ("A", true))
        #expect(ask(answers, "url=/a", answer: "other", calls: calls) == ("A", true))
        #expect(calls.count == 2)
        // Another key, or the same bytes as another kind of request, is worked out.
        #expect(ask(answers, "url=/b", answer: "B") == ("B", false))
        #expect(askTwice(answers, "url=/a", kind: .body, answer: "body") == "body")
        #expect(ask(answers, "url=/a", kind: .body) == ("body", true))
        #expect(ask(answers, "url=/a") == ("A", true))
        #expect(answers.count == 2)
    }

    @Test func errorsAreKeptWithTheirOutcome() {
        let answers = KeptResponses()
        let envelope = ErrorEnvelope.response(
            for: LinkError(.noMatch, "No route matches '/x'", details: ["location": "/x"]))
        for expectedKept in [false, false, true] {
            let (found, kept) = Array("url=/x".utf8).withUnsafeBytes { bytes in
                answers.answer(.query, key: bytes, serial: 1) { (envelope, "no_match") }
            }
            #expect(kept == expectedKept)
            #expect(found.outcome == "no_match")
            #expect(found.response.status == 404 && found.response.body == envelope.body)
            #expect(found.response.header("content-type") == Response.jsonContentType)
        }
    }

    @Test func aNewerSnapshotEmptiesThemAndAnOlderOneKeepsNothing() {
        let answers = KeptResponses()
        #expect(askTwice(answers, "url=/a", serial: 5, answer: "5") == "5")
        #expect(ask(answers, "url=/a", serial: 5) == ("5", true))
        // A request still reading the older snapshot is worked out and not kept.
        #expect(ask(answers, "url=/a", serial: 4, answer: "4") == ("4", false))
        #expect(ask(answers, "url=/a", serial: 4, answer: "4") == ("4", false))
        #expect(ask(answers, "url=/a", serial: 5) == ("5", true))
        // A newer snapshot: nothing of the older one is answered; a request asked before is kept at once.
        #expect(ask(answers, "url=/a", serial: 6, answer: "6") == ("6", false))
        #expect(answers.count == 1)
        #expect(ask(answers, "url=/a", serial: 5, answer: "5 again") == ("5 again", false))
        #expect(ask(answers, "url=/a", serial: 6) == ("6", true))
    }

    @Test func theyAreBoundedAndWhatIsAskedAgainStays() {
        // Eight sets of two: at most sixteen answers.
        let answers = KeptResponses(sets: 8, largestEntry: 60)
        let hot = "url=/hot"
        #expect(askTwice(answers, hot) == "answer")
        for number in 1...500 {
            #expect(askTwice(answers, "url=/\(number)") == "answer")
            #expect(answers.count <= 16)
            // Asked between every other request, the hot one is the one its set used last: never worked out again.
            #expect(ask(answers, hot).kept, "after \(number)")
        }
        #expect(answers.count == 16)
        // The ones asked early have mostly made way for others.
        let keptEarly = (1...100).filter { ask(answers, "url=/\($0)", answer: "again").body == "answer" }
        #expect(keptEarly.count < 16)
        // Larger than the largest entry (10 bytes of key, 52 of response): answered, not kept.
        let large = String(repeating: "x", count: 20)
        #expect(askTwice(answers, "url=/large", answer: large) == large)
        #expect(ask(answers, "url=/large", answer: large) == (large, false))
    }

    @Test func aRequestSeenOnceTakesNoPlace() {
        let answers = KeptResponses(sets: 8)
        let hot = "url=/hot"
        #expect(askTwice(answers, hot) == "answer")
        // A stream of requests each seen once keeps nothing, and pushes nothing out.
        for number in 1...1_000 { _ = ask(answers, "url=/\(number)") }
        #expect(answers.count == 1)
        #expect(ask(answers, hot).kept)
    }

    @Test func similarRequestsSpreadOverTheSets() {
        // 1,000 queries that differ in a few bytes, in 2,048 sets of two: a set takes a third one only by chance
        // (about 30 of them, for a hash that spreads them evenly).
        let answers = KeptResponses()
        for number in 0..<1_000 { _ = askTwice(answers, "url=/users/\(number)") }
        #expect(answers.count >= 940)
    }

    @Test func twoAnswersOfOneSetAreBothKept() {
        // One set: the two last different requests are kept, the one used less recently makes way.
        let answers = KeptResponses(sets: 1)
        #expect(askTwice(answers, "url=/a", answer: "A") == "A")
        #expect(askTwice(answers, "url=/b", answer: "B") == "B")
        #expect(ask(answers, "url=/a") == ("A", true))
        #expect(ask(answers, "url=/b") == ("B", true))
        #expect(ask(answers, "url=/a") == ("A", true))
        #expect(askTwice(answers, "url=/c", answer: "C") == "C")
        #expect(ask(answers, "url=/a") == ("A", true))
        #expect(ask(answers, "url=/c") == ("C", true))
        #expect(ask(answers, "url=/b", answer: "B again") == ("B again", false))
        #expect(answers.count == 2)
    }

    @Test func concurrentRequestsGetTheirOwnAnswers() async {
        let answers = KeptResponses(sets: 16)
        await withTaskGroup(of: Bool.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var right = true
                    for round in 0..<2_000 {
                        let number = (round * 7 + task) % 300
                        right =
                            right
                            && ask(answers, "url=/\(number)", answer: "answer \(number)").body == "answer \(number)"
                    }
                    return right
                }
            }
            for await right in group { #expect(right) }
        }
    }

    /// A click's key holds every part its decision reads, each told apart from its neighbours, and nothing else; the
    /// bytes lent from a temporary buffer are the same.
    @Test func aClicksKeyHoldsEveryPartItsDecisionReads() {
        func key(
            _ path: String = "/a", query: String? = nil, headers: RequestHeaders = ["host": "h", "user-agent": "b"]
        )
            -> [UInt8]
        {
            let click = KeptKey.Click(Request(method: "GET", path: path, rawQuery: query, headers: headers))
            let bytes = click.bytes
            #expect(click.withBytes { Array($0) } == bytes)
            #expect(bytes.count == click.count)
            return bytes
        }
        let base = key()
        #expect(key() == base)
        let others = [
            key("/b"), key(query: ""), key(query: "x=1"), key(headers: ["host": "h2", "user-agent": "b"]),
            key(headers: ["user-agent": "b"]), key(headers: ["host": "", "user-agent": "b"]),
            key(headers: ["host": "h", "user-agent": "c"]),
            key(headers: ["host": "h", "user-agent": "b", "referer": "r"]),
            key(headers: ["host": "h", "user-agent": "b", "referer": ""]),
            key(headers: ["host": "h", "user-agent": "b", "accept-language": "fr"]),
            // The same bytes split differently between two parts.
            key("/ah", headers: ["host": "", "user-agent": "b"]), key(headers: ["host": "hb", "user-agent": ""]),
        ]
        #expect(Set(others + [base]).count == others.count + 1)
        // A header the decision does not read, or the method, does not make another click.
        #expect(key(headers: ["host": "h", "user-agent": "b", "accept": "text/html"]) == base)
        #expect(
            KeptKey.Click(Request(method: "HEAD", path: "/a", headers: ["host": "h", "user-agent": "b"])).bytes == base)
    }
}
