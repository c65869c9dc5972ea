import FetchHistoryModel

/// Fetches counted per status without a dictionary: the report counts each
/// of a million fetches several times (its lane's slice, its source), and a
/// dictionary would hash the status every time.
struct StatusCounts: Sendable {
    private var succeeded = 0, failed = 0, cancelled = 0, timedOut = 0, interrupted = 0, running = 0

    subscript(status: FetchStatus) -> Int {
        get {
            switch status {
            case .succeeded: succeeded
            case .failed: failed
            case .cancelled: cancelled
            case .timedOut: timedOut
            case .interrupted: interrupted
            case .running: running
            }
        }
        set {
            switch status {
            case .succeeded: succeeded = newValue
            case .failed: failed = newValue
            case .cancelled: cancelled = newValue
            case .timedOut: timedOut = newValue
            case .interrupted: interrupted = newValue
            case .running: running = newValue
            }
        }
    }

    var total: Int { succeeded + failed + cancelled + timedOut + interrupted + running }

    /// The statuses counted at least once, as `HistoryStatistics` holds them.
    var dictionary: [FetchStatus: Int] {
        Dictionary(uniqueKeysWithValues: HistoryStatistics.statusOrder.compactMap { self[$0] > 0 ? ($0, self[$0]) : nil })
    }

    mutating func add(_ other: StatusCounts) {
        for status in HistoryStatistics.statusOrder { self[status] += other[status] }
    }
}
