import FetchHistory

/// The SQL `HistoryStore` runs to record and import (its private `SQL`
/// enum), repeated so the raw C and GRDB engines do exactly the same work.
/// Keep in step with Sources/FetchHistory/History/HistoryStore.swift: when the
/// store's SQL changes, so must this.
enum StoreSQL {
    static let insertSession = """
        INSERT INTO session (id, started_at, source, host, process_id, boot_id, process_started)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    /// Binds: id, session id, source, started-at (also the tap), timeout.
    static let insertFetch = """
        INSERT INTO fetch (id, session_id, source, started_at, tapped_at, timeout_ms) VALUES (?1, ?2, ?3, ?4, ?4, ?5)
        """

    /// Binds: ended-at (also when its cause happened), duration, outcome,
    /// cancel reason, value, error, HTTP status, bytes, cause, answer value,
    /// answer error, id.
    static let endFetch = """
        UPDATE fetch SET ended_at = ?1, duration_ms = ?2, outcome = ?3, cancel_reason = ?4, value = ?5, error = ?6,
            http_status = ?7, response_bytes = ?8, ended_by = ?9, ended_by_at = ?1, answer_value = ?10, answer_error = ?11
        WHERE id = ?12 AND outcome IS NULL
        """

    static let importSession = """
        INSERT INTO session (id, started_at, source, host, process_id) VALUES (?, ?, ?, '', 0)
        ON CONFLICT (id) DO NOTHING
        """

    static let importFetch = """
        INSERT INTO fetch (
            id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error,
            http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, answer_error
        )
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO NOTHING
        """
}


/// The outcome as the `fetch` table's columns hold it (the store's
/// `StoredOutcome`).
struct OutcomeColumns {
    var outcome: String
    var cancelReason: String?
    var value: Int64?
    var error: String?

    init(_ outcome: FetchOutcome) {
        self.outcome = outcome.status.rawValue
        switch outcome {
        case .succeeded(let value): self.value = Int64(value)
        case .failed(let message): error = message
        case .cancelled(let reason): cancelReason = reason.rawValue
        case .timedOut, .interrupted: break
        }
    }
}

/// What ended a fetch as the `ended_by`, `answer_value` and `answer_error`
/// columns hold it.
struct CauseColumns {
    var name: String
    var answerValue: Int64?
    var answerError: String?

    init(_ cause: FetchEnd.Cause) {
        name = cause.name
        switch cause {
        case .answer(let value): answerValue = Int64(value)
        case .failure(let message): answerError = message
        case .cancelTap, .fetchTap, .timeout: break
        }
    }
}
