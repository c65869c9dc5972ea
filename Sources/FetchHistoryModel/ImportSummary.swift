/// What an import did.
public struct ImportSummary: Hashable, Sendable {
    /// Fetches new to the history.
    public var added: Int
    /// Fetches whose id the history already had.
    public var skipped: Int

    public init(added: Int, skipped: Int) {
        self.added = added
        self.skipped = skipped
    }
}
