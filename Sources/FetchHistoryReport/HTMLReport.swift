import FetchHistoryModel
import FoundationEssentials

/// The history as one self-contained HTML page: a summary, the problems
/// (every fetch that did not succeed, grouped by what went wrong), a
/// timeline, a latency histogram, the slowest fetches, a table per source
/// (the worst first) and the failures grouped by problem. Everything is
/// inline (style, pictures drawn here as SVG, one small script for
/// interaction), so the page opens from a file with no request, and reads
/// the same with scripts off but for the details panel.
///
/// Fetches are added oldest first, as the history streams them, and each is
/// counted once as it passes: what the page keeps of them is bounded (the
/// problems' tallies, the slowest few, the latest failures of each problem,
/// the succeeded durations its percentiles come from) but for a count per
/// lane and time column. Up to `detailLimit` fetches the page draws each one
/// and lists it in a table; past that, each lane is a strip of time slices
/// coloured by the outcome most of their fetches had, and the page says so:
/// a million bars would neither fit a screen nor open quickly. The summary's
/// counts and percentiles are `stats`' own figures, counted from the same
/// pass rather than asked of the history again.
///
/// ```swift
/// var report = HTMLReport(newestStart: newest?.startedAt, generatedAt: .now, scope: "--since 1d")
/// try await history.forEachFetch(matching: filter) { report.add($0) }
/// let page = report.html(nonce: nonce)
/// ```
package struct HTMLReport {
    /// Past this many fetches, lanes are drawn as strips of slices and the fetch table is left out.
    package static let detailLimit = 2_000
    /// Past this many lanes, the rest share one (sessions: a lane per host instead).
    static let laneLimit = 60
    /// Columns an aggregated lane is counted in; drawn, neighbours merge into slices of a few
    /// pixels (`Timeline.slices`), and quiet stretches fold as between bars.
    static let columns = 4_096

    /// What a lane of the timeline holds (`report --lanes`).
    package enum Lanes: String, CaseIterable, Sendable {
        /// A lane per session, grouped under its host; past `laneLimit` sessions, a lane per host.
        case session
        /// A lane per host, its sessions merged.
        case host
        /// A lane per source, so a failing source has its own.
        case source
    }

    let generatedAt: Timestamp
    /// The filters the page is about, as typed (`--outcome failed --since 1d`), or empty for the whole history.
    let scope: String
    /// The fetches added.
    package private(set) var total = 0
    /// Whether each fetch is drawn and listed: until there are more than `detailLimit`.
    private(set) var detailed = true
    let lanesBy: Lanes
    /// The time the timeline starts and ends; known from the first fetch and the newest one's start.
    private var span: (start: Timestamp, end: Timestamp)?
    private let newestStart: Timestamp?

    /// Lanes, sources and hosts in the order they first came, found by key;
    /// the one used last is tried first (a session's fetches mostly come in a row).
    private var lanes: [Lane] = []
    private var laneIndex: [LaneKey: Int] = [:]
    private var lastLane = 0
    private var sources: [SourceTally] = []
    private var sourceIndex: [String: Int] = [:]
    private var lastSource = 0
    private var hosts: [String] = []
    private var hostIndex: [String: Int] = [:]
    private var lastHost = 0
    private var problems = ProblemTallies()
    private var slowest = SlowestFetches()
    private var failureCount = 0
    /// While `detailed`: every fetch added, with the indexes of its problem and source.
    private var fetches: [Fetch] = []
    private var fetchIndexes: [(problem: Int?, source: Int)] = []
    private var lastEnd: Timestamp?

    /// - Parameters:
    ///   - newestStart: when the newest of the fetches started, for an aggregated timeline's scale.
    ///   - lanes: what a lane of the timeline holds.
    package init(newestStart: Timestamp?, generatedAt: Timestamp, scope: String, lanes: Lanes = .session) {
        self.newestStart = newestStart
        self.generatedAt = generatedAt
        self.scope = scope
        lanesBy = lanes
    }

    struct SourceTally {
        let source: String
        var counts = StatusCounts()
        var durations: [Int64] = []

        /// Failed and timed out of the fetches the source decided (`HistoryStatistics.decidedBySource`).
        var failureRate: Double? {
            let decided = counts[.succeeded] + counts[.failed] + counts[.timedOut]
            return decided == 0 ? nil : Double(counts[.failed] + counts[.timedOut]) / Double(decided)
        }
    }

    /// A session's lane, or a host's or a source's.
    enum LaneKey: Hashable {
        case session(UUID)
        case name(String)

        var name: String {
            switch self {
            case .session(let id): id.shortText
            case .name(let name): name
            }
        }
    }

    /// A lane's fetches: each one, or counts per time column.
    struct Lane {
        let key: LaneKey
        /// The host of its first fetch: what a session's lane is grouped under.
        let host: String
        var count = 0
        /// The sessions a host's or source's lane holds (a session's holds one).
        var sessions: Set<UUID> = []
        var lastSession: UUID?
        var bars: [Fetch] = []
        var columns = LaneColumns()
    }

    package mutating func add(_ fetch: Fetch) {
        total += 1
        let span = self.span ?? (fetch.startedAt, max(newestStart ?? fetch.startedAt, fetch.startedAt))
        self.span = span
        let end = fetch.endedAt ?? fetch.startedAt
        if lastEnd.map({ end > $0 }) ?? true { lastEnd = end }

        let status = fetch.status
        let source = index(ofSource: fetch.source)
        let host = index(ofHost: fetch.host)
        // The sparkline's step, worked out only for a fetch with a problem (most have none). The
        // closure captures the start, not the fetch: capturing it copied every fetch added.
        let started = fetch.startedAt.millisecondsSince1970
        let problem = problems.add(
            fetch, source: source, host: host,
            step: Self.step(of: started, from: span.start.millisecondsSince1970, to: span.end.millisecondsSince1970)
        )

        let lane = index(ofLane: fetch)
        lanes[lane].count += 1
        if lanesBy != .session, lanes[lane].lastSession != fetch.sessionID {
            lanes[lane].sessions.insert(fetch.sessionID)
            lanes[lane].lastSession = fetch.sessionID
        }
        if detailed, total > Self.detailLimit { countDrawnInColumns() }
        if detailed {
            lanes[lane].bars.append(fetch)
            fetches.append(fetch)
            fetchIndexes.append((problem, source))
        } else {
            lanes[lane].columns.add(status, problem: problem, source: source, in: column(of: fetch.startedAt))
        }

        sources[source].counts[status] += 1
        if case .succeeded = fetch.outcome, let milliseconds = fetch.durationMilliseconds {
            sources[source].durations.append(milliseconds)
        }
        slowest.add(fetch)
        if status == .failed || status == .timedOut { failureCount += 1 }
    }

    /// Past `detailLimit` fetches: the ones drawn one by one so far are
    /// counted in their lanes' columns instead, as every later one is.
    private mutating func countDrawnInColumns() {
        detailed = false
        for (fetch, indexes) in zip(fetches, fetchIndexes) {
            let lane = index(ofLane: fetch)
            lanes[lane].columns.add(fetch.status, problem: indexes.problem, source: indexes.source, in: column(of: fetch.startedAt))
        }
        for lane in lanes.indices { lanes[lane].bars = [] }
        fetches = []
        fetchIndexes = []
    }

    private mutating func index(ofLane fetch: Fetch) -> Int {
        let key: LaneKey = switch lanesBy {
        case .session: .session(fetch.sessionID)
        case .host: .name(fetch.host)
        case .source: .name(fetch.source)
        }
        if lastLane < lanes.count, lanes[lastLane].key == key { return lastLane }
        let index = laneIndex[key] ?? {
            lanes.append(Lane(key: key, host: fetch.host))
            laneIndex[key] = lanes.count - 1
            return lanes.count - 1
        }()
        lastLane = index
        return index
    }

    private mutating func index(ofSource source: String) -> Int {
        if lastSource < sources.count, sources[lastSource].source == source { return lastSource }
        let index = sourceIndex[source] ?? {
            sources.append(SourceTally(source: source))
            sourceIndex[source] = sources.count - 1
            return sources.count - 1
        }()
        lastSource = index
        return index
    }

    private mutating func index(ofHost host: String) -> Int {
        if lastHost < hosts.count, hosts[lastHost] == host { return lastHost }
        let index = hostIndex[host] ?? {
            hosts.append(host)
            hostIndex[host] = hosts.count - 1
            return hosts.count - 1
        }()
        lastHost = index
        return index
    }

    /// The aggregated timeline's column of a time.
    private func column(of time: Timestamp) -> Int {
        guard let span else { return 0 }
        let offset = time.millisecondsSince1970 - span.start.millisecondsSince1970
        return min(Self.columns - 1, max(0, Int(offset / Self.columnMilliseconds(start: span.start, end: span.end))))
    }

    /// How long one column lasts: the span in `columns` whole milliseconds, at least one.
    static func columnMilliseconds(start: Timestamp, end: Timestamp) -> Int64 {
        max(1, (end.millisecondsSince1970 - start.millisecondsSince1970) / Int64(columns) + 1)
    }

    /// Which of `ProblemTallies.steps` equal parts of `from`…`to` (ms) `time` falls in; in floating
    /// point, as an imported history's times can be far enough apart to overflow a product.
    static func step(of time: Int64, from: Int64, to: Int64) -> Int {
        let length = Double(to) - Double(from) + 1
        let step = Int((Double(time) - Double(from)) / length * Double(ProblemTallies.steps))
        return min(ProblemTallies.steps - 1, max(0, step))
    }

    // MARK: The page

    /// What `stats` says of the fetches added: counts, success rate, percentiles, histogram.
    package var statistics: HistoryStatistics {
        var counts = StatusCounts()
        for source in sources { counts.add(source.counts) }
        var durations = sources.flatMap(\.durations)
        return HistoryStatistics(counts: counts.dictionary, succeededDurations: &durations)
    }

    package func html(nonce: String) -> String {
        var page = HTMLPage(nonce: nonce)
        page.heading(total, scope: scope, generatedAt: generatedAt)
        guard total > 0, let span else {
            page.paragraph(scope.isEmpty ? "No fetches recorded yet." : "No fetches match the filters (\(HTMLText.escaped(scope))).", id: "empty")
            return page.finish()
        }
        let statistics = self.statistics
        page.summary(statistics, first: span.start, last: lastEnd ?? span.end, hosts: hosts, sources: sources.map(\.source))
        let ranked = problems.ranked
        let failures = FailureGroups(problems: problems, ranked: ranked)
        let references = FetchReferences(listed: failures.listed, detailed: detailed)
        page.problems(
            ProblemsSection(
                tallies: problems.tallies, ranked: ranked, listedGroups: failures.groupNumbers,
                sources: sources.map(\.source), hosts: hosts, start: span.start, end: span.end
            ),
            references: references
        )
        page.timeline(timeline(start: span.start, end: span.end))
        page.latency(statistics)
        page.slowest(slowest.fetches, references: references)
        page.sources(Self.ranked(sources))
        page.failures(failures, tallies: problems.tallies, total: failureCount, scope: scope)
        if detailed { page.fetchTable(fetches) }
        return page.finish()
    }

    /// Sources by failure rate, worst first (those the source decided nothing of last), then by
    /// fetches, most first, then by name.
    static func ranked(_ sources: [SourceTally]) -> [SourceTally] {
        sources.sorted { a, b in
            switch (a.failureRate, b.failureRate) {
            case let (x?, y?) where x != y: return x > y
            case (_?, nil): return true
            case (nil, _?): return false
            default: break
            }
            if a.counts.total != b.counts.total { return a.counts.total > b.counts.total }
            return a.source < b.source
        }
    }

    private func timeline(start: Timestamp, end: Timestamp) -> Timeline {
        var drawn: [Timeline.Lane]
        var note: String?
        switch lanesBy {
        case .session where lanes.count <= Self.laneLimit:
            drawn = lanes.map { lane in
                Timeline.Lane(kind: .session, name: lane.key.name, group: lane.host, count: lane.count, bars: lane.bars, columns: lane.columns.all)
            }
        case .session:
            // Too many sessions for a lane each: a lane per host, sessions merged.
            drawn = Self.merged(lanes, by: \.host, kind: .host, others: "other hosts")
            note = "\(ReportFormat.count(lanes.count)) sessions are more lanes than a screen can show: each lane is a host, its sessions merged."
        case .host:
            drawn = Self.merged(lanes, by: \.key.name, kind: .host, others: "other hosts")
        case .source:
            drawn = Self.merged(lanes, by: \.key.name, kind: .source, others: "other sources")
        }
        if !detailed {
            let aggregated = "\(ReportFormat.count(total)) fetches are more bars than a screen can show: each lane is a strip of time slices, each coloured by the outcome most fetches started in it had, darker for more fetches."
            note = [aggregated, note].compactMap { $0 }.joined(separator: " ")
        }
        // The stretches of activity the scale folds between: each fetch, drawn as a bar, or each
        // column a fetch of any lane was counted in, drawn in slices.
        let width = Self.columnMilliseconds(start: start, end: end)
        let intervals: [(from: Int64, to: Int64)] = detailed
            ? fetches.map { ($0.startedAt.millisecondsSince1970, ($0.endedAt ?? $0.startedAt).millisecondsSince1970) }
            : Set(lanes.flatMap(\.columns.all.keys)).sorted().map {
                (start.millisecondsSince1970 + Int64($0) * width, start.millisecondsSince1970 + Int64($0 + 1) * width)
            }
        return Timeline(
            start: start, scale: TimeScale(intervals: intervals, left: Timeline.labelWidth, right: Timeline.right),
            lanes: drawn, columnMilliseconds: width, aggregated: !detailed, note: note,
            problemKeys: problems.tallies.map(\.key), sourceNames: sources.map(\.source)
        )
    }

    /// Lanes merged by `name` (a session's host, or the lane's own name) in the order each name
    /// first came; past `laneLimit` names, the rest share one lane called `others`.
    private static func merged(_ lanes: [Lane], by name: (Lane) -> String, kind: Timeline.Lane.Kind, others: String) -> [Timeline.Lane] {
        var merged: [String: (lane: Timeline.Lane, sessions: Set<UUID>)] = [:]
        var order: [String] = []
        for lane in lanes {
            let own = name(lane)
            let name = order.count >= laneLimit - 1 && merged[own] == nil ? others : own
            if merged[name] == nil {
                order.append(name)
                merged[name] = (Timeline.Lane(kind: kind, name: name, group: nil, count: 0, bars: [], columns: [:], sessions: 0), [])
            }
            merged[name]!.lane.count += lane.count
            merged[name]!.lane.bars += lane.bars
            if case .session(let id) = lane.key { merged[name]!.sessions.insert(id) } else { merged[name]!.sessions.formUnion(lane.sessions) }
            for (column, tally) in lane.columns.all {
                merged[name]!.lane.columns[column, default: ColumnTally()].add(tally)
            }
        }
        return order.map { name in
            var lane = merged[name]!.lane
            lane.sessions = merged[name]!.sessions.count
            return lane
        }
    }
}

extension UUID {
    /// The 8-character id `list` shows.
    var shortText: String { String(uuidString.lowercased().prefix(8)) }
}
