@_spi(Bytes) import FetchHistoryModel

/// The keys of the export record, in the order they are written: the one
/// list both `FetchJSON` (which writes every one, in this order) and the
/// import's `RecordFields` (which expects them in this order) go by.
package enum RecordKey: Int, CaseIterable, Sendable {
    case id, session, source, outcome, cancelReason, value, error, startedAt, endedAt, durationMs, status, bytes
    case tappedAt, timeoutMs, endedBy, endedByAt, answerValue, answerError
    case host
    case body, contentType, truncated

    /// The key as written.
    package var name: String {
        switch self {
        case .id: "id"
        case .session: "session"
        case .source: "source"
        case .outcome: "outcome"
        case .cancelReason: "cancelReason"
        case .value: "value"
        case .error: "error"
        case .startedAt: "startedAt"
        case .endedAt: "endedAt"
        case .durationMs: "durationMs"
        case .status: "status"
        case .bytes: "bytes"
        case .tappedAt: "tappedAt"
        case .timeoutMs: "timeoutMs"
        case .endedBy: "endedBy"
        case .endedByAt: "endedByAt"
        case .answerValue: "answerValue"
        case .answerError: "answerError"
        case .host: "host"
        case .body: "body"
        case .contentType: "contentType"
        case .truncated: "truncated"
        }
    }

    /// The key as written, in UTF-8: what a reader compares with the input.
    var utf8: [UInt8] { Self.utf8Names[rawValue] }

    /// The key as the writer writes it.
    var json: JSONWriter.Key { Self.jsonKeys[rawValue] }

    /// The key as written with its quotes and colon (`"name":`), in two
    /// words: what a reader compares with the input first.
    var quoted: ShortBytes { ShortBytes(json.utf8) }

    /// Every key, in the order they are written.
    static let written = allCases
    /// What comes before the value in an export record: `{"id":` for the
    /// first key, `,"name":` for the others.
    var member: ShortBytes { Self.members[rawValue] }

    private static let utf8Names = allCases.map { Array($0.name.utf8) }
    private static let members = allCases.map { key in
        ShortBytes(Array((key == .id ? "{" : ",").utf8) + key.json.utf8)
    }
    private static let jsonKeys = allCases.map { JSONWriter.Key($0.name) }
}
