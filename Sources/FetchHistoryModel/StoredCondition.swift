import FoundationEssentials

/// One condition a filter puts on the stored columns (`StoredFetch.Column`)
/// — what a filter means, said once for both stores. Each store only spells
/// it in its SQL (SQLite's `HistorySQL.conditions`, PostgreSQL's
/// `ServerQuery.appendConditions`), binding every value.
///
/// ```swift
/// HistoryFilter(source: "random", since: .now).storedConditions
/// // [.sourceIs("random"), .startedAtLeast(…)]
/// ```
package enum StoredCondition: Hashable, Sendable {
    /// `outcome` is one of `stored` (ended fetches), or it is NULL and the
    /// recorder is alive (`running`) or gone (`interrupted`). No status at
    /// all: no fetch matches.
    case outcome(stored: [String], running: Bool, interrupted: Bool)
    case sourceIs(String)
    /// Any of these exact sources (none: no fetch matches).
    case sourceIn([String])
    case sourceMatches(SourceMatch)
    case sessionIs(UUID)
    /// `started_at` at or after these milliseconds.
    case startedAtLeast(Int64)
    /// `started_at` before these milliseconds.
    case startedBefore(Int64)
    case hostMatches(HostPattern)
    /// `http_status` within any of these ranges (none: no fetch matches).
    case httpStatusWithin([ClosedRange<Int>])
    /// `duration_ms` at least, or at most, these milliseconds.
    case durationAtLeast(Int64)
    case durationAtMost(Int64)
    /// A session holding a fetch of the `stored` outcomes, or one not ended
    /// whose recorder is alive (`running`) or gone (`interrupted`).
    case sessionHasFetch(stored: [String], running: Bool, interrupted: Bool)
    /// The fetch's problem (`Problem`) is one of these keys: what the keys
    /// ask of the stored columns, and an error's key compared where the
    /// store can compute it (`ProblemMatch`). After the indexed conditions.
    case problem(ProblemMatch)
    /// The error, source or value contains the text, ignoring case
    /// (`TextSearch`): last, so that the cheap, indexed conditions narrow
    /// the rows first.
    case contains(String)
}

extension HistoryFilter {
    /// The filter's conditions, in the order a store states them.
    package var storedConditions: [StoredCondition] {
        var conditions: [StoredCondition] = []
        if let statuses = acceptedStatuses {
            conditions.append(.outcome(
                stored: statuses.filter { $0 != .running }.map(\.rawValue),
                running: statuses.contains(.running), interrupted: statuses.contains(.interrupted)
            ))
        }
        if let source { conditions.append(.sourceIs(source)) }
        if let sources { conditions.append(.sourceIn(sources)) }
        if let sourceMatching { conditions.append(.sourceMatches(SourceMatch(sourceMatching))) }
        if let sessionID { conditions.append(.sessionIs(sessionID)) }
        if let since { conditions.append(.startedAtLeast(since.millisecondsSince1970)) }
        if let until { conditions.append(.startedBefore(until.millisecondsSince1970)) }
        if let host { conditions.append(.hostMatches(host)) }
        if let httpStatuses { conditions.append(.httpStatusWithin(httpStatuses.map(\.codes))) }
        let (least, most) = durationBoundsMilliseconds
        if let least { conditions.append(.durationAtLeast(least)) }
        if let most { conditions.append(.durationAtMost(most)) }
        if let problems { conditions.append(.problem(ProblemMatch(keys: problems))) }
        if let containing { conditions.append(.contains(containing)) }
        return conditions
    }
}

extension SessionFilter {
    /// The filter's conditions on the `session` table, whose `started_at`,
    /// `source` and `host` mean what the fetch table's do.
    package var storedConditions: [StoredCondition] {
        var conditions: [StoredCondition] = []
        if let since { conditions.append(.startedAtLeast(since.millisecondsSince1970)) }
        if let until { conditions.append(.startedBefore(until.millisecondsSince1970)) }
        if let sourceMatching { conditions.append(.sourceMatches(SourceMatch(sourceMatching))) }
        if let host { conditions.append(.hostMatches(host)) }
        if let outcomes {
            let statuses = FetchStatus.allCases.filter(outcomes.contains)
            conditions.append(.sessionHasFetch(
                stored: statuses.filter { $0 != .running }.map(\.rawValue),
                running: statuses.contains(.running), interrupted: statuses.contains(.interrupted)
            ))
        }
        return conditions
    }
}
