// Sources: what `--source` matches, resolved before the query that lists.
extension Database {
    /// The distinct sources in the history that `text` matches, as
    /// `HistoryFilter.sourceMatching` (and `SourceMatch`) define it, in no
    /// particular order. One index seek per source found, however many
    /// fetches each has.
    public func sources(matching text: String) throws -> [String] {
        let match = SourceMatch(text)
        var found: [String] = []
        for source in match.exactSources where try firstRow(HistorySQL.sourceExists, [.text(source)], { _ in true }) != nil {
            found.append(source)
        }
        for pattern in match.patterns {
            var after = ""
            while let next = try firstRow(HistorySQL.nextSourceMatching, [.text(pattern), .text(after)], { $0.text(0) }) {
                found.append(next)
                after = next
            }
        }
        return found
    }
}
