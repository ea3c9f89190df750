/// The GitHub REST API route set used by router benchmarks (go-http-routing-benchmark's `githubAPI`), as patterns,
/// one per distinct path. The tests and the benchmarks (through the `LinkTestSupport` product) share this one list.
public enum GitHubRoutes {
    public static let patterns: [String] = [
        "/authorizations", "/authorizations/:id", "/applications/:client_id/tokens/:access_token",
        "/applications/:client_id/tokens", "/events", "/repos/:owner/:repo/events", "/networks/:owner/:repo/events",
        "/orgs/:org/events", "/users/:user/received_events", "/users/:user/received_events/public",
        "/users/:user/events", "/users/:user/events/public", "/users/:user/events/orgs/:org", "/feeds",
        "/notifications", "/repos/:owner/:repo/notifications", "/notifications/threads/:id",
        "/notifications/threads/:id/subscription", "/repos/:owner/:repo/stargazers", "/users/:user/starred",
        "/user/starred", "/user/starred/:owner/:repo", "/repos/:owner/:repo/subscribers",
        "/users/:user/subscriptions", "/user/subscriptions", "/repos/:owner/:repo/subscription",
        "/user/subscriptions/:owner/:repo", "/users/:user/gists", "/gists", "/gists/:id", "/gists/:id/star",
        "/gists/:id/forks", "/repos/:owner/:repo/git/blobs/:sha", "/repos/:owner/:repo/git/blobs",
        "/repos/:owner/:repo/git/commits/:sha", "/repos/:owner/:repo/git/commits", "/repos/:owner/:repo/git/refs",
        "/repos/:owner/:repo/git/tags/:sha", "/repos/:owner/:repo/git/tags", "/repos/:owner/:repo/git/trees/:sha",
        "/repos/:owner/:repo/git/trees", "/issues", "/user/issues", "/orgs/:org/issues",
        "/repos/:owner/:repo/issues", "/repos/:owner/:repo/issues/:number", "/repos/:owner/:repo/assignees",
        "/repos/:owner/:repo/assignees/:assignee", "/repos/:owner/:repo/issues/:number/comments",
        "/repos/:owner/:repo/issues/:number/events", "/repos/:owner/:repo/labels", "/repos/:owner/:repo/labels/:name",
        "/repos/:owner/:repo/issues/:number/labels", "/repos/:owner/:repo/issues/:number/labels/:name",
        "/repos/:owner/:repo/milestones/:number/labels", "/repos/:owner/:repo/milestones",
        "/repos/:owner/:repo/milestones/:number", "/emojis", "/gitignore/templates", "/gitignore/templates/:name",
        "/markdown", "/markdown/raw", "/meta", "/rate_limit", "/users/:user/orgs", "/user/orgs", "/orgs/:org",
        "/orgs/:org/members", "/orgs/:org/members/:user", "/orgs/:org/public_members",
        "/orgs/:org/public_members/:user", "/orgs/:org/teams", "/teams/:id", "/teams/:id/members",
        "/teams/:id/members/:user", "/teams/:id/repos", "/teams/:id/repos/:owner/:repo", "/user/teams",
        "/repos/:owner/:repo/pulls", "/repos/:owner/:repo/pulls/:number", "/repos/:owner/:repo/pulls/:number/commits",
        "/repos/:owner/:repo/pulls/:number/files", "/repos/:owner/:repo/pulls/:number/merge",
        "/repos/:owner/:repo/pulls/:number/comments", "/user/repos", "/users/:user/repos", "/orgs/:org/repos",
        "/repositories", "/repos/:owner/:repo", "/repos/:owner/:repo/contributors", "/repos/:owner/:repo/languages",
        "/repos/:owner/:repo/teams", "/repos/:owner/:repo/tags", "/repos/:owner/:repo/branches",
        "/repos/:owner/:repo/branches/:branch", "/repos/:owner/:repo/collaborators",
        "/repos/:owner/:repo/collaborators/:user", "/repos/:owner/:repo/comments",
        "/repos/:owner/:repo/commits/:sha/comments", "/repos/:owner/:repo/comments/:id",
        "/repos/:owner/:repo/commits", "/repos/:owner/:repo/commits/:sha", "/repos/:owner/:repo/readme",
        "/repos/:owner/:repo/contents/*path", "/repos/:owner/:repo/keys", "/repos/:owner/:repo/keys/:id",
        "/repos/:owner/:repo/downloads", "/repos/:owner/:repo/downloads/:id", "/repos/:owner/:repo/forks",
        "/repos/:owner/:repo/hooks", "/repos/:owner/:repo/hooks/:id", "/repos/:owner/:repo/hooks/:id/tests",
        "/repos/:owner/:repo/merges", "/repos/:owner/:repo/releases", "/repos/:owner/:repo/releases/:id",
        "/repos/:owner/:repo/releases/:id/assets", "/repos/:owner/:repo/stats/contributors",
        "/repos/:owner/:repo/stats/commit_activity", "/repos/:owner/:repo/stats/code_frequency",
        "/repos/:owner/:repo/stats/participation", "/repos/:owner/:repo/stats/punch_card",
        "/repos/:owner/:repo/statuses/:ref", "/search/repositories", "/search/code", "/search/issues",
        "/search/users", "/legacy/issues/search/:owner/:repository/:state/:keyword",
        "/legacy/repos/search/:keyword", "/legacy/user/search/:keyword", "/legacy/user/email/:email",
        "/users/:user", "/user", "/users", "/user/emails", "/users/:user/followers", "/user/followers",
        "/users/:user/following", "/user/following", "/user/following/:user", "/users/:user/following/:target_user",
        "/users/:user/keys", "/user/keys", "/user/keys/:id",
    ]

    /// A concrete location for a pattern: each parameter replaced by a value derived from its name.
    public static func sampleLocation(for pattern: String) -> String {
        pattern.split(separator: "/").map { segment -> String in
            switch segment.first {
            case ":": return "v-" + segment.dropFirst()
            case "*": return "a/b/c"
            default: return String(segment)
            }
        }.reduce("") { $0 + "/" + $1 }
    }
}
