import FoundationEssentials

/// Problems (`Problem`) counted from what a store read, and handed back as
/// `stats --by problem` gives them: most frequent first, each with its
/// share, its sources and hosts, when it was first and last seen, and an
/// example. Both stores and `StatisticsTally` count through it, so a file
/// and a server give the same groups.
///
/// A store reads the fetches that did not succeed grouped by what a
/// problem's key depends on (outcome, HTTP status, error), and by source
/// and host, and the other grouping's key when there is one: `add` takes
/// each such row, and the error text of a row is masked once however many
/// fetches it stands for. Sources and hosts are counted as sets, so a
/// problem spread over several rows counts each source once. Then the
/// store reads the fetches started at the moments the groups were last
/// seen (`lastSeenTimes`) and offers each (`offerExample`): the example is
/// the newest, of several in one millisecond the greatest id.
///
/// ```swift
/// var tally = ProblemTally(groupings: [.problem])
/// tally.add(.init(status: .failed, httpStatus: 503, error: "HTTP 503", source: "random", host: "ci-1", count: 2, first: 1, last: 9))
/// tally.offerExample(.init(status: .failed, httpStatus: 503, error: "HTTP 503"), startedAt: 9, id: id)
/// tally.groups(within: [])   // [HTTP 503: 2 failed, share 1.0, 1 source, 1 host, example id]
/// ```
package struct ProblemTally {
    /// Where `problem` stands among the groupings.
    package enum Layout: Hashable, Sendable {
        /// `--by problem`.
        case alone
        /// `--by problem,X`: each problem's fetches per X.
        case problemThen(StatisticsGrouping)
        /// `--by X,problem`: each X's problems.
        case problemWithin(StatisticsGrouping)
    }

    /// What a fetch's problem and place depend on.
    package struct Parts: Hashable, Sendable {
        /// The other grouping's key, as the store reads it (nil with `problem` alone).
        package var otherKey: String?
        package var status: FetchStatus
        package var httpStatus: Int?
        package var error: String?

        package init(otherKey: String? = nil, status: FetchStatus, httpStatus: Int?, error: String?) {
            self.otherKey = otherKey
            self.status = status
            self.httpStatus = httpStatus
            self.error = error
        }
    }

    /// `count` fetches alike in `parts`, from one source and host, started
    /// from `first` to `last` (milliseconds since 1970).
    package struct Row: Sendable {
        package var parts: Parts
        package var source: String
        package var host: String
        package var count: Int
        package var first: Int64
        package var last: Int64

        package init(_ parts: Parts, source: String, host: String, count: Int, first: Int64, last: Int64) {
            self.parts = parts
            self.source = source
            self.host = host
            self.count = count
            self.first = first
            self.last = last
        }
    }

    package let layout: Layout
    private var keys: [Parts: String?] = [:]
    private var cells: [Pair: Cell] = [:]

    /// One problem within one key of the other grouping ("" with none).
    private struct Pair: Hashable {
        var problem: String
        var other: String
    }

    private struct Cell {
        var counts: [FetchStatus: Int] = [:]
        var sources: Set<String> = []
        var hosts: Set<String> = []
        var first = Int64.max
        var last = Int64.min
        var example: (startedAt: Int64, id: String)?

        var total: Int { counts.values.reduce(0, +) }

        mutating func merge(_ other: Cell) {
            counts.merge(other.counts, uniquingKeysWith: +)
            sources.formUnion(other.sources)
            hosts.formUnion(other.hosts)
            first = min(first, other.first)
            last = max(last, other.last)
            if let candidate = other.example { offer(candidate) }
        }

        mutating func offer(_ candidate: (startedAt: Int64, id: String)) {
            if let kept = example, (kept.startedAt, kept.id) >= (candidate.startedAt, candidate.id) { return }
            example = candidate
        }
    }

    /// `groupings` is one or two groupings, `problem` among them.
    package init(groupings: [StatisticsGrouping]) {
        precondition(groupings.contains(.problem) && (1...2).contains(groupings.count), "ProblemTally counts problems alone or with one other grouping")
        layout = switch (groupings.first!, groupings.last!, groupings.count) {
        case (_, _, 1): .alone
        case (.problem, let other, _): .problemThen(other)
        case (let other, _, _): .problemWithin(other)
        }
    }

    /// The grouping beside `problem`, if any.
    package var other: StatisticsGrouping? {
        switch layout {
        case .alone: nil
        case .problemThen(let other), .problemWithin(let other): other
        }
    }

    /// Counts `row`; a row with no problem (succeeded, running) counts nothing.
    package mutating func add(_ row: Row) {
        guard let pair = pair(row.parts) else { return }
        var cell = Cell()
        cell.counts[row.parts.status] = row.count
        cell.sources = [row.source]
        cell.hosts = [row.host]
        cell.first = row.first
        cell.last = row.last
        cells[pair, default: Cell()].merge(cell)
    }

    /// The moments at which a group was last seen, in ascending order: the
    /// fetches started then hold every group's example.
    package var lastSeenTimes: [Int64] {
        Set(cells.values.map(\.last)).sorted()
    }

    /// A fetch that may be its group's example: the newest is kept (of
    /// several in one millisecond, the greatest id).
    package mutating func offerExample(_ parts: Parts, startedAt: Int64, id: UUID) {
        guard let pair = pair(parts), cells[pair] != nil else { return }
        cells[pair]!.offer((startedAt, id.lowercased))
    }

    private mutating func pair(_ parts: Parts) -> Pair? {
        let problem: String?
        // Each distinct error text is masked once.
        if let known = keys[parts.withoutOther] {
            problem = known
        } else {
            problem = Problem.key(outcome: parts.status, error: parts.error, httpStatus: parts.httpStatus)
            keys[parts.withoutOther] = .some(problem)
        }
        guard let problem else { return nil }
        // An outcome's key is its status's, as `GroupTally` keys it.
        let other = other == .outcome ? parts.status.rawValue : parts.otherKey ?? ""
        return Pair(problem: problem, other: other)
    }

    /// The groups, most frequent problem first (ties by key). With another
    /// grouping: each problem holds its groups of that grouping in key order
    /// (`problemThen`), or each of `outer` (that grouping's groups, counted
    /// apart) holds its problems (`problemWithin`); `outer` is otherwise unused.
    package func groups(within outer: [StatisticsGroup]) -> [StatisticsGroup] {
        switch layout {
        case .alone:
            return problems(cells.map { ($0.key.problem, $0.value) })
        case .problemThen(let other):
            let byProblem = Dictionary(grouping: cells, by: { $0.key.problem })
            var whole: [(String, Cell)] = []
            var inner: [String: [(String, Cell)]] = [:]
            for (problem, pairs) in byProblem {
                var cell = Cell()
                for pair in pairs { cell.merge(pair.value) }
                whole.append((problem, cell))
                inner[problem] = pairs.map { ($0.key.other, $0.value) }
            }
            return problems(whole).map { group in
                var group = group
                let pairs = Dictionary(uniqueKeysWithValues: inner[group.key]!)
                group.subgroups = other.sorted(Array(pairs.keys)).map { key in
                    Self.group(key, pairs[key]!, of: group.total)
                }
                return group
            }
        case .problemWithin:
            let byOther = Dictionary(grouping: cells, by: { $0.key.other })
            return outer.map { group in
                var group = group
                group.subgroups = problems(byOther[group.key, default: []].map { ($0.key.problem, $0.value) })
                return group
            }
        }
    }

    /// `cells` as groups, most frequent first, each its share of them all.
    private func problems(_ cells: [(key: String, cell: Cell)]) -> [StatisticsGroup] {
        let total = cells.reduce(0) { $0 + $1.cell.total }
        return cells
            .sorted { a, b in a.cell.total != b.cell.total ? a.cell.total > b.cell.total : a.key.utf8.lexicographicallyPrecedes(b.key.utf8) }
            .map { Self.group($0.key, $0.cell, of: total) }
    }

    private static func group(_ key: String, _ cell: Cell, of total: Int) -> StatisticsGroup {
        // Every cell is offered its newest fetch within the read that counted it.
        let example = cell.example.flatMap { UUID(uuidString: $0.id) } ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        return StatisticsGroup(
            key: key, counts: cell.counts,
            problem: ProblemFigures(
                share: total == 0 ? 0 : Double(cell.total) / Double(total), sources: cell.sources.count, hosts: cell.hosts.count,
                firstSeen: Timestamp(millisecondsSince1970: cell.first), lastSeen: Timestamp(millisecondsSince1970: cell.last),
                example: example
            )
        )
    }
}

extension ProblemTally.Parts {
    /// What the problem's key depends on alone.
    fileprivate var withoutOther: Self {
        Self(status: status, httpStatus: httpStatus, error: error)
    }
}
