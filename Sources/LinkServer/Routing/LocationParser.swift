import LinkCore

/// Parses client locations under the `links.hosts` policy: an `http(s)` URL from another host matches nothing.
struct LocationParser: Sendable {
    let hosts: HostAllowList?

    func parse(_ text: String) throws(LinkError) -> Location {
        let location = try Location(text)
        if let hosts, !hosts.allows(location) {
            throw LinkError(
                .noMatch, "The host of \(text) is not one of links.hosts", details: ["location": .string(text)])
        }
        return location
    }
}
