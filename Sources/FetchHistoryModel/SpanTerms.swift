/// How a fetch reads as an OpenTelemetry span: the one set of rules both
/// the library's live spans (`FetchSpan`) and `export --format otlp` and
/// `push` to a collector (`OTLPWriter`) follow, so a span looks the same
/// however it reached the backend.
package enum SpanTerms {
    /// A span's status: OTLP's OK, or error with why. Unset is nil.
    package enum Status: Hashable, Sendable {
        case ok
        case error(String)
    }

    /// Error for a fetch that failed (its error), timed out or was
    /// interrupted; OK for one that succeeded; unset for a cancelled one
    /// (a cancel is no error).
    package static func status(of outcome: FetchOutcome, timeoutMilliseconds: Int64?) -> Status? {
        switch outcome {
        case .succeeded: .ok
        case .failed(let message): .error(message)
        case .timedOut: .error(timeoutMilliseconds.map { "timed out after \($0)ms" } ?? "timed out")
        case .interrupted: .error("interrupted: its recorder stopped before it ended")
        case .cancelled: nil
        }
    }

    /// `error.type`: the fetch's problem (`HTTP 503`, `timed out`, …), for
    /// a fetch that neither succeeded nor was cancelled.
    package static func errorType(of status: FetchStatus, error: String?, httpStatus: Int?) -> String? {
        status == .cancelled ? nil : Problem.key(outcome: status, error: error, httpStatus: httpStatus)
    }

    /// The event for what ended the fetch, when it was not the source's
    /// answer: a cancel, a newer fetch's tap, the deadline.
    package static func endEvent(_ cause: FetchEnd.Cause) -> String? {
        switch cause {
        case .cancelTap: "cancel"
        case .fetchTap: "fetch"
        case .timeout: "deadline"
        case .answer, .failure: nil
        }
    }
}
