import LinkCore

/// Bearer-token authorization (API.md §6): writes need the admin token when one is set; everything but the
/// operational endpoints needs the read token (or the admin token) when a read token is set.
struct TokenCheck: Sendable {
    var adminToken: String?
    var readToken: String?

    func authorize(_ request: Request, access: Endpoint.Access) throws(LinkError) {
        let presented = bearer(request.headers[.authorization])
        switch access {
        case .open:
            return
        case .read:
            guard let readToken else { return }
            if matches(presented, readToken) || (adminToken.map { matches(presented, $0) } ?? false) { return }
            throw LinkError.unauthorized(needing: "read")
        case .write:
            guard let adminToken else { return }
            if matches(presented, adminToken) { return }
            throw LinkError.unauthorized(needing: "admin")
        }
    }

    /// Whether `request` may read: no read token is set, or it carries the read or the admin token.
    func allowsRead(_ request: Request) -> Bool {
        (try? authorize(request, access: .read)) != nil
    }

    private func bearer(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingSpaces
    }

    /// Compares in time that depends only on the lengths, not on where the first difference is.
    private func matches(_ presented: String?, _ expected: String) -> Bool {
        guard let presented else { return false }
        let a = Array(presented.utf8)
        let b = Array(expected.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<b.count {
            difference |= (i < a.count ? a[i] : 0) ^ b[i]
        }
        return difference == 0
    }
}
