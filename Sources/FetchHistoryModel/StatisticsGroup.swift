import FoundationEssentials

/// The fetches of one source, outcome, day, problem…: a row of `stats --by`.
public struct StatisticsGroup: Hashable, Sendable {
    /// The source, the status, `2026-11-22`, `2026-11-22 14:00`, `HTTP 503`…
    public var key: String
    /// Fetches per status; statuses with none are absent.
    public var counts: [FetchStatus: Int]
    /// Nearest-rank percentiles of the group's succeeded fetches; nil when
    /// it has none, or when the filter left succeeded fetches out.
    public var latency: HistoryStatistics.Latency?
    /// What a group of one problem's fetches also tells (a group of
    /// `problem`, or any group within one); nil for other groups.
    public var problem: ProblemFigures?
    /// The groups of the second grouping within this one (`stats --by
    /// source,problem`: this source's problems); empty with one grouping.
    public var subgroups: [StatisticsGroup]

    public init(
        key: String, counts: [FetchStatus: Int], latency: HistoryStatistics.Latency? = nil, problem: ProblemFigures? = nil,
        subgroups: [StatisticsGroup] = []
    ) {
        self.key = key
        self.counts = counts
        self.latency = latency
        self.problem = problem
        self.subgroups = subgroups
    }

    public var total: Int { counts.values.reduce(0, +) }

    /// As `HistoryStatistics.successRate`: how often the source answered.
    public var successRate: Double? { HistoryStatistics.successRate(counts) }

    /// The fetches of the group that did not succeed and have ended: those
    /// with a problem (failed, timed-out, cancelled, interrupted).
    public var problemCount: Int {
        total - counts[.succeeded, default: 0] - counts[.running, default: 0]
    }
}

/// What `stats --by problem` shows of a problem's fetches besides their
/// counts: how widely and how long it has happened, and one to look at.
public struct ProblemFigures: Hashable, Sendable {
    /// The group's part of the fetches with a problem in the group above
    /// it (at the top, of all those the filter matched), from 0 to 1.
    public var share: Double
    /// How many distinct sources and hosts its fetches came from.
    public var sources: Int
    public var hosts: Int
    /// When its first and its last fetch started.
    public var firstSeen: Timestamp
    public var lastSeen: Timestamp
    /// Its newest fetch (of several started in one millisecond, the
    /// greatest id): an example `show` takes.
    public var example: UUID

    public init(share: Double, sources: Int, hosts: Int, firstSeen: Timestamp, lastSeen: Timestamp, example: UUID) {
        self.share = share
        self.sources = sources
        self.hosts = hosts
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.example = example
    }
}
