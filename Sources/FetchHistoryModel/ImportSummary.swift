/// What an import did.
public struct ImportSummary: Hashable, Sendable {
    /// Fetches new to the history.
    public var added: Int
    /// Fetches whose id the history already had.
    public var skipped: Int
    /// Distinct sources of the input that held secrets (a URL's user info,
    /// a secret-named parameter's value), stored with them hidden as
    /// recording hides them (`RedactedURL`).
    public var sourcesWithSecretsHidden: Int

    public init(added: Int, skipped: Int, sourcesWithSecretsHidden: Int = 0) {
        self.added = added
        self.skipped = skipped
        self.sourcesWithSecretsHidden = sourcesWithSecretsHidden
    }
}
