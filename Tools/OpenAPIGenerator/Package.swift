// swift-tools-version: 6.1
// Builds swift-openapi-generator's command-line tool, kept apart from the main package so that neither the server
// nor an app that adds LinkClient ever builds the generator. `scripts/generate-client` runs it.
import PackageDescription

let package = Package(
    name: "OpenAPIGeneratorTool",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
    ]
)
