/// The kind of automated client behind a click (API.md §7, step 2 "Bots").
///
/// A `preview` bot builds a link preview (a card in a chat or a feed) and gets the preview page; a `crawler`
/// indexes or probes and gets what a desktop person gets. Neither is ever given a token.
public enum BotKind: String, Sendable, Hashable, CaseIterable {
    /// A link-preview fetcher: `facebookexternalhit`, `Slackbot`, `WhatsApp`, …
    case preview
    /// A search engine, monitor or command-line client: `Googlebot`, `curl/`, and any agent saying `bot`, …
    case crawler
}
