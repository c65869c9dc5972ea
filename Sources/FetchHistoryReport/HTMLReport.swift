import FetchHistoryModel
import FoundationEssentials

/// The history as one self-contained HTML page: a summary, a timeline of
/// every session's fetches, a latency histogram, a table per source and the
/// failures with their errors. Everything is inline (style, pictures drawn
/// here as SVG, one small script for interaction), so the page opens from a
/// file with no request, and reads the same with scripts off but for the
/// details panel.
///
/// Fetches are added oldest first, as the history streams them. Up to
/// `detailLimit` fetches the page draws each one and lists it in a table; past
/// that, each lane is a strip of time slices coloured by the outcome most of
/// their fetches had, and the page says so: a million bars would neither fit
/// a screen nor open quickly.
///
/// ```swift
/// var report = HTMLReport(statistics: stats, newestStart: newest?.startedAt, generatedAt: .now, scope: "--since 1d")
/// try await history.forEachFetch(matching: filter) { report.add($0) }
/// let page = report.html(nonce: nonce)
/// ```
package struct HTMLReport {
    /// Past this many fetches, lanes are drawn as strips of slices and the fetch table is left out.
    package static let detailLimit = 2_000
    /// Past this many sessions, a lane is a host's; past this many hosts, the rest share one lane.
    static let laneLimit = 60
    /// Columns an aggregated lane is counted in; drawn, neighbours merge into slices of a few
    /// pixels (`Timeline.slices`), and quiet stretches fold as between bars.
    static let columns = 4_096
    /// Failures and timeouts listed; the rest are counted.
    static let failureLimit = 500

    let statistics: HistoryStatistics
    let generatedAt: Timestamp
    /// The filters the page is about, as typed (`--outcome failed --since 1d`), or empty for the whole history.
    let scope: String
    let detailed: Bool
    /// The time the timeline starts and ends; known from the first fetch and the newest one's start.
    private var span: (start: Timestamp, end: Timestamp)?
    private let newestStart: Timestamp?

    /// Lanes and sources in the order they first came, found by key; the
    /// one used last is tried first (a session's fetches mostly come in a row).
    private var lanes: [Lane] = []
    private var laneIndex: [UUID: Int] = [:]
    private var lastLane = 0
    private var sources: [SourceTally] = []
    private var sourceIndex: [String: Int] = [:]
    private var lastSource = 0
    private var hosts: Set<String> = []
    private var lastHost: String?
    private var failures: [Fetch] = []
    private var failureCount = 0
    private var fetches: [Fetch] = []
    private var lastEnd: Timestamp?

    /// - Parameters:
    ///   - statistics: what `stats` says of the same fetches: counts, success rate, percentiles, histogram.
    ///   - newestStart: when the newest of the fetches started, for an aggregated timeline's scale.
    package init(statistics: HistoryStatistics, newestStart: Timestamp?, generatedAt: Timestamp, scope: String) {
        self.statistics = statistics
        self.newestStart = newestStart
        self.generatedAt = generatedAt
        self.scope = scope
        detailed = statistics.total <= Self.detailLimit
    }

    struct SourceTally {
        let source: String
        var counts = StatusCounts()
        var durations: [Int64] = []
    }

    /// A session's fetches: each one, or counts per time column and status.
    struct Lane {
        let session: UUID
        let host: String
        var count = 0
        var bars: [Fetch] = []
        var columns: [Int: StatusCounts] = [:]
    }

    package mutating func add(_ fetch: Fetch) {
        if span == nil {
            let end = max(newestStart ?? fetch.startedAt, fetch.startedAt)
            span = (fetch.startedAt, end)
        }
        let end = fetch.endedAt ?? fetch.startedAt
        if lastEnd.map({ end > $0 }) ?? true { lastEnd = end }

        let lane = index(ofLane: fetch)
        lanes[lane].count += 1
        if detailed {
            lanes[lane].bars.append(fetch)
            fetches.append(fetch)
        } else {
            lanes[lane].columns[column(of: fetch.startedAt), default: StatusCounts()][fetch.status] += 1
        }

        let source = index(ofSource: fetch.source)
        sources[source].counts[fetch.status] += 1
        if case .succeeded = fetch.outcome, let milliseconds = fetch.durationMilliseconds {
            sources[source].durations.append(milliseconds)
        }
        if fetch.host != lastHost {
            hosts.insert(fetch.host)
            lastHost = fetch.host
        }

        switch fetch.status {
        case .failed, .timedOut:
            failureCount += 1
            if failures.count < Self.failureLimit { failures.append(fetch) }
        default: break
        }
    }

    private mutating func index(ofLane fetch: Fetch) -> Int {
        if lastLane < lanes.count, lanes[lastLane].session == fetch.sessionID { return lastLane }
        let index = laneIndex[fetch.sessionID] ?? {
            lanes.append(Lane(session: fetch.sessionID, host: fetch.host))
            laneIndex[fetch.sessionID] = lanes.count - 1
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

    // MARK: The page

    package func html(nonce: String) -> String {
        var page = HTMLPage(nonce: nonce)
        page.heading(statistics.total, scope: scope, generatedAt: generatedAt)
        guard statistics.total > 0, span != nil else {
            page.paragraph(scope.isEmpty ? "No fetches recorded yet." : "No fetches match the filters (\(HTMLText.escaped(scope))).", id: "empty")
            return page.finish()
        }
        page.summary(statistics, first: span!.start, last: lastEnd ?? span!.end, hosts: hosts, sources: sources.map(\.source))
        page.timeline(timeline())
        page.latency(statistics)
        page.sources(sources)
        page.failures(failures, total: failureCount, scope: scope)
        if detailed { page.fetchTable(fetches) }
        return page.finish()
    }

    private func timeline() -> Timeline {
        let start = span!.start
        var drawn: [Timeline.Lane]
        var note: String?
        if lanes.count <= Self.laneLimit {
            drawn = lanes.map { lane in
                Timeline.Lane(session: lane.session.shortText, group: lane.host, count: lane.count, bars: lane.bars, columns: lane.columns)
            }
        } else {
            // Too many sessions for a lane each: a lane per host, sessions merged.
            var byHost: [String: Timeline.Lane] = [:]
            var hostOrder: [String] = []
            for lane in lanes {
                let host = hostOrder.count >= Self.laneLimit - 1 && byHost[lane.host] == nil ? "other hosts" : lane.host
                if byHost[host] == nil {
                    hostOrder.append(host)
                    byHost[host] = Timeline.Lane(session: nil, group: host, count: 0, bars: [], columns: [:], sessions: 0)
                }
                byHost[host]!.count += lane.count
                byHost[host]!.sessions += 1
                byHost[host]!.bars += lane.bars
                for (column, counts) in lane.columns {
                    byHost[host]!.columns[column, default: StatusCounts()].add(counts)
                }
            }
            drawn = hostOrder.map { byHost[$0]! }
            note = "\(ReportFormat.count(lanes.count)) sessions are more lanes than a screen can show: each lane is a host, its sessions merged."
        }
        if !detailed {
            let aggregated = "\(ReportFormat.count(statistics.total)) fetches are more bars than a screen can show: each lane is a strip of time slices, each coloured by the outcome most fetches started in it had, darker for more fetches."
            note = [aggregated, note].compactMap { $0 }.joined(separator: " ")
        }
        // The stretches of activity the scale folds between: each fetch, drawn as a bar, or each
        // column a fetch of any lane was counted in, drawn in slices.
        let width = Self.columnMilliseconds(start: start, end: span!.end)
        let intervals: [(from: Int64, to: Int64)] = detailed
            ? fetches.map { ($0.startedAt.millisecondsSince1970, ($0.endedAt ?? $0.startedAt).millisecondsSince1970) }
            : Set(lanes.flatMap(\.columns.keys)).sorted().map {
                (start.millisecondsSince1970 + Int64($0) * width, start.millisecondsSince1970 + Int64($0 + 1) * width)
            }
        return Timeline(
            start: start, scale: TimeScale(intervals: intervals, left: Timeline.labelWidth, right: Timeline.right),
            lanes: drawn, columnMilliseconds: width, aggregated: !detailed, note: note
        )
    }
}

extension UUID {
    /// The 8-character id `list` shows.
    var shortText: String { String(uuidString.lowercased().prefix(8)) }
}
