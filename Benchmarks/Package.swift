// swift-tools-version: 6.2
// The benchmark suite (docs/benchmarks.md): a package of its own so the service's build stays light.
// `scripts/bench` at the repository root builds and runs everything here.
import PackageDescription

let package = Package(
    name: "LinkServerBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "LinkServer", path: ".."),
        .package(url: "https://github.com/vapor/routing-kit", exact: "4.9.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    ],
    targets: [
        // Micro-benchmarks of LinkCore (matcher against routing-kit, JSON Logic, resolve) and the 100k-route
        // generator for the start-up measurement.
        .executableTarget(
            name: "CoreBench",
            dependencies: [
                .product(name: "LinkCore", package: "LinkServer"),
                .product(name: "LinkTestSupport", package: "LinkServer"),
                .product(name: "RoutingKit", package: "routing-kit"),
            ]
        ),
        // The baselines of the HTTP table: libmicrohttpd from Swift with the service's daemon settings, and
        // Hummingbird 2 on SwiftNIO.
        .systemLibrary(name: "CMHD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .executableTarget(name: "SwiftMHDHello", dependencies: ["CMHD"]),
        .executableTarget(
            name: "HummingbirdHello",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
