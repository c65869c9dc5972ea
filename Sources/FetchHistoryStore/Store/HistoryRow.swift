import CSQLite
import FetchHistoryModel
import FoundationEssentials

/// The outcome as the `fetch` table's columns hold it.
@_spi(Benchmarks)
public struct StoredOutcome {
    public var outcome: String
    public var cancelReason: String?
    public var value: FetchValue?
    public var error: String?

    public init(_ outcome: FetchOutcome) {
        self.outcome = outcome.status.rawValue
        switch outcome {
        case .succeeded(let value): self.value = value
        case .failed(let message): error = message
        case .cancelled(let reason): cancelReason = reason.rawValue
        case .timedOut, .interrupted: break
        }
    }
}

/// Rows of the history's tables decoded into values, by the column order of
/// `HistorySQL.fetchColumns` and `HistorySQL.sessionColumns`.
enum HistoryRow {
    static func status(outcome: String?, isAlive: Int64?) -> FetchStatus {
        guard let outcome else { return isAlive == 0 ? .interrupted : .running }
        return FetchStatus(rawValue: outcome) ?? .failed
    }

    static func fetch(_ row: Row) throws -> Fetch {
        let outcome: FetchOutcome? = switch status(outcome: row.optionalText(6), isAlive: row.optionalInt64(10)) {
        case .running: nil
        case .succeeded: .succeeded(row.optionalFetchValue(8) ?? FetchValue(validJSON: "null"))
        case .failed: .failed(row.optionalText(9) ?? "")
        case .cancelled: .cancelled(CancelReason(rawValue: row.text(7)) ?? .user)
        case .timedOut: .timedOut
        case .interrupted: .interrupted
        }
        return Fetch(
            id: try uuid(row, 0), sessionID: try uuid(row, 1), source: row.text(2),
            startedAt: Timestamp(millisecondsSince1970: row.int64(3)),
            endedAt: row.optionalInt64(4).map(Timestamp.init(millisecondsSince1970:)),
            durationMilliseconds: row.optionalInt64(5), outcome: outcome,
            response: row.optionalInt64(11).map { SourceResponse(status: Int($0), bytes: Int(row.optionalInt64(12) ?? 0)) },
            script: script(row)
        )
    }

    /// Columns 13…18: the script, if the fetch was recorded with one.
    static func script(_ row: Row) -> FetchScript? {
        guard let tappedAt = row.optionalInt64(13) else { return nil }
        var end: FetchScript.End?
        if let name = row.optionalText(15), let at = row.optionalInt64(16),
           let cause = FetchEnd.Cause(name: name, value: row.optionalFetchValue(17), error: row.optionalText(18)) {
            end = FetchScript.End(cause: cause, at: Timestamp(millisecondsSince1970: at))
        }
        return FetchScript(
            tappedAt: Timestamp(millisecondsSince1970: tappedAt), timeoutMilliseconds: row.optionalInt64(14), end: end
        )
    }

    static func session(_ row: Row) throws -> Session {
        Session(
            id: try uuid(row, 0), startedAt: Timestamp(millisecondsSince1970: row.int64(1)),
            source: row.text(2),
            process: ProcessIdentity(
                host: row.text(3), processID: Int32(truncatingIfNeeded: row.int64(4)),
                bootID: row.optionalText(5), startTicks: row.optionalInt64(6)
            )
        )
    }

    static func uuid(_ row: Row, _ column: Int32) throws -> UUID {
        guard let id = row.withUTF8(column, UUID.init(utf8:)) else {
            throw SQLiteError(code: SQLITE_MISMATCH, message: "'\(row.text(column))' in the history is not a UUID")
        }
        return id
    }
}
