import FetchHistoryModel

// `HostPattern` in SQLite: a GLOB whose literal runs have GLOB's own
// wildcards wrapped in a one-character class, as `SourceMatch` does.
extension HostPattern {
    /// The condition on the `host` column, and the value it binds.
    var condition: (String, [SQLValue]) {
        ("host GLOB ?", [.text(parts.map { SourceMatch.literalGlob(String($0)) }.joined(separator: "*"))])
    }
}
