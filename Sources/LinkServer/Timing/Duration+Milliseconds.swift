extension Duration {
    /// Whole milliseconds (truncated), for the store's millisecond columns and Dispatch's timeouts.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
