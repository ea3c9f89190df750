import LinkCore
import LinkTestSupport
import Testing

/// Runs every case of the official JSON Logic conformance suites (see ``ConformanceSuite`` for how expected errors
/// are matched), records one issue per failing case and prints the pass count.
@Suite struct ConformanceTests {
    @Test func everyCasePasses() throws {
        var total = 0
        var misses: [String] = []
        for file in try JSONLogicSuites.fileNames() {
            let cases = try JSONLogicSuites.cases(in: file)
            #expect(!cases.isEmpty, "\(file) has no cases")
            for testCase in cases {
                total += 1
                if let miss = ConformanceSuite.miss(testCase) { misses.append(miss) }
            }
        }
        let summary = "JSON Logic conformance: \(total - misses.count)/\(total) cases pass"
        print(summary)
        for miss in misses { Issue.record(Comment(rawValue: miss)) }
        #expect(total == JSONLogicSuites.caseCount, "the suites should hold \(JSONLogicSuites.caseCount) cases")
        #expect(misses.isEmpty, Comment(rawValue: summary))
    }
}
