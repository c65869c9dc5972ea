import FetchHistoryModel
import FoundationEssentials

// Recording: what a view state's recorder writes, each call inside a
// `HistoryStore.write`.
extension Database {
    /// Records the start of a session: once per run, before its fetches.
    @discardableResult
    public func beginSession(
        id: UUID = .timeOrdered(), source: String, at startedAt: Timestamp = .now,
        process: ProcessIdentity = .current
    ) throws -> Session {
        let session = Session(id: id, startedAt: startedAt, source: source, process: process)
        try execute(HistorySQL.insertSession, [
            .text(session.id.lowercased), .integer(startedAt.millisecondsSince1970), .text(source),
            .text(process.host), .integer(Int64(process.processID)), .text(process.bootID),
            .integer(process.startTicks),
        ])
        return session
    }

    /// Records that a fetch was tapped and started; it shows as running
    /// until its end is recorded.
    public func recordStart(
        of id: UUID, in session: Session, at startedAt: Timestamp, timeout: Duration? = nil
    ) throws {
        try execute(HistorySQL.insertFetch, [
            .text(id.lowercased), .text(session.id.lowercased), .text(session.source),
            .integer(startedAt.millisecondsSince1970), .integer(timeout?.wholeMilliseconds),
        ])
    }

    /// Records how a running fetch ended. Fails with `HistoryError.notRunning`
    /// if the fetch is unknown or already ended, so each fetch ends exactly once.
    public func recordEnd(
        of id: UUID, at endedAt: Timestamp, duration: Duration, outcome: FetchOutcome,
        cause: FetchEnd.Cause, response: SourceResponse? = nil
    ) throws {
        let columns = StoredOutcome(outcome)
        try execute(HistorySQL.endFetch, [
            .integer(endedAt.millisecondsSince1970), .integer(duration.wholeMilliseconds),
            .text(columns.outcome), .text(columns.cancelReason), .value(columns.value),
            .text(columns.error), .integer(response?.status), .integer(response?.bytes),
            .text(cause.name), .value(cause.answerValue), .text(cause.answerError),
            .text(id.lowercased),
        ])
        if changes != 1 { throw HistoryError.notRunning(id) }
    }
}
