import FetchHistoryModel

// Sources: what `--source` matches, resolved before the query that lists.
extension Database {
    /// The distinct sources in the history that `text` matches, as
    /// `HistoryFilter.sourceMatching` (and `SourceMatch`) define it, in no
    /// particular order. One index seek per distinct source in the range of
    /// each prefix, however many fetches each has.
    ///
    /// The walk is done here rather than with `source GLOB ? AND source > ?`:
    /// given two lower bounds, SQLite 3.40 took the GLOB's and read every
    /// entry of the last matching source again (0.26 s for 250,000 fetches,
    /// measured, against microseconds for a seek).
    public func sources(matching text: String) throws -> [String] {
        let match = SourceMatch(text)
        var found: [String] = []
        for source in match.exactSources where try firstRow(HistorySQL.sourceExists, [.text(source)], { _ in true }) != nil {
            found.append(source)
        }
        for (prefix, following) in match.prefixes {
            var next = try firstRow(HistorySQL.firstSourceFrom, [.text(prefix)]) { $0.text(0) }
            // BINARY order is the order of the UTF-8 bytes: the sources with
            // the prefix come together, from the first one on.
            while let source = next, source.utf8.starts(with: prefix.utf8) {
                let rest = source.utf8.dropFirst(prefix.utf8.count)
                if let following {
                    if let byte = rest.first, following.contains(byte) { found.append(source) }
                } else {
                    found.append(source)
                }
                next = try firstRow(HistorySQL.firstSourceAfter, [.text(source)]) { $0.text(0) }
            }
        }
        return found
    }

    /// `filter` with its `sourceMatching` replaced by the exact sources it
    /// matches now: in one read the same fetches, but a list of sources lets
    /// SQLite read each source's fetches in time order from `fetch_by_source`.
    func resolvingSources(_ filter: HistoryFilter) throws -> HistoryFilter {
        guard let text = filter.sourceMatching else { return filter }
        var resolved = filter
        resolved.sourceMatching = nil
        let found = try sources(matching: text)
        resolved.sources = filter.sources.map { given in given.filter(found.contains) } ?? found
        return resolved
    }
}


// The SQL of `--source`.
extension HistorySQL {
    /// Whether any fetch has exactly the source bound.
    static let sourceExists = "SELECT 1 FROM fetch WHERE source = ? LIMIT 1"

    /// The first source from (or after) the one bound, in `fetch_by_source`'s
    /// order: one seek each, however many fetches a source has.
    static let firstSourceFrom = "SELECT source FROM fetch WHERE source >= ? ORDER BY source LIMIT 1"
    static let firstSourceAfter = "SELECT source FROM fetch WHERE source > ? ORDER BY source LIMIT 1"
}
