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

/// The columns a fetch is read from, in the order every SELECT of fetches
/// lists them (`FetchColumn.selectList`).
enum FetchColumn: Int32, SelectedColumn {
    case id, sessionID, source, startedAt, endedAt, durationMs, outcome, cancelReason, value, error, isAlive
    case httpStatus, responseBytes
    // The script, if the fetch was recorded with one.
    case tappedAt, timeoutMs, endedBy, endedByAt, answerValue, answerError
    case host

    var expression: String {
        switch self {
        case .id: "id"
        case .sessionID: "session_id"
        case .source: "source"
        case .startedAt: "started_at"
        case .endedAt: "ended_at"
        case .durationMs: "duration_ms"
        case .outcome: "outcome"
        case .cancelReason: "cancel_reason"
        case .value: "value"
        case .error: "error"
        case .isAlive: HistorySQL.isAlive
        case .httpStatus: "http_status"
        case .responseBytes: "response_bytes"
        case .tappedAt: "tapped_at"
        case .timeoutMs: "timeout_ms"
        case .endedBy: "ended_by"
        case .endedByAt: "ended_by_at"
        case .answerValue: "answer_value"
        case .answerError: "answer_error"
        case .host: "host"
        }
    }
}

/// The columns a session is read from, in the order every SELECT of
/// sessions lists them (`SessionColumn.selectList`).
enum SessionColumn: Int32, SelectedColumn {
    case id, startedAt, source, host, processID, bootID, processStarted

    var expression: String {
        switch self {
        case .id: "id"
        case .startedAt: "started_at"
        case .source: "source"
        case .host: "host"
        case .processID: "process_id"
        case .bootID: "boot_id"
        case .processStarted: "process_started"
        }
    }
}

extension HistorySQL {
    /// 1 or 0 for a running fetch (is its recorder alive?), NULL for an
    /// ended one. Only evaluated for running rows, which are few.
    static let isAlive = """
        CASE WHEN outcome IS NULL THEN (SELECT fetch_history_process_alive(host, boot_id, process_id, process_started) \
        FROM session WHERE session.id = fetch.session_id) END
        """

    static let fetchColumns = FetchColumn.selectList
    static let sessionColumns = SessionColumn.selectList
}

/// Rows of the history's tables decoded into values, column by column name.
enum HistoryRow {
    static func status(outcome: String?, isAlive: Int64?) -> FetchStatus {
        guard let outcome else { return isAlive == 0 ? .interrupted : .running }
        return FetchStatus(rawValue: outcome) ?? .failed
    }

    /// A row of `FetchColumn`s.
    static func fetch(_ row: Row) throws -> Fetch {
        typealias Column = FetchColumn
        let outcome: FetchOutcome? = switch status(outcome: row.optionalText(Column.outcome), isAlive: row.optionalInt64(Column.isAlive)) {
        case .running: nil
        case .succeeded: .succeeded(row.optionalFetchValue(Column.value) ?? FetchValue(validJSON: "null"))
        case .failed: .failed(row.optionalText(Column.error) ?? "")
        case .cancelled: .cancelled(CancelReason(rawValue: row.text(Column.cancelReason)) ?? .user)
        case .timedOut: .timedOut
        case .interrupted: .interrupted
        }
        return Fetch(
            id: try uuid(row, Column.id), sessionID: try uuid(row, Column.sessionID), source: row.text(Column.source),
            startedAt: Timestamp(millisecondsSince1970: row.int64(Column.startedAt)),
            endedAt: row.optionalInt64(Column.endedAt).map(Timestamp.init(millisecondsSince1970:)),
            durationMilliseconds: row.optionalInt64(Column.durationMs), outcome: outcome,
            response: row.optionalInt64(Column.httpStatus).map {
                SourceResponse(status: Int($0), bytes: Int(row.optionalInt64(Column.responseBytes) ?? 0))
            },
            script: script(row), host: row.text(Column.host)
        )
    }

    /// The script of a row of `FetchColumn`s, if the fetch was recorded with one.
    static func script(_ row: Row) -> FetchScript? {
        typealias Column = FetchColumn
        guard let tappedAt = row.optionalInt64(Column.tappedAt) else { return nil }
        var end: FetchScript.End?
        if let name = row.optionalText(Column.endedBy), let at = row.optionalInt64(Column.endedByAt),
           let cause = FetchEnd.Cause(
               name: name, value: row.optionalFetchValue(Column.answerValue), error: row.optionalText(Column.answerError)
           ) {
            end = FetchScript.End(cause: cause, at: Timestamp(millisecondsSince1970: at))
        }
        return FetchScript(
            tappedAt: Timestamp(millisecondsSince1970: tappedAt), timeoutMilliseconds: row.optionalInt64(Column.timeoutMs), end: end
        )
    }

    /// A row of `SessionColumn`s.
    static func session(_ row: Row) throws -> Session {
        typealias Column = SessionColumn
        return Session(
            id: try uuid(row, Column.id), startedAt: Timestamp(millisecondsSince1970: row.int64(Column.startedAt)),
            source: row.text(Column.source),
            process: ProcessIdentity(
                host: row.text(Column.host), processID: Int32(truncatingIfNeeded: row.int64(Column.processID)),
                bootID: row.optionalText(Column.bootID), startTicks: row.optionalInt64(Column.processStarted)
            )
        )
    }

    static func uuid(_ row: Row, _ column: some SelectedColumn) throws -> UUID {
        guard let id = row.withUTF8(column, UUID.init(utf8:)) else {
            throw SQLiteError(code: SQLITE_MISMATCH, message: "'\(row.text(column))' in the history is not a UUID")
        }
        return id
    }
}
