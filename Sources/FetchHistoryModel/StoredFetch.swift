import FoundationEssentials

/// A fetch as both stores hold it — a row of the `fetch` table, whose
/// columns are the same in SQLite's schema and PostgreSQL's (`Migrations/`)
/// — decoded but not yet read for what it means. Each store only decodes
/// its row's cells into one; `fetch` is the one place a row becomes a
/// `Fetch`.
package struct StoredFetch {
    /// The columns, in the order every SELECT of fetches lists them: a store
    /// says how it selects each (SQLite's `expression`, PostgreSQL's) and
    /// reads its cells by these numbers.
    package enum Column: Int32, CaseIterable, Sendable {
        case id, sessionID, source, startedAt, endedAt, durationMs, outcome, cancelReason, value, error
        case httpStatus, responseBytes
        // The script, if the fetch was recorded with one.
        case tappedAt, timeoutMs, endedBy, endedByAt, answerValue, answerError
        case host
        // The start of a failed answer's body (schema 11; the team history's 3).
        case responseBody, responseContentType, responseBodyTruncated

        /// The column's name in both schemas.
        package var name: String {
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
            case .httpStatus: "http_status"
            case .responseBytes: "response_bytes"
            case .tappedAt: "tapped_at"
            case .timeoutMs: "timeout_ms"
            case .endedBy: "ended_by"
            case .endedByAt: "ended_by_at"
            case .answerValue: "answer_value"
            case .answerError: "answer_error"
            case .host: "host"
            case .responseBody: "response_body"
            case .responseContentType: "response_content_type"
            case .responseBodyTruncated: "response_body_truncated"
            }
        }
    }

    package var id: UUID
    package var sessionID: UUID
    package var source: String
    package var startedAt: Int64
    package var endedAt: Int64?
    package var durationMs: Int64?
    /// `outcome`, nil until the fetch ended; a text no version wrote reads as failed.
    package var outcome: FetchStatus?
    /// For a fetch not ended: whether the process recording it still runs
    /// (SQLite's history knows; a team's holds ended fetches only).
    package var recorderAlive = true
    package var cancelReason: CancelReason?
    package var value: FetchValue?
    package var error: String?
    package var httpStatus: Int64?
    package var responseBytes: Int64?
    package var tappedAt: Int64?
    package var timeoutMs: Int64?
    package var endedBy: String?
    package var endedByAt: Int64?
    package var answerValue: FetchValue?
    package var answerError: String?
    package var host: String
    package var responseBody: String?
    package var responseContentType: String?
    package var responseBodyTruncated: Bool?

    package init(id: UUID, sessionID: UUID, source: String, startedAt: Int64, host: String) {
        self.id = id
        self.sessionID = sessionID
        self.source = source
        self.startedAt = startedAt
        self.host = host
    }

    /// The fetch the row holds. The schemas' CHECKs keep a row whole; what
    /// they cannot (a succeeded fetch's value, a script's end) is read
    /// leniently, as it always was, by the rules below, which a decoder
    /// reading cells one by one applies too.
    package consuming func fetch() -> Fetch {
        Fetch(
            id: id, sessionID: sessionID, source: source, startedAt: Timestamp(millisecondsSince1970: startedAt),
            endedAt: endedAt.map(Timestamp.init(millisecondsSince1970:)), durationMilliseconds: durationMs,
            outcome: Self.outcome(outcome, recorderAlive: recorderAlive, value: value, error: error, cancelReason: cancelReason),
            response: Self.response(
                httpStatus: httpStatus, bytes: responseBytes, body: responseBody, contentType: responseContentType,
                isTruncated: responseBodyTruncated
            ),
            script: Self.script(
                tappedAt: tappedAt, timeoutMs: timeoutMs, endedBy: endedBy, endedByAt: endedByAt, answerValue: answerValue,
                answerError: answerError
            ),
            host: host
        )
    }

    /// The outcome of a row: nil while it runs (`interrupted` once its
    /// recorder is gone); a missing value is JSON null, a missing error
    /// empty, a cancel without a reason the user's. Only the cell its
    /// status names is used.
    package static func outcome(
        _ status: FetchStatus?, recorderAlive: Bool, value: FetchValue?, error: String?, cancelReason: CancelReason?
    ) -> FetchOutcome? {
        switch status ?? (recorderAlive ? .running : .interrupted) {
        case .running: nil
        case .succeeded: .succeeded(value ?? FetchValue(validJSON: "null"))
        case .failed: .failed(error ?? "")
        case .cancelled: .cancelled(cancelReason ?? .user)
        case .timedOut: .timedOut
        case .interrupted: .interrupted
        }
    }

    /// The answer's status and size, with its body; none without a status.
    package static func response(
        httpStatus: Int64?, bytes: Int64?, body: String?, contentType: String?, isTruncated: Bool?
    ) -> SourceResponse? {
        guard let httpStatus else { return nil }
        let body = body.map { ResponseBody(text: $0, contentType: contentType, isTruncated: isTruncated ?? false) }
        return SourceResponse(status: Int(httpStatus), bytes: Int(bytes ?? 0), body: body)
    }

    /// The script, if the fetch was recorded with one: an end without its
    /// moment or its answer is no end.
    package static func script(
        tappedAt: Int64?, timeoutMs: Int64?, endedBy: String?, endedByAt: Int64?, answerValue: FetchValue?, answerError: String?
    ) -> FetchScript? {
        guard let tappedAt else { return nil }
        var end: FetchScript.End?
        if let endedBy, let endedByAt, let cause = FetchEnd.Cause(name: endedBy, value: answerValue, error: answerError) {
            end = FetchScript.End(cause: cause, at: Timestamp(millisecondsSince1970: endedByAt))
        }
        return FetchScript(tappedAt: Timestamp(millisecondsSince1970: tappedAt), timeoutMilliseconds: timeoutMs, end: end)
    }
}

/// The columns a session is stored in, the same in both schemas, in the
/// order every SELECT of sessions lists them.
package enum StoredSessionColumn: Int32, CaseIterable, Sendable {
    case id, startedAt, source, host, processID, bootID, processStarted

    /// The column's name in both schemas.
    package var name: String {
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
