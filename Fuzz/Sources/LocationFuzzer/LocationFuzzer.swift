import FuzzSupport
import LinkCore

/// The location canonicaliser and the query parser.
///
/// Input: a location as a client sends it (a path or a URL). The same text is also parsed as a raw query.
/// Properties: a canonical location has no empty segment and its canonical text reads back to the same segments,
/// query and text (canonicalisation is idempotent); a parsed query's encoding reads back to the same items; a host
/// allow-list answers without trapping.
func locationFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).text
    if let location = try? Location(text) {
        checkCanonical(location)
        _ = HostAllowList(["example.com", "*.example.org"]).allows(location)
    }
    if let query = try? Query(parsing: text) {
        checkQuery(query)
    }
    return 0
}

private func checkCanonical(_ location: Location) {
    invariant(!location.segments.contains(where: \.isEmpty), "\(location) has an empty segment")
    let canonical = location.description
    let reparsed: Location
    do {
        reparsed = try Location(canonical)
    } catch {
        invariant(false, "canonical text \(canonical) does not parse: \(error)")
        return
    }
    invariant(reparsed.segments == location.segments, "\(canonical) reads back as \(reparsed.segments)")
    invariant(reparsed.query == location.query, "\(canonical) reads back with query \(reparsed.query.items)")
    invariant(reparsed.description == canonical, "\(canonical) is not stable: \(reparsed.description)")
    invariant(location.path.utf8.allSatisfy { $0 < 0x80 }, "canonical path \(location.path) is not ASCII")
}

private func checkQuery(_ query: Query) {
    invariant(!query.items.contains { $0.name.isEmpty && $0.value.isEmpty }, "query keeps an empty item")
    let encoded = query.encoded
    let reparsed: Query
    do {
        reparsed = try Query(parsing: encoded)
    } catch {
        invariant(false, "encoded query \(encoded) does not parse: \(error)")
        return
    }
    invariant(reparsed == query, "\(encoded) reads back as \(reparsed.items)")
    invariant(query.map.count <= query.items.count, "query map is larger than its items")
}
