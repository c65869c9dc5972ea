import FetchHistoryModel

/// Counts per index (of a problem, of a source) for the few that come up in
/// one column or slice of the timeline: a list searched from the end, since
/// a column rarely holds more than a handful and the one counted last is
/// mostly the next.
struct IndexCounts: Sendable {
    private(set) var entries: [(index: Int, count: Int)] = []

    mutating func add(_ index: Int, count: Int = 1) {
        if let last = entries.indices.last, entries[last].index == index {
            entries[last].count += count
        } else if let found = entries.firstIndex(where: { $0.index == index }) {
            entries[found].count += count
        } else {
            entries.append((index, count))
        }
    }

    mutating func add(_ other: IndexCounts) {
        for entry in other.entries { add(entry.index, count: entry.count) }
    }

    /// The `limit` counted most, most first (ties: the lower index, the one that came first), and
    /// how many others there are.
    func top(_ limit: Int) -> (top: [(index: Int, count: Int)], others: Int) {
        let sorted = entries.sorted { $0.count != $1.count ? $0.count > $1.count : $0.index < $1.index }
        return (Array(sorted.prefix(limit)), max(0, sorted.count - limit))
    }
}

/// What an aggregated lane counts in one column of time: its fetches by
/// outcome, by problem (those that did not succeed) and by source, for a
/// slice's details.
struct ColumnTally: Sendable {
    var counts = StatusCounts()
    var problems = IndexCounts()
    var sources = IndexCounts()

    /// Counts one fetch: its status, its problem if it has one, its source.
    mutating func add(_ status: FetchStatus, problem: Int?, source: Int) {
        counts[status] += 1
        if let problem { problems.add(problem) }
        sources.add(source)
    }

    mutating func add(_ other: ColumnTally) {
        counts.add(other.counts)
        problems.add(other.problems)
        sources.add(other.sources)
    }
}

/// An aggregated lane's tallies by column. Fetches come oldest first, so
/// the next one mostly falls in the column counted last: that one is kept
/// aside and hashed into the rest only when a fetch of another comes.
struct LaneColumns: Sendable {
    private var earlier: [Int: ColumnTally] = [:]
    /// The column counted last (-1 before the first) and its tally.
    private var latestColumn = -1
    private var latest = ColumnTally()

    mutating func add(_ status: FetchStatus, problem: Int?, source: Int, in column: Int) {
        if column != latestColumn {
            if latestColumn >= 0 { earlier[latestColumn, default: ColumnTally()].add(latest) }
            latestColumn = column
            latest = ColumnTally()
        }
        latest.add(status, problem: problem, source: source)
    }

    /// Every column counted in, and its tally.
    var all: [Int: ColumnTally] {
        guard latestColumn >= 0 else { return earlier }
        var all = earlier
        all[latestColumn, default: ColumnTally()].add(latest)
        return all
    }
}
