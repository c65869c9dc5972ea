/// The keys of the export record, in the order `FetchJSON` writes them.
enum RecordKey: Int, CaseIterable {
    case id, session, source, outcome, cancelReason, value, error, startedAt, endedAt, durationMs, status, bytes
    case tappedAt, timeoutMs, endedBy, endedByAt, answerValue, answerError

    var name: StaticString { Self.names[rawValue] }

    private static let names: [StaticString] = [
        "id", "session", "source", "outcome", "cancelReason", "value", "error", "startedAt", "endedAt", "durationMs",
        "status", "bytes", "tappedAt", "timeoutMs", "endedBy", "endedByAt", "answerValue", "answerError",
    ]
}
