/// Synthetic route sets for the 10k/100k matcher rows and the 100k-route start-up measurement.
enum SyntheticRoutes {
    /// Route `index`: `/vN/serviceN/resourceN/…` with a tail chosen by `index % 4`. Distinct indexes give
    /// distinct shapes (the three literal levels identify the index), so a table accepts them all.
    static func pattern(_ index: Int) -> String {
        let prefix = "/v\(index % 3)/service\(index / 3 % 100)/resource\(index / 300)"
        switch index % 4 {
        case 0: return prefix + "/:id"
        case 1: return prefix + "/:id/details"
        case 2: return prefix
        default: return prefix + "/files/*path"
        }
    }

    /// A routes file (`{"routes": [...]}`, the `--routes` format) with `count` routes, each with a name, a
    /// destination and a presentation as real route sets have.
    static func routesFile(count: Int) -> String {
        var text = "{\"routes\": [\n"
        text.reserveCapacity(count * 120)
        for index in 0..<count {
            if index > 0 { text += ",\n" }
            text += "{\"path\": \"\(pattern(index))\", \"name\": \"route\(index)\", "
            text += "\"destination\": {\"screen\": \"Screen\(index % 50)\"}, \"presentation\": \"push\"}"
        }
        text += "\n]}\n"
        return text
    }
}
