// swift-tools-version: 6.2
import PackageDescription

// On Linux this package is the service and its client. On any other host (an app's build on macOS, Xcode) it is
// the client only: the server is a Linux service (libmicrohttpd; Synchronization's Mutex, which Apple platforms have
// from macOS 15 / iOS 18 on), and SwiftPM applies one platform floor to a whole package, so declaring the server
// there would raise every app's floor to macOS 15. `LINK_CLIENT_ONLY=1` gives the same client-only package on Linux
// (scripts/check-client-standalone builds an app against it).
#if os(Linux)
    let clientOnly = Context.environment["LINK_CLIENT_ONLY"] == "1"
#else
    let clientOnly = true
#endif

let package = Package(
    name: "LinkServer",
    // LinkClient's floor (API.md §14); the server is built on Linux only, where these do not apply.
    platforms: [.macOS(.v12), .iOS(.v15)],
    products: [
        .library(name: "LinkClient", targets: ["LinkClient"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
    ],
    targets: [
        // The Swift client for apps and backend jobs: Foundation and the OpenAPI runtime only (API.md §14).
        .target(
            name: "LinkClient",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            exclude: ["Generated/openapi.json", "Generated/openapi-generator-config.yaml"]
        )
    ],
    swiftLanguageModes: [.v6]
)

if !clientOnly {
    package.products += [
        .executable(name: "LinkServer", targets: ["LinkServer"]),
        .library(name: "LinkCore", targets: ["LinkCore"]),
        // Fixtures and a seeded generator shared by this repository's tests and Benchmarks/; not an API for apps.
        .library(name: "LinkTestSupport", targets: ["LinkTestSupport"]),
    ]
    package.dependencies += [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // Settings: the core providers only (no JSON trait: the config file is read by LinkCore's parser).
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: []),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ]
    package.targets += [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .target(
            name: "LinkCore",
            dependencies: [
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            // Rounding and remainder in JSON Logic arithmetic come from libm; executables without Foundation need it.
            linkerSettings: [.linkedLibrary("m")]
        ),
        .executableTarget(
            name: "LinkServer",
            dependencies: [
                "CMicroHTTPD",
                "CPNG",
                "CQREncode",
                "LinkCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("Resources/openapi.json"), .copy("Resources/console")]
        ),
        .target(name: "LinkTestSupport", dependencies: ["LinkCore"], path: "Tests/LinkTestSupport"),
        .testTarget(name: "LinkCoreTests", dependencies: ["LinkCore", "LinkTestSupport"]),
        // GRDB: a test reads what the server process wrote to its SQLite file (a crash keeps the counts written).
        .testTarget(
            name: "LinkServerTests",
            dependencies: [
                "LinkServer", "LinkCore", "LinkTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        // Runs the client against the real server, in process.
        .testTarget(name: "LinkClientTests", dependencies: ["LinkClient", "LinkServer", "LinkTestSupport"]),
    ]
}

// CI builds this package's own targets with warnings as errors (`LINK_WARNINGS_AS_ERRORS=1`, exported by .ci/run).
// Not in the manifest for everyone: SwiftPM passes `-suppress-warnings` to dependencies, which conflicts with
// `-warnings-as-errors`, and an app's build must not break on a newer compiler's new warnings.
if Context.environment["LINK_WARNINGS_AS_ERRORS"] == "1" {
    for target in package.targets where target.type != .system {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-warnings-as-errors"])]
    }
}

// `LINK_TSAN=1` (scripts/test-tsan): this package's own targets are compiled and linked with ThreadSanitizer, and
// `LINK_TSAN` is defined for them (their `Mutex` becomes a pthread mutex that ThreadSanitizer sees:
// Sources/LinkCore/Concurrency/TSanVisibleMutex.swift). The dependencies are built as for every other debug build, so
// the instrumented build shares them in `.build` and compiles only these targets again (`--sanitize=thread` would
// instrument and compile every dependency once more, in a scratch folder of its own). The dependencies then run
// uninstrumented, as the toolchain's runtime and Foundation always do, and as the C libraries (libmicrohttpd,
// SQLite) did before: their accesses are not checked, their locks (pthread, Dispatch) are seen.
if Context.environment["LINK_TSAN"] == "1" {
    for target in package.targets where target.type != .system {
        target.swiftSettings =
            (target.swiftSettings ?? []) + [.define("LINK_TSAN"), .unsafeFlags(["-sanitize=thread"])]
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=thread"])]
    }
}
