/// A change request (`PATCH /v1/resources`): `{"path" | "name", "value" | "compute", "ifRevision"?}`.
public struct ResourceUpdate: Sendable, Hashable {
    private static let fieldNames: Set<String> = ["path", "name", "value", "compute", "ifRevision"]

    public var target: ResourceTarget
    public var content: ResourceContent
    /// Fail with `revision_mismatch` unless the resource is at this revision.
    public var ifRevision: Int?

    public init(target: ResourceTarget, content: ResourceContent, ifRevision: Int? = nil) {
        self.target = target
        self.content = content
        self.ifRevision = ifRevision
    }

    /// Decodes a change body. Unknown fields, wrong types (`null` included, except as a `value` or a rule), an
    /// invalid name, anything but exactly one of `path`/`name` and of `value`/`compute`, and an `ifRevision` that
    /// is not an integer ≥ 0 are `invalid_request`; a malformed `path` is `invalid_pattern`, a malformed
    /// `compute` `invalid_rule`.
    public init(json: JSONValue) throws(LinkError) {
        let fields = try JSONFields(json, path: "", nullMeansAbsent: true)
        try fields.rejectUnknown(ResourceUpdate.fieldNames)
        let path = try fields.strictString("path")
        let name = try fields.strictString("name")
        if path == nil && name == nil {
            throw LinkError(.invalidRequest, "Field 'path' or 'name' is required", details: ["field": "path"])
        }
        ifRevision = nil
        if let value = fields["ifRevision"] {
            guard let revision = value.intValue, revision >= 0 else {
                throw fields.mismatch("ifRevision", "an integer ≥ 0", value)
            }
            ifRevision = revision
        }
        let content = try fields.resourceContent()
        target = try ResourceTarget.parse(path: path, name: name)
        self.content = content
    }

    /// The revision conditions of the request itself (`ifRevision`).
    public var conditions: [RevisionCondition] {
        ifRevision.map { [.revision($0)] } ?? []
    }
}
