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
        var decoder = FetchDecoder()
        return try decoder.fetch(row)
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
        guard let id = row.withUTF8(column, { UUID(utf8: $0.span) }) else {
            throw SQLiteError(code: SQLITE_MISMATCH, message: "'\(row.text(column))' in the history is not a UUID")
        }
        return id
    }
}

/// Decodes rows of `FetchColumn`s, one query's worth: the texts a history
/// repeats row after row (sources, hosts, outcomes, how a fetch ended) are
/// decoded once and reused when the same bytes come again, where making and
/// checking a String a row was a fifth of an export's cost.
struct FetchDecoder {
    private var sources = RepeatedTexts { $0 }
    private var hosts = RepeatedTexts { $0 }
    private var outcomes = RepeatedTexts { FetchStatus(rawValue: $0) }
    private var cancelReasons = RepeatedTexts { CancelReason(rawValue: $0) }
    private var endedBy = RepeatedTexts { $0 }
    private var integers = RepeatedIntegers()

    mutating func fetch(_ row: Row) throws -> Fetch {
        typealias Column = FetchColumn
        let status: FetchStatus = switch row.withOptionalUTF8(Column.outcome, { outcomes.value($0) }) {
        case nil: row.optionalInt64(Column.isAlive) == 0 ? .interrupted : .running
        case let stored?: stored ?? .failed
        }
        let outcome: FetchOutcome? = switch status {
        case .running: nil
        case .succeeded: .succeeded(row.optionalFetchValue(Column.value) { integers.value($0) } ?? FetchValue(validJSON: "null"))
        case .failed: .failed(row.optionalText(Column.error) ?? "")
        case .cancelled: .cancelled(row.withUTF8(Column.cancelReason) { cancelReasons.value($0) } ?? .user)
        case .timedOut: .timedOut
        case .interrupted: .interrupted
        }
        return Fetch(
            id: try HistoryRow.uuid(row, Column.id), sessionID: try HistoryRow.uuid(row, Column.sessionID),
            source: row.withUTF8(Column.source) { sources.value($0) },
            startedAt: Timestamp(millisecondsSince1970: row.int64(Column.startedAt)),
            endedAt: row.optionalInt64(Column.endedAt).map(Timestamp.init(millisecondsSince1970:)),
            durationMilliseconds: row.optionalInt64(Column.durationMs), outcome: outcome,
            response: row.optionalInt64(Column.httpStatus).map {
                SourceResponse(status: Int($0), bytes: Int(row.optionalInt64(Column.responseBytes) ?? 0))
            },
            script: script(row), host: row.withUTF8(Column.host) { hosts.value($0) }
        )
    }

    /// The script of a row of `FetchColumn`s, if the fetch was recorded with one.
    private mutating func script(_ row: Row) -> FetchScript? {
        typealias Column = FetchColumn
        guard let tappedAt = row.optionalInt64(Column.tappedAt) else { return nil }
        var end: FetchScript.End?
        if let name = row.withOptionalUTF8(Column.endedBy, { endedBy.value($0) }),
           let at = row.optionalInt64(Column.endedByAt),
           let cause = FetchEnd.Cause(
               name: name,
               value: row.optionalFetchValue(Column.answerValue) { integers.value($0) }, error: row.optionalText(Column.answerError)
           ) {
            end = FetchScript.End(cause: cause, at: Timestamp(millisecondsSince1970: at))
        }
        return FetchScript(
            tappedAt: Timestamp(millisecondsSince1970: tappedAt), timeoutMilliseconds: row.optionalInt64(Column.timeoutMs), end: end
        )
    }
}

/// A column's texts and what they decode to, for the few a column repeats:
/// bytes seen before get their value back after a byte comparison, without
/// a String being made and checked again. Keeps the first `capacity`
/// distinct texts; any others are decoded every time.
struct RepeatedTexts<Value> {
    private var seen: [(text: [UInt8], value: Value)] = []
    private let decode: (String) -> Value
    private static var capacity: Int { 16 }

    init(_ decode: @escaping (String) -> Value) {
        self.decode = decode
    }

    mutating func value(_ text: UnsafeBufferPointer<UInt8>) -> Value {
        for entry in seen where Self.same(entry.text, text) {
            return entry.value
        }
        let value = decode(String(decoding: text, as: UTF8.self))
        if seen.count < Self.capacity { seen.append((Array(text), value)) }
        return value
    }

    /// Whether `a` and `b` hold the same bytes. (`elementsEqual`, through
    /// two generic iterators, cost ten times this loop.)
    private static func same(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for index in a.indices where a[index] != b[index] { return false }
        return true
    }
}

/// The values of the integers a column repeats (fetched numbers), made
/// once: formatting an Int as text cost more than the rest of its column.
/// Direct-mapped, by the integer's low bits: a dictionary's hashing cost
/// more than the formatting it saved.
struct RepeatedIntegers {
    private var slots = [(integer: Int64, value: FetchValue)?](repeating: nil, count: 256)

    mutating func value(_ integer: Int64) -> FetchValue {
        let slot = Int(truncatingIfNeeded: integer) & (slots.count - 1)
        if let seen = slots[slot], seen.integer == integer { return seen.value }
        let value = FetchValue(Int(integer))
        slots[slot] = (integer, value)
        return value
    }
}
