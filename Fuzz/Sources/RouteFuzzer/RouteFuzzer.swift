import FuzzSupport
import LinkCore

/// Route definitions, registration, resolution and removal (`/v1/routes`, `/v1/resolve`, `/v1/locate`).
///
/// Input: a JSON document `{"routes": [definition…], "resolve": [request…], "remove": [name…]}`; a bare array is
/// taken as `routes`.
/// Properties: a decoded definition re-encodes to an equal definition; what a table holds registers again into an
/// empty table (what a restart does) and lists the same; a resolution takes no more redirects than the limit and
/// ends on the route its final location matches, and its JSON (written by JSONWriter, the one rendering) parses
/// back and encodes again to the same bytes.
func routeFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let document = FuzzInput(data, size).json else { return 0 }
    let routes = document.arrayValue ?? document["routes"]?.arrayValue ?? []
    var table = RouteTable()
    for json in routes {
        guard let definition = try? RouteDefinition(json: json) else { continue }
        let reread = try? RouteDefinition(json: definition.json())
        invariant(reread == definition, "definition does not read back: \(definition.json())")
        if let next = try? table.registering(definition, source: .api) { table = next.table }
    }
    checkRestart(table)
    let resolver = Resolver(table: table, redirectLimit: 3)
    for json in document["resolve"]?.arrayValue ?? [] {
        guard let request = try? ResolveRequest(json: json) else { continue }
        checkResolution(resolver, request)
        if case .name(let named) = request.target { _ = try? resolver.locate(named) }
    }
    for name in document["remove"]?.arrayValue ?? [] {
        guard let name = name.stringValue else { continue }
        if let next = try? table.removing(named: name) { table = next.table }
        if let next = try? table.removing(pattern: name) { table = next.table }
    }
    checkRestart(table)
    return 0
}

/// The API routes of `table`, registered again from their definitions, give the same listing.
private func checkRestart(_ table: RouteTable) {
    var restarted = RouteTable()
    do {
        restarted = try restarted.replacingRoutes(from: .api, with: table.definitions(from: .api)).table
    } catch {
        invariant(false, "a table's own routes do not register again: \(error)")
    }
    invariant(restarted.json() == table.json(), "routes differ after re-registering: \(restarted.json())")
}

private func checkResolution(_ resolver: Resolver, _ request: ResolveRequest) {
    guard let resolution = try? resolver.resolve(request) else { return }
    let limit = min(request.redirectLimit ?? resolver.redirectLimit, resolver.redirectLimit)
    invariant(resolution.redirects.count <= limit, "\(resolution.redirects.count) redirects over limit \(limit)")
    invariant(
        resolver.match(resolution.location)?.index == resolution.routeIndex,
        "\(resolution.location) resolved to route \(resolution.routeIndex) but matches another")
    var writer = JSONWriter()
    resolution.write(to: &writer)
    invariant(
        writer.bytes == resolution.json().encoded(), "written resolution does not read back: \(resolution.json())")
}
