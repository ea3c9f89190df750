/// What this build of the service is, for operators: `LinkServer --version`, the `linkserver_build_info` metric and
/// the `listening on` log line. The version is the OpenAPI document's `info.version` (a test keeps the two equal).
enum BuildInfo {
    static let version = "0.1.0"
}
