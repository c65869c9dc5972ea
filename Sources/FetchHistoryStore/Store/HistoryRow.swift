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

/// Fetches are selected in `StoredFetch.Column`'s order, by name, then
/// `isAlive` (`HistorySQL.fetchColumns`).
extension StoredFetch.Column: SelectedColumn {
    package var expression: String { name }
}

extension StoredSessionColumn: SelectedColumn {
    package var expression: String { name }
}

extension HistorySQL {
    /// 1 or 0 for a running fetch (is its recorder alive?), NULL for an
    /// ended one. Only evaluated for running rows, which are few.
    static let isAlive = """
        CASE WHEN outcome IS NULL THEN (SELECT fetch_history_process_alive(host, boot_id, process_id, process_started) \
        FROM session WHERE session.id = fetch.session_id) END
        """

    /// A fetch's stored columns, then `isAlive`: what `HistoryRow.fetch` reads.
    static let fetchColumns = StoredFetch.Column.selectList + ", " + isAlive
    static let sessionColumns = StoredSessionColumn.selectList

    /// Where `isAlive` is in a row of `fetchColumns`; a column a query lists
    /// after them comes at `afterFetchColumns`.
    static let isAliveIndex = Int32(StoredFetch.Column.allCases.count)
    static let afterFetchColumns = isAliveIndex + 1
}

/// Rows of the history's tables decoded into values, column by column name.
enum HistoryRow {
    /// A fetch's status from its `outcome` and `isAlive` cells (counts read
    /// them without the rest of the row).
    static func status(outcome: String?, isAlive: Int64?) -> FetchStatus {
        guard let outcome else { return isAlive == 0 ? .interrupted : .running }
        return FetchStatus(rawValue: outcome) ?? .failed
    }

    /// A row of `HistorySQL.fetchColumns`.
    static func fetch(_ row: Row) throws -> Fetch {
        var decoder = FetchDecoder(remembering: false)
        return try decoder.fetch(row)
    }

    /// A row of `StoredSessionColumn`s.
    static func session(_ row: Row) throws -> Session {
        typealias Column = StoredSessionColumn
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
        try uuid(row, column.rawValue)
    }

    static func uuid(_ row: Row, _ column: Int32) throws -> UUID {
        guard let id = row.withUTF8(column, { UUID(utf8: $0.span) }) else {
            throw SQLiteError(code: SQLITE_MISMATCH, message: "'\(row.text(column))' in the history is not a UUID")
        }
        return id
    }
}

/// Decodes rows of `HistorySQL.fetchColumns`, one query's worth, into
/// `StoredFetch`es: the texts a history repeats row after row (sources,
/// hosts, outcomes, how a fetch ended) are decoded once and reused when the
/// same bytes come again, where making and checking a String a row was a
/// fifth of an export's cost.
struct FetchDecoder {
    private var sources: RepeatedTexts<String>
    private var hosts: RepeatedTexts<String>
    private var outcomes: RepeatedTexts<FetchStatus>
    private var cancelReasons: RepeatedTexts<CancelReason?>
    private var endedBy: RepeatedTexts<String>
    private var integers: RepeatedIntegers

    /// A decoder for a query's rows; `remembering: false` for a query of one
    /// row, which has nothing to reuse: making and freeing the tables cost
    /// more than decoding it (a fifteenth of each `fetch` of the CLI, which
    /// reads back every fetch it records; callgrind).
    init(remembering: Bool = true) {
        sources = RepeatedTexts(remembering: remembering) { $0 }
        hosts = RepeatedTexts(remembering: remembering) { $0 }
        outcomes = RepeatedTexts(remembering: remembering) { FetchStatus(rawValue: $0) ?? .failed }
        cancelReasons = RepeatedTexts(remembering: remembering) { CancelReason(rawValue: $0) }
        endedBy = RepeatedTexts(remembering: remembering) { $0 }
        integers = RepeatedIntegers(remembering: remembering)
    }

    /// Each column's number, read once a query. Cells are read by number:
    /// through `SelectedColumn`'s generic accessors, or `Column.rawValue`
    /// (a call into another module) for every cell, reading a million rows
    /// took a third longer (measured with `export` and perf).
    private let at = ColumnNumbers()

    private struct ColumnNumbers {
        let id = StoredFetch.Column.id.rawValue
        let sessionID = StoredFetch.Column.sessionID.rawValue
        let source = StoredFetch.Column.source.rawValue
        let startedAt = StoredFetch.Column.startedAt.rawValue
        let host = StoredFetch.Column.host.rawValue
        let endedAt = StoredFetch.Column.endedAt.rawValue
        let durationMs = StoredFetch.Column.durationMs.rawValue
        let outcome = StoredFetch.Column.outcome.rawValue
        let cancelReason = StoredFetch.Column.cancelReason.rawValue
        let value = StoredFetch.Column.value.rawValue
        let error = StoredFetch.Column.error.rawValue
        let httpStatus = StoredFetch.Column.httpStatus.rawValue
        let responseBytes = StoredFetch.Column.responseBytes.rawValue
        let responseBody = StoredFetch.Column.responseBody.rawValue
        let responseContentType = StoredFetch.Column.responseContentType.rawValue
        let responseBodyTruncated = StoredFetch.Column.responseBodyTruncated.rawValue
        let tappedAt = StoredFetch.Column.tappedAt.rawValue
        let timeoutMs = StoredFetch.Column.timeoutMs.rawValue
        let endedBy = StoredFetch.Column.endedBy.rawValue
        let endedByAt = StoredFetch.Column.endedByAt.rawValue
        let answerValue = StoredFetch.Column.answerValue.rawValue
        let answerError = StoredFetch.Column.answerError.rawValue
    }

    /// The fetch a row holds, by `StoredFetch`'s rules, each cell read
    /// straight into it: through a `StoredFetch` and its copy into the
    /// fetch, reading a million rows took a fifth longer (perf).
    mutating func fetch(_ row: Row) throws -> Fetch {
        let status = row.withOptionalUTF8(at.outcome) { outcomes.value($0) }
        // Only the cells the outcome gives a meaning to: each read is a call
        // into SQLite, two for a NULL.
        var value: FetchValue?, error: String?, cancelReason: CancelReason?, recorderAlive = true
        switch status {
        case nil: recorderAlive = row.optionalInt64(HistorySQL.isAliveIndex) != 0
        case .succeeded: value = row.optionalFetchValue(at.value) { integers.value($0) }
        case .failed: error = row.optionalText(at.error)
        case .cancelled: cancelReason = row.withOptionalUTF8(at.cancelReason) { cancelReasons.value($0) } ?? nil
        default: break
        }
        let outcome = StoredFetch.outcome(
            status, recorderAlive: recorderAlive, value: value, error: error, cancelReason: cancelReason
        )
        // Without a status there is no response, so its other cells are not
        // read: most rows stop at the one read.
        var response: SourceResponse?
        if let httpStatus = row.optionalInt64(at.httpStatus) {
            let body = row.optionalText(at.responseBody)
            response = StoredFetch.response(
                httpStatus: httpStatus, bytes: row.optionalInt64(at.responseBytes), body: body,
                contentType: body == nil ? nil : row.optionalText(at.responseContentType),
                isTruncated: body == nil ? nil : row.optionalInt64(at.responseBodyTruncated).map { $0 != 0 }
            )
        }
        var script: FetchScript?
        if let tappedAt = row.optionalInt64(at.tappedAt) {
            script = StoredFetch.script(
                tappedAt: tappedAt, timeoutMs: row.optionalInt64(at.timeoutMs),
                endedBy: row.withOptionalUTF8(at.endedBy) { endedBy.value($0) }, endedByAt: row.optionalInt64(at.endedByAt),
                answerValue: row.optionalFetchValue(at.answerValue) { integers.value($0) }, answerError: row.optionalText(at.answerError)
            )
        }
        return Fetch(
            id: try HistoryRow.uuid(row, at.id), sessionID: try HistoryRow.uuid(row, at.sessionID),
            source: row.withUTF8(at.source) { sources.value($0) },
            startedAt: Timestamp(millisecondsSince1970: row.int64(at.startedAt)),
            endedAt: row.optionalInt64(at.endedAt).map(Timestamp.init(millisecondsSince1970:)),
            durationMilliseconds: row.optionalInt64(at.durationMs), outcome: outcome, response: response, script: script,
            host: row.withUTF8(at.host) { hosts.value($0) }
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
    private let capacity: Int

    /// Keeps none when not `remembering`.
    init(remembering: Bool = true, _ decode: @escaping (String) -> Value) {
        self.decode = decode
        self.capacity = remembering ? 16 : 0
    }

    mutating func value(_ text: UnsafeBufferPointer<UInt8>) -> Value {
        for entry in seen where Self.same(entry.text, text) {
            return entry.value
        }
        let value = decode(String(decoding: text, as: UTF8.self))
        if seen.count < capacity { seen.append((Array(text), value)) }
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
    private var slots: [(integer: Int64, value: FetchValue)?]

    /// Keeps none when not `remembering`.
    init(remembering: Bool = true) {
        slots = remembering ? .init(repeating: nil, count: 256) : []
    }

    mutating func value(_ integer: Int64) -> FetchValue {
        guard !slots.isEmpty else { return FetchValue(Int(integer)) }
        let slot = Int(truncatingIfNeeded: integer) & (slots.count - 1)
        if let seen = slots[slot], seen.integer == integer { return seen.value }
        let value = FetchValue(Int(integer))
        slots[slot] = (integer, value)
        return value
    }
}
