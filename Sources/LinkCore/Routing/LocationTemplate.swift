/// A redirect template: text with `{param}` and `{location}` placeholders (API.md §3), parsed once.
///
/// In a location template each placeholder is encoded for where it stands: before the first `?` a parameter is one
/// percent-encoded path segment (a catch-all's value keeps its `/` between segments) and `{location}` is inserted as
/// its canonical text, keeping its `/` and `?` (`/app{location}`, `https://www.example.com{location}`: as in a
/// link's targets, API.md §7); after the `?` each is percent-encoded whole as a query component. In the values of a
/// name-based target the substitution is raw, because the location builder encodes the values.
/// `{location}` is always the current location (path + query), so a parameter named `location` cannot be
/// referenced. Braces are otherwise not allowed; write `%7B` / `%7D` for literal ones in a location.
public struct LocationTemplate: Sendable, Hashable, CustomStringConvertible {
    enum Placement: Sendable, Hashable {
        case path, query, raw
    }

    enum Part: Sendable, Hashable {
        case text(String)
        /// A parameter; `catchAll` once validated against a pattern in which it is one.
        case parameter(String, Placement, catchAll: Bool)
        case location(Placement)
    }

    /// The template as written.
    public let description: String
    let parts: [Part]

    /// Parses a template. `isLocation` says whether it is a whole location (placement by position) or a value
    /// of a name-based target (raw). A stray brace or a placeholder name outside `[A-Za-z_][A-Za-z0-9_]*` is
    /// `invalid_rule`.
    init(_ text: String, isLocation: Bool, field: String) throws(LinkError) {
        var parts: [Part] = []
        var placement: Placement = isLocation ? .path : .raw
        var literal = ""
        var remaining = Substring(text)
        func fail(_ reason: String) -> LinkError {
            LinkError(
                .invalidRule, "Invalid template '\(text)' in '\(field)': \(reason)",
                details: ["field": .string(field), "template": .string(text), "reason": .string(reason)])
        }
        while let character = remaining.first {
            remaining = remaining.dropFirst()
            switch character {
            case "{":
                guard let close = remaining.firstIndex(of: "}") else { throw fail("'{' without '}'") }
                let name = remaining[..<close]
                guard Pattern.isParameterName(name) else { throw fail("'{\(name)}' is not a placeholder name") }
                if !literal.isEmpty { parts.append(.text(literal)) }
                literal = ""
                parts.append(
                    name == "location" ? .location(placement) : .parameter(String(name), placement, catchAll: false))
                remaining = remaining[remaining.index(after: close)...]
            case "}":
                throw fail("'}' without '{'")
            default:
                if isLocation && (character == "?" || character == "#") { placement = .query }
                literal.append(character)
            }
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
        self.description = text
        self.parts = parts
    }

    private init(description: String, parts: [Part]) {
        self.description = description
        self.parts = parts
    }

    /// Whether something other than a fragment follows `{location}` in the path (`/v2{location}?src=x`,
    /// `/app{location}/edit`): the location's own query would take it.
    var continuesAfterPathLocation: Bool {
        guard let index = parts.firstIndex(of: .location(.path)), index + 1 < parts.count else { return false }
        if case .text(let text) = parts[index + 1], text.hasPrefix("#") { return false }
        return true
    }

    /// The parameter names the template refers to, in order.
    var parameterNames: [String] {
        parts.compactMap { part in
            if case .parameter(let name, _, _) = part { return name }
            return nil
        }
    }

    /// Checks that every `{name}` is a parameter of `pattern` (else `invalid_rule`) and marks catch-alls.
    func validated(against pattern: Pattern, field: String) throws(LinkError) -> LocationTemplate {
        var parts = self.parts
        for (index, part) in parts.enumerated() {
            guard case .parameter(let name, let placement, _) = part else { continue }
            guard let segment = pattern.segments.first(where: { $0.parameterName == name }) else {
                throw LinkError(
                    .invalidRule,
                    "Unknown placeholder '{\(name)}' in '\(field)': \(pattern) has no parameter '\(name)'",
                    details: [
                        "field": .string(field), "template": .string(description), "placeholder": .string(name),
                        "reason": .string("unknown placeholder"),
                    ])
            }
            if case .catchAll = segment { parts[index] = .parameter(name, placement, catchAll: true) }
        }
        return LocationTemplate(description: description, parts: parts)
    }

    /// The template with its placeholders filled in from `params` and the current `location`.
    func render(params: PathParameters, location: String) -> String {
        if case .text(let text) = parts.first, parts.count == 1 { return text }
        var output: [UInt8] = []
        for part in parts {
            switch part {
            case .text(let text): output.append(contentsOf: text.utf8)
            // The current location is canonical text, already encoded for a path: in one it keeps its `/` and `?`.
            case .location(.path): output.append(contentsOf: location.utf8)
            case .location(let placement): LocationTemplate.append(location, placement, catchAll: false, to: &output)
            case .parameter(let name, let placement, let catchAll):
                LocationTemplate.append(params[name] ?? "", placement, catchAll: catchAll, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func append(_ value: String, _ placement: Placement, catchAll: Bool, to output: inout [UInt8]) {
        switch placement {
        case .raw: output.append(contentsOf: value.utf8)
        case .query: PercentCoding.encode(value, allowing: .queryComponent, into: &output)
        case .path where catchAll:
            for (index, piece) in value.split(separator: "/").enumerated() {
                if index > 0 { output.append(UInt8(ascii: "/")) }
                PercentCoding.encode(String(piece), allowing: .pathSegment, into: &output)
            }
        case .path: PercentCoding.encode(value, allowing: .pathSegment, into: &output)
        }
    }
}
