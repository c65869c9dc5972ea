@_spi(Bytes) import FetchHistoryModel
import FoundationEssentials

/// The export record: a fetch as one JSON object, every key present (null
/// when empty), in a fixed order (`RecordKey`), `/` left unescaped. Written
/// by `JSONWriter`.
///
/// ```json
/// {"id":"…","session":"…","source":"random","outcome":"succeeded","cancelReason":null,
///  "value":42,"error":null,"startedAt":"2026-11-22T10:00:00.000Z",
///  "endedAt":"2026-11-22T10:00:01.002Z","durationMs":1002,"status":null,"bytes":null,
///  "tappedAt":"2026-11-22T10:00:00.000Z","timeoutMs":null,"endedBy":"answer",
///  "endedByAt":"2026-11-22T10:00:01.002Z","answerValue":42,"answerError":null,"host":"ci-3",
///  "body":null,"contentType":null,"truncated":null}
/// ```
///
/// `status` and `bytes` are the HTTP status and body size, for the HTTP source.
/// `tappedAt`, `timeoutMs`, `endedBy`, `endedByAt`, `answerValue` and
/// `answerError` are the fetch's script (`FetchScript`), null when it has none.
/// `host` is the host that recorded it, empty when not known; a record
/// without it (an export of an earlier version) is read with an empty one.
/// `body`, `contentType` and `truncated` are the start of a failed
/// answer's body (secrets hidden), its Content-Type and whether the body went
/// on past it (`ResponseBody`); null when none was kept, and for a record of
/// an earlier version, which has none of them.
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
    /// Writes `fetch` as one export record (see `FetchJSON`), through one
    /// reservation of room for the whole record: an export writes a million.
    package mutating func record(_ fetch: Fetch) {
        let keys = RecordKey.written
        value(room: RecordKey.room(for: fetch)) { out, recent in
            for key in keys {
                out.append(key.member)
                key.appendValue(of: fetch, to: &out, recent: &recent)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

extension JSONWriter {
    /// Writes `fetch` as a record of only `keys`, in their order (`--fields`).
    package mutating func record(_ fetch: Fetch, keys: [RecordKey]) {
        value(room: RecordKey.room(for: fetch)) { out, recent in
            out.append(UInt8(ascii: "{"))
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\""))
                for byte in key.name.utf8 { out.append(byte) }
                out.append(UInt8(ascii: "\""))
                out.append(UInt8(ascii: ":"))
                key.appendValue(of: fetch, to: &out, recent: &recent)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

extension RecordKey {
    /// What a fetch's record holds under this key as one cell of text (TSV,
    /// CSV): a text as it is, a number or a time as JSON writes it, a
    /// fetched value as its JSON text; nil for null.
    package func cell(of fetch: Fetch) -> String? {
        switch self {
        case .id: fetch.id.lowercased
        case .session: fetch.sessionID.lowercased
        case .source: fetch.source
        case .outcome: fetch.status.rawValue
        case .cancelReason: fetch.cancelReason?.rawValue
        case .value: fetch.value?.json
        case .error: fetch.errorMessage
        case .startedAt: fetch.startedAt.iso8601
        case .endedAt: fetch.endedAt?.iso8601
        case .durationMs: fetch.durationMilliseconds.map(String.init)
        case .status: fetch.response.map { String($0.status) }
        case .bytes: fetch.response.map { String($0.bytes) }
        case .tappedAt: fetch.script?.tappedAt.iso8601
        case .timeoutMs: fetch.script?.timeoutMilliseconds.map(String.init)
        case .endedBy: fetch.script?.end?.cause.name
        case .endedByAt: fetch.script?.end?.at.iso8601
        case .answerValue: fetch.script?.end?.cause.answerValue?.json
        case .answerError: fetch.script?.end?.cause.answerError
        case .host: fetch.host
        case .body: fetch.response?.body?.text
        case .contentType: fetch.response?.body?.contentType
        case .truncated: fetch.response?.body.map { $0.isTruncated ? "true" : "false" }
        }
    }

    /// Writes what a fetch's record holds under this key, `null` when it
    /// has nothing: every key has a value (the switch cannot leave one out).
    @inline(__always)
    fileprivate func appendValue(of fetch: Fetch, to out: inout ByteWriter, recent: inout ISO8601Recent) {
        switch self {
        case .id: out.appendQuoted(fetch.id)
        case .session: out.appendQuoted(fetch.sessionID)
        case .source: out.appendQuoted(fetch.source)
        case .outcome: out.appendQuoted(fetch.status.rawValue)
        case .cancelReason: out.appendQuoted(orNull: fetch.cancelReason?.rawValue)
        case .value: out.appendValue(orNull: fetch.value)
        case .error: out.appendQuoted(orNull: fetch.errorMessage)
        case .startedAt: out.appendQuoted(fetch.startedAt, recent: &recent)
        case .endedAt: out.appendQuoted(orNull: fetch.endedAt, recent: &recent)
        case .durationMs: out.appendInteger(orNull: fetch.durationMilliseconds)
        case .status: out.appendInteger(orNull: fetch.response.map { Int64($0.status) })
        case .bytes: out.appendInteger(orNull: fetch.response.map { Int64($0.bytes) })
        case .tappedAt: out.appendQuoted(orNull: fetch.script?.tappedAt, recent: &recent)
        case .timeoutMs: out.appendInteger(orNull: fetch.script?.timeoutMilliseconds)
        case .endedBy: out.appendQuoted(orNull: fetch.script?.end?.cause.name)
        case .endedByAt: out.appendQuoted(orNull: fetch.script?.end?.at, recent: &recent)
        case .answerValue: out.appendValue(orNull: fetch.script?.end?.cause.answerValue)
        case .answerError: out.appendQuoted(orNull: fetch.script?.end?.cause.answerError)
        case .host: out.appendQuoted(fetch.host)
        case .body: out.appendQuoted(orNull: fetch.response?.body?.text)
        case .contentType: out.appendQuoted(orNull: fetch.response?.body?.contentType)
        case .truncated: out.appendBool(orNull: fetch.response?.body?.isTruncated)
        }
    }

    /// The most bytes a record of `fetch` takes: its keys, the widest
    /// each value of fixed width can be, and its texts escaped at worst.
    fileprivate static func room(for fetch: Fetch) -> Int {
        func text(_ text: String?) -> Int { 6 * (text?.utf8.count ?? 0) }
        func value(_ value: FetchValue?) -> Int { value?.json.utf8.count ?? 0 }
        let end = fetch.script?.end
        return fixedRoom + text(fetch.source) + text(fetch.status.rawValue) + text(fetch.cancelReason?.rawValue)
            + text(fetch.errorMessage) + text(end?.cause.name) + text(end?.cause.answerError) + text(fetch.host)
            + text(fetch.response?.body?.text) + text(fetch.response?.body?.contentType)
            + value(fetch.value) + value(end?.cause.answerValue)
    }

    /// The braces, every key, and what each value takes apart from the
    /// text of a text or a fetched value (`room(for:)` adds those).
    private static let fixedRoom = written.reduce(1) { $0 + $1.member.count + $1.fixedRoom }

    private var fixedRoom: Int {
        switch self {
        case .id, .session: JSONWriter.uuidRoom
        case .startedAt, .endedAt, .tappedAt, .endedByAt: JSONWriter.timestampRoom
        case .durationMs, .status, .bytes, .timeoutMs: JSONWriter.integerRoom
        case .source, .outcome, .cancelReason, .error, .endedBy, .answerError, .host, .body, .contentType: JSONWriter.quotedRoom(nil)
        case .value, .answerValue: 4
        case .truncated: 5
        }
    }
}

extension ByteWriter {
    fileprivate mutating func appendQuoted(orNull text: String?) {
        if let text { appendQuoted(text) } else { appendNull() }
    }

    fileprivate mutating func appendQuoted(orNull time: Timestamp?, recent: inout ISO8601Recent) {
        if let time { appendQuoted(time, recent: &recent) } else { appendNull() }
    }

    fileprivate mutating func appendBool(orNull flag: Bool?) {
        switch flag {
        case true?: append(bytesOf: 0x6575_7274, count: 4)  // true
        case false?: append(bytesOf: 0x65_736C_6166, count: 5)  // false
        case nil: appendNull()
        }
    }

    fileprivate mutating func appendInteger(orNull number: Int64?) {
        if let number { appendInteger(number) } else { appendNull() }
    }

    /// A fetched value: JSON already, written as it is.
    fileprivate mutating func appendValue(orNull value: FetchValue?) {
        if let value { append(copying: value.json.utf8.span) } else { appendNull() }
    }
}
