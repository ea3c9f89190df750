import LinkCore
import Testing

/// Runs every case of the official JSON Logic conformance suites (see ``ConformanceSuite`` for how expected errors
/// are matched), records one issue per failing case and prints the pass count.
@Suite struct ConformanceTests {
    /// The number of cases in the suites; the best published implementation passes all of them.
    static let expectedCaseCount = 1138

    @Test func everyCasePasses() throws {
        var total = 0
        var misses: [String] = []
        for file in try ConformanceSuite.fileNames() {
            let cases = try ConformanceSuite.cases(in: file)
            #expect(!cases.isEmpty, "\(file) has no cases")
            for testCase in cases {
                total += 1
                if let miss = ConformanceSuite.miss(testCase) { misses.append(miss) }
            }
        }
        let summary = "JSON Logic conformance: \(total - misses.count)/\(total) cases pass"
        print(summary)
        for miss in misses { Issue.record(Comment(rawValue: miss)) }
        #expect(total == Self.expectedCaseCount, "the suites should hold \(Self.expectedCaseCount) cases")
        #expect(misses.isEmpty, Comment(rawValue: summary))
    }
}
