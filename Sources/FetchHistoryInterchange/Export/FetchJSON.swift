import FetchHistoryModel

/// The export record: a fetch as one JSON object, every key present (null
/// when empty), in a fixed order (`RecordKey`), `/` left unescaped. Written
/// by `JSONWriter`.
///
/// ```json
/// {"id":"…","session":"…","source":"random","outcome":"succeeded","cancelReason":null,
///  "value":42,"error":null,"startedAt":"2026-11-22T10:00:00.000Z",
///  "endedAt":"2026-11-22T10:00:01.002Z","durationMs":1002,"status":null,"bytes":null,
///  "tappedAt":"2026-11-22T10:00:00.000Z","timeoutMs":null,"endedBy":"answer",
///  "endedByAt":"2026-11-22T10:00:01.002Z","answerValue":42,"answerError":null,"host":"ci-3"}
/// ```
///
/// `status` and `bytes` are the HTTP status and body size, for the HTTP source.
/// `tappedAt`, `timeoutMs`, `endedBy`, `endedByAt`, `answerValue` and
/// `answerError` are the fetch's script (`FetchScript`), null when it has none.
/// `host` is the host that recorded it, empty when not known; a record
/// without it (an export of an earlier version) is read with an empty one.
public enum FetchJSON {
    /// Appends `fetch` as one JSON object (no newline) to `buffer`.
    public static func append(_ fetch: Fetch, to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer) { $0.record(fetch) }
    }

    /// `fetch` as one JSON object, as a string.
    public static func string(_ fetch: Fetch) -> String {
        var writer = JSONWriter()
        writer.record(fetch)
        return writer.text
    }
}

extension JSONWriter {
    /// Writes `fetch` as one export record (see `FetchJSON`).
    package mutating func record(_ fetch: Fetch) {
        let script = fetch.script
        let end = script?.end
        beginObject()
        // Every key, in RecordKey's order: the switch cannot leave one out.
        for key in RecordKey.allCases {
            self.key(key.json)
            switch key {
            case .id: uuid(fetch.id)
            case .session: uuid(fetch.sessionID)
            case .source: string(fetch.source)
            case .outcome: string(fetch.status.rawValue)
            case .cancelReason: string(fetch.cancelReason?.rawValue)
            case .value: value(fetch.value)
            case .error: string(fetch.errorMessage)
            case .startedAt: timestamp(fetch.startedAt)
            case .endedAt: timestamp(fetch.endedAt)
            case .durationMs: integer(fetch.durationMilliseconds)
            case .status: integer(fetch.response?.status)
            case .bytes: integer(fetch.response?.bytes)
            case .tappedAt: timestamp(script?.tappedAt)
            case .timeoutMs: integer(script?.timeoutMilliseconds)
            case .endedBy: string(end?.cause.name)
            case .endedByAt: timestamp(end?.at)
            case .answerValue: value(end?.cause.answerValue)
            case .answerError: string(end?.cause.answerError)
            case .host: string(fetch.host)
            }
        }
        endObject()
    }

    /// A fetched value, as the JSON it is.
    private mutating func value(_ value: FetchValue?) {
        if let value { fragment(value.json) } else { null() }
    }
}
