// LinkCore micro-benchmarks: `CoreBench [matcher] [rules] [resolve] [--quick]` prints one tab-separated row per
// measurement (see Row); `CoreBench routes-file COUNT PATH` writes a synthetic routes file for the start-up
// measurement; `CoreBench profile NAME COUNT` repeats one operation for callgrind. Times are the best of several
// samples of this thread's CPU time (see Measure).
#if canImport(Glibc)
    import Glibc
#endif

var arguments = Array(CommandLine.arguments.dropFirst())
if let quick = arguments.firstIndex(of: "--quick") {
    Measure.quick = true
    arguments.remove(at: quick)
}
if arguments.first == "routes-file" {
    guard arguments.count == 3, let count = Int(arguments[1]) else {
        printError("usage: CoreBench routes-file COUNT PATH")
        exit(2)
    }
    let text = SyntheticRoutes.routesFile(count: count)
    guard let file = fopen(arguments[2], "w") else {
        printError("CoreBench: cannot write \(arguments[2])")
        exit(1)
    }
    fputs(text, file)
    fclose(file)
    exit(0)
}
if arguments.first == "profile" {
    guard arguments.count == 3, let count = Int(arguments[2]), Profile.run(arguments[1], count: count) else {
        printError("usage: CoreBench profile (\(Profile.names.joined(separator: "|"))) COUNT")
        exit(2)
    }
    exit(0)
}
let groups = arguments.isEmpty ? ["matcher", "rules", "resolve"] : arguments
for group in groups {
    switch group {
    case "matcher": MatcherBenchmark.run()
    case "rules": RuleBenchmark.run()
    case "resolve": ResolveBenchmark.run()
    default:
        printError("CoreBench: unknown group '\(group)' (matcher, rules, resolve, routes-file)")
        exit(2)
    }
}
printError("checksum \(Measure.sink)")

/// Writes a line to standard error (the C `stderr` global is not concurrency-safe in Swift 6).
func printError(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}
