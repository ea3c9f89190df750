import FuzzSupport
import LinkCore

/// Resource writes and reads (`/v1/resources`): creation with `onExists`, updates with `ifRevision`, deletion,
/// reads by location and by name, computed values.
///
/// Input: a JSON document `{"writes": [{"create" | "update" | "delete": body}…], "reads": [location | {"name",
/// "params"}…]}`.
/// Properties: every stored write bumps the global revision by exactly one and stamps the resource with it, a
/// no-op leaves it; what the registry holds loads back into a registry (what a restart does) with the same
/// listing; a read's JSON (written by JSONWriter, the one rendering) parses back and encodes again to the same bytes.
func resourceFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let document = FuzzInput(data, size).json else { return 0 }
    var registry = ResourceRegistry()
    for write in document["writes"]?.arrayValue ?? [] {
        guard let outcome = try? apply(write, to: registry) else { continue }
        if outcome.change.isWrite {
            invariant(outcome.registry.revision == registry.revision + 1, "a write moved the revision by != 1")
            if case .deleted = outcome.change {
            } else {
                invariant(outcome.change.resource.revision == outcome.registry.revision, "resource not stamped")
            }
        } else {
            invariant(outcome.registry.revision == registry.revision, "a no-op moved the revision")
        }
        registry = outcome.registry
    }
    checkRestart(registry)
    for read in document["reads"]?.arrayValue ?? [] {
        let reading: ResourceReading?
        if let text = read.stringValue {
            reading = (try? Location(text)).flatMap { try? registry.read(at: $0) }
        } else if let name = read["name"]?.stringValue {
            var params = ParameterValues()
            for (key, value) in read["params"]?.objectValue ?? [:] { params[key] = value.stringValue ?? "" }
            reading = try? registry.read(named: name, params: params)
        } else {
            reading = nil
        }
        guard let reading else { continue }
        var writer = JSONWriter()
        reading.write(to: &writer)
        invariant(writer.bytes == reading.json.encoded(), "written reading does not read back: \(reading.json)")
    }
    return 0
}

private func apply(_ write: JSONValue, to registry: ResourceRegistry) throws -> ResourceRegistry.Outcome? {
    if let body = write["create"] {
        return try registry.creating(ResourceCreation(json: body))
    } else if let body = write["update"] {
        return try registry.updating(ResourceUpdate(json: body))
    } else if let body = write["delete"] {
        let target = try ResourceTarget.parse(path: body["path"]?.stringValue, name: body["name"]?.stringValue)
        return try registry.deleting(target)
    }
    return nil
}

/// The resources of `registry`, loaded into a new registry, list the same.
private func checkRestart(_ registry: ResourceRegistry) {
    do {
        let loaded = try ResourceRegistry(resources: registry.resources, revision: registry.revision)
        invariant(loaded.listJSON == registry.listJSON, "listing differs after reloading")
        invariant(loaded.revision == registry.revision, "revision differs after reloading")
    } catch {
        invariant(false, "a registry's own resources do not load: \(error)")
    }
}
