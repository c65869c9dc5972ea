import FetchHistoryModel
import FoundationEssentials

/// One problem as the report saw it: how many fetches had it, on which
/// sources and hosts, when, and the latest of its failures to list.
struct ProblemTally {
    /// `Problem`'s key; for the tally of every problem past `ProblemTallies.limit`, a sentence.
    let key: String
    /// Whether this is the tally of the problems past the limit, together.
    let isOthers: Bool
    var counts = StatusCounts()
    /// Its fetches by source and by host (indexes into the report's sources and hosts).
    var sources: [Int: Int] = [:]
    var hosts: [Int: Int] = [:]
    var first: Fetch
    var last: Fetch
    /// The latest of its failures, a ring: once full, the oldest is overwritten at `oldestFailure`.
    private var failureRing: [Fetch] = []
    private var oldestFailure = 0
    /// Its fetches per step of the report's time span, for the sparkline.
    var steps: [Int]

    init(key: String, isOthers: Bool, first: Fetch, steps: Int) {
        self.key = key
        self.isOthers = isOthers
        self.first = first
        last = first
        self.steps = Array(repeating: 0, count: steps)
    }

    var total: Int { counts.total }

    /// The latest of its fetches that failed or timed out, oldest first, at most `ProblemTallies.listed`.
    var latestFailures: [Fetch] { Array(failureRing[oldestFailure...] + failureRing[..<oldestFailure]) }

    /// The `limit` sources or hosts it hit most, most first (ties: the one that came first), and
    /// how many others.
    static func top(_ counts: [Int: Int], _ limit: Int) -> (top: [(index: Int, count: Int)], others: Int) {
        let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        return (sorted.prefix(limit).map { ($0.key, $0.value) }, max(0, sorted.count - limit))
    }

    mutating func addFailure(_ fetch: Fetch) {
        guard failureRing.count == ProblemTallies.listed else { return failureRing.append(fetch) }
        failureRing[oldestFailure] = fetch
        oldestFailure = (oldestFailure + 1) % ProblemTallies.listed
    }

    /// The outcome most of its fetches had (a key is nearly always one outcome's).
    var mainStatus: FetchStatus {
        HistoryStatistics.statusOrder.max { counts[$0] < counts[$1] } ?? .failed
    }
}

/// Every fetch that did not succeed, counted under its problem (`Problem`),
/// in one pass over the history and bounded memory: at most `limit` problems
/// are told apart (the rest are counted together), each keeping its first
/// and last fetch, the latest `listed` of its failures, and a count per
/// sparkline step.
struct ProblemTallies {
    /// Problems told apart; past this, fetches of a new problem are counted together.
    static let limit = 1_000
    /// Failures kept per problem for the failures list.
    static let listed = 10
    /// Steps of a sparkline over the report's time span.
    static let steps = 40

    private(set) var tallies: [ProblemTally] = []
    private var index: [String: Int] = [:]
    private var last = 0
    private var othersIndex: Int?
    /// A failure's key by its error and HTTP status: masking an error is the
    /// costly part, and most errors come again word for word. Emptied when full.
    private var failureKeys: [FailureCause: String] = [:]
    private static let failureKeyLimit = 4_096

    private struct FailureCause: Hashable {
        var error: String?
        var httpStatus: Int?
    }

    /// Counts `fetch` under its problem, and returns the problem's index in `tallies`; nil when
    /// it has none (it succeeded or is still running).
    /// - Parameters:
    ///   - step: the sparkline step its start falls in; only asked of a fetch with a problem.
    mutating func add(_ fetch: Fetch, source: Int, host: Int, step: @autoclosure () -> Int) -> Int? {
        let status = fetch.status
        let key: String
        switch status {
        case .succeeded, .running:
            return nil
        case .failed:
            let cause = FailureCause(error: fetch.errorMessage, httpStatus: fetch.response?.status)
            if let known = failureKeys[cause] {
                key = known
            } else {
                key = Problem.key(outcome: status, error: cause.error, httpStatus: cause.httpStatus) ?? ""
                if failureKeys.count >= Self.failureKeyLimit { failureKeys.removeAll(keepingCapacity: true) }
                failureKeys[cause] = key
            }
        default:
            key = Problem.key(outcome: status, error: nil, httpStatus: nil) ?? ""
        }
        let problem = index(of: key, first: fetch)
        tallies[problem].counts[status] += 1
        tallies[problem].sources[source, default: 0] += 1
        tallies[problem].hosts[host, default: 0] += 1
        tallies[problem].last = fetch
        tallies[problem].steps[step()] += 1
        if status == .failed || status == .timedOut { tallies[problem].addFailure(fetch) }
        return problem
    }

    private mutating func index(of key: String, first fetch: Fetch) -> Int {
        if last < tallies.count, tallies[last].key == key { return last }
        if let found = index[key] {
            last = found
            return found
        }
        if tallies.count >= Self.limit {
            if let othersIndex { return othersIndex }
            let others = "Other problems (past the first \(ReportFormat.count(Self.limit)), together)"
            tallies.append(ProblemTally(key: others, isOthers: true, first: fetch, steps: Self.steps))
            othersIndex = tallies.count - 1
            return tallies.count - 1
        }
        tallies.append(ProblemTally(key: key, isOthers: false, first: fetch, steps: Self.steps))
        index[key] = tallies.count - 1
        last = tallies.count - 1
        return last
    }

    /// The problems' indexes, most fetches first; ties by first seen, then key.
    var ranked: [Int] {
        tallies.indices.sorted { a, b in
            let (x, y) = (tallies[a], tallies[b])
            if x.total != y.total { return x.total > y.total }
            if x.first.startedAt != y.first.startedAt { return x.first.startedAt < y.first.startedAt }
            return x.key < y.key
        }
    }
}
