import FuzzSupport
import LinkCore

/// Pattern parsing, child patterns and building locations from patterns.
///
/// Input: three lines — a pattern, a child pattern, parameter values separated by `|`.
/// Properties: a parsed pattern's canonical text parses back to the same pattern (and shape); a child pattern extends
/// its parent; a location built from a pattern reads back to the same segments and gives back the parameter values.
func patternFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let lines = FuzzInput(data, size).lines(3)
    guard let pattern = try? Pattern(lines[0]) else { return 0 }
    checkCanonical(pattern)
    let values = lines[2].split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    checkBuilder(pattern, values: values)
    if let child = try? pattern.appending(lines[1]) {
        invariant(
            Array(child.segments.prefix(pattern.segments.count)) == pattern.segments,
            "\(child) does not extend \(pattern)")
        checkCanonical(child)
        checkBuilder(child, values: values)
    }
    return 0
}

private func checkCanonical(_ pattern: Pattern) {
    invariant(pattern.segments.count <= Pattern.maximumSegments, "\(pattern) has too many segments")
    invariant(Set(pattern.parameterNames).count == pattern.parameterNames.count, "\(pattern) repeats a name")
    let reparsed: Pattern
    do {
        reparsed = try Pattern(pattern.description)
    } catch {
        invariant(false, "canonical text \(pattern.description) does not parse: \(error)")
        return
    }
    invariant(reparsed == pattern, "\(pattern.description) reads back as \(reparsed.segments)")
    invariant(reparsed.shape() == pattern.shape(), "shape of \(pattern) changes on reparse")
}

private func checkBuilder(_ pattern: Pattern, values: [String]) {
    var params = ParameterValues()
    for (index, name) in pattern.parameterNames.enumerated() {
        params[name] = index < values.count ? values[index] : "v"
    }
    guard let location = try? LocationBuilder.location(for: pattern, params: params) else { return }
    invariant(!location.segments.contains(where: \.isEmpty), "built \(location) has an empty segment")
    let reparsed: Location
    do {
        reparsed = try Location(location.description)
    } catch {
        invariant(false, "built location \(location.description) does not parse: \(error)")
        return
    }
    invariant(reparsed.segments == location.segments, "\(location.description) reads back as \(reparsed.segments)")
    let extracted = pattern.parameters(in: location.segments)
    for (index, segment) in pattern.segments.enumerated() {
        switch segment {
        case .literal(let text):
            invariant(location.segments[index] == text, "literal \(text) became \(location.segments[index])")
        case .parameter(let name):
            invariant(extracted[name] == params[name], "parameter \(name) came back as \(extracted.dictionary)")
        case .catchAll(let name):
            let pieces = params[name]!.split(separator: "/").joined(separator: "/")
            invariant(extracted[name] == pieces, "catch-all \(name) came back as \(extracted.dictionary)")
        }
    }
}
