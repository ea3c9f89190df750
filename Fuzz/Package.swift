// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for LinkCore (docs/reliability.md), built with `-sanitize=fuzzer,address` by `scripts/fuzz`.
// Each executable's main.swift hands its test function to libFuzzer's driver (`LLVMFuzzerRunDriver`): SwiftPM
// renames an executable's entry point on Linux, so libFuzzer's own `main` with `-parse-as-library` does not link.
// Kept out of the root package so that the main build stays light.
let package = Package(
    name: "LinkFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "LinkServer", path: "..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport", dependencies: ["CLibFuzzer", .product(name: "LinkCore", package: "LinkServer")]),
        .executableTarget(name: "PatternFuzzer", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "LocationFuzzer", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "JSONFuzzer", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "RuleFuzzer", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "RouteFuzzer", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "ResourceFuzzer", dependencies: ["FuzzSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
