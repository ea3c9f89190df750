import Foundation
import LinkClient
import Testing

// The code samples of docs/client.md, compiled here so that they cannot rot. Each sample sits between
// `// sample: NAME` and `// end`; DocSampleTests checks that docs/client.md shows exactly these lines.
// Stand-ins for the app's own code are defined outside the samples.

private struct Screen: Decodable { let screen: String }
private func show(_ screen: Screen, presentation: String?) {}
private func showWebPage(_ url: URL) {}
private func updateProgress(_ progress: String) {}
private func reportGap() {}

private enum UniversalLinkSample {
    // sample: universal-link
    static let client = LinkClient(
        baseURL: URL(string: "https://links.example.com")!,  // the public links listener
        installID: InstallID.persistent())

    /// From `.onOpenURL { url in Task { await handle(url) } }` or `application(_:continue:restorationHandler:)`.
    static func handle(_ url: URL) async {
        do {
            let opened = try await client.open(url)
            guard opened.decision == .open, let resolution = opened.resolution else {
                if let target = opened.target.flatMap(URL.init(string:)) { showWebPage(target) }
                return  // expired, no route, or a decision added later: a web page or a message
            }
            let screen = try resolution.destination.decode(Screen.self)
            show(screen, presentation: resolution.presentation)
        } catch let error as LinkServiceError {
            print("the service said no: \(error.status) \(error.code) \(error.message)")
        } catch {
            print("no answer (offline?): \(error)")
        }
    }
    // end
}

private enum DeferredSample {
    static let client = UniversalLinkSample.client

    // sample: deferred-link
    /// On first launch. iOS: `UIPasteboard.general.string`, read only when
    /// `UIPasteboard.general.detectPatterns(for: [.probableWebURL])` finds a URL (no prompt).
    /// Android: the Play Install Referrer's `installReferrer` string.
    static func claimOnFirstLaunch(pasteboardOrReferrer text: String) async throws {
        guard let deferred = try await client.claimDeferred(from: text, hosts: ["links.example.com"]) else {
            return  // no token, or already claimed: start as usual
        }
        let screen = try deferred.resolution.destination.decode(Screen.self)
        show(screen, presentation: deferred.resolution.presentation)
    }
    // end
}

private enum EventsSample {
    // sample: events
    /// Events are served by the API listener (the links listener serves only opens and claims).
    static let api = LinkClient(baseURL: URL(string: "https://api.example.com")!)

    static func followSeekProgress() async throws {
        for try await element in api.events([.name("onSeekProgress"), .path("/seek/:progress")]) {
            switch element {
            case .event(let event): updateProgress(event.params["progress"] ?? "")
            case .missed, .resubscribed: reportGap()  // some events were lost: refresh from the source
            }
        }
        // Ends when the task is cancelled (the subscription is deleted) or with a non-retryable error.
    }
    // end
}

private enum BackendSample {
    // sample: backend-job
    static func publishCampaign(adminToken: String) async throws {
        let client = LinkClient(baseURL: URL(string: "http://linkserver.internal:8080")!, token: adminToken)
        try await client.register(
            RouteDefinition(
                path: "/promo/:code", name: "promo", destination: ["screen": "Promo"], presentation: "present",
                redirect: [.to("/login?from={location}", when: ["!": ["var": "context.loggedIn"]])]))
        let flags = try await client.resource(named: "flags", params: ["platform": "ios"])
        try await client.updateResource(
            .name("flags"), to: .value(["promo": "SPRING"]), ifRevision: flags.resource.revision)
        try await client.registerEventType(path: "/campaigns/:name")  // emits need a type; 200 when it exists
        try await client.emit(location: "/campaigns/SPRING", extra: ["by": "scheduler"])
        try await client.present(in: "home", id: "spring", priority: 10, payload: ["title": "Spring sale"])
        let stats = try await client.clickStats(route: "promo")
        print("clicks: \(stats.clicks), opens: \(stats.opens)")
    }
    // end
}

/// docs/client.md shows exactly the samples compiled above.
@Suite struct DocSampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `NAME → lines` between `// sample: NAME` and `// end`, indentation removed.
    static func samples(in text: String, start: String, end: String) -> [String: String] {
        var samples: [String: String] = [:]
        var name: String?
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let current = name {
                if trimmed == end {
                    let indent =
                        lines.filter { !$0.allSatisfy(\.isWhitespace) }
                        .map { $0.prefix { $0 == " " }.count }.min() ?? 0
                    samples[current] = lines.map { String($0.dropFirst(indent)) }.joined(separator: "\n")
                    name = nil
                } else if trimmed != "```swift" {
                    lines.append(line)
                }
            } else if trimmed.hasPrefix(start) {
                var rest = trimmed.dropFirst(start.count)
                if rest.hasSuffix("-->") { rest = rest.dropLast(3) }
                name = rest.trimmingCharacters(in: .whitespaces)
                lines = []
            }
        }
        return samples
    }

    @Test func theDocsShowTheCompiledSamples() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let docs = try String(contentsOf: Self.root.appendingPathComponent("docs/client.md"), encoding: .utf8)
        let compiled = Self.samples(in: source, start: "// sample:", end: "// end")
        let shown = Self.samples(in: docs, start: "<!-- sample:", end: "```")
        #expect(compiled.count == 4)
        #expect(Set(shown.keys) == Set(compiled.keys))
        for (name, code) in compiled {
            #expect(shown[name] == code, "docs/client.md's sample '\(name)' differs from DocSamples.swift")
        }
    }
}
