import FoundationEssentials

/// Writes fetches as the export record, by hand: every key present (null
/// when empty), in a fixed order, `/` left unescaped — and fast, since an
/// export writes millions of them. Each record is written through a raw
/// pointer into space reserved once, then appended to the caller's buffer.
///
/// ```json
/// {"id":"…","session":"…","source":"random","outcome":"succeeded","cancelReason":null,
///  "value":42,"error":null,"startedAt":"2026-11-22T10:00:00.000Z",
///  "endedAt":"2026-11-22T10:00:01.002Z","durationMs":1002,"status":null,"bytes":null,
///  "tappedAt":"2026-11-22T10:00:00.000Z","timeoutMs":null,"endedBy":"answer",
///  "endedByAt":"2026-11-22T10:00:01.002Z","answerValue":42,"answerError":null}
/// ```
///
/// `status` and `bytes` are the HTTP status and body size, for the HTTP source.
/// `tappedAt`, `timeoutMs`, `endedBy`, `endedByAt`, `answerValue` and
/// `answerError` are the fetch's script (`FetchScript`), null when it has none.
public enum FetchJSON {
    /// Appends `fetch` as one JSON object (no newline) to `buffer`.
    public static func append(_ fetch: Fetch, to buffer: inout [UInt8]) {
        let script = fetch.script
        let error = fetch.errorMessage
        let answerError = script?.end?.cause.answerError
        // Fixed text and numbers take under 700 bytes; an escaped string at
        // most six bytes per byte.
        let capacity = 768 + 6 * (fetch.source.utf8.count + (error?.utf8.count ?? 0) + (answerError?.utf8.count ?? 0))
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { space in
            var out = JSONByteWriter(space.baseAddress!)
            out.literal(#"{"id":""#)
            out.uuid(fetch.id)
            out.literal(#"","session":""#)
            out.uuid(fetch.sessionID)
            out.literal(#"","source":"#)
            out.string(fetch.source)
            out.literal(#","outcome":"#)
            out.string(fetch.status.rawValue)
            out.literal(#","cancelReason":"#)
            out.string(fetch.cancelReason?.rawValue)
            out.literal(#","value":"#)
            out.integer(fetch.value.map(Int64.init))
            out.literal(#","error":"#)
            out.string(error)
            out.literal(#","startedAt":"#)
            out.time(fetch.startedAt)
            out.literal(#","endedAt":"#)
            out.time(fetch.endedAt)
            out.literal(#","durationMs":"#)
            out.integer(fetch.durationMilliseconds)
            out.literal(#","status":"#)
            out.integer(fetch.response.map { Int64($0.status) })
            out.literal(#","bytes":"#)
            out.integer(fetch.response.map { Int64($0.bytes) })
            out.literal(#","tappedAt":"#)
            out.time(script?.tappedAt)
            out.literal(#","timeoutMs":"#)
            out.integer(script?.timeoutMilliseconds)
            out.literal(#","endedBy":"#)
            out.string(script?.end?.cause.name)
            out.literal(#","endedByAt":"#)
            out.time(script?.end?.at)
            out.literal(#","answerValue":"#)
            out.integer(script?.end?.cause.answerValue.map(Int64.init))
            out.literal(#","answerError":"#)
            out.string(answerError)
            out.literal("}")
            buffer.append(contentsOf: UnsafeBufferPointer(start: space.baseAddress, count: out.count(from: space.baseAddress!)))
        }
    }

    /// `fetch` as one JSON object, as a string.
    public static func string(_ fetch: Fetch) -> String {
        var buffer: [UInt8] = []
        append(fetch, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// `value` as a JSON string literal.
    public static func literal(_ value: String) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 + 6 * value.utf8.count) { space in
            var out = JSONByteWriter(space.baseAddress!)
            out.string(value)
            return String(decoding: UnsafeBufferPointer(start: space.baseAddress, count: out.count(from: space.baseAddress!)), as: UTF8.self)
        }
    }
}

/// A cursor writing JSON pieces into memory the caller sized.
struct JSONByteWriter {
    private var cursor: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) {
        cursor = start
    }

    func count(from start: UnsafeMutablePointer<UInt8>) -> Int { cursor - start }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        cursor.pointee = value
        cursor += 1
    }

    @inline(__always)
    mutating func literal(_ text: StaticString) {
        cursor.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        cursor += text.utf8CodeUnitCount
    }

    mutating func null() { literal("null") }

    mutating func integer(_ value: Int64?) {
        guard let value else { return null() }
        if value < 0 { byte(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                     UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { byte(raw[index]) }
        }
    }

    /// A JSON string literal (RFC 8259): quote, backslash and control
    /// characters escaped, everything else as UTF-8.
    mutating func string(_ value: String?) {
        guard var value else { return null() }
        byte(UInt8(ascii: "\""))
        value.withUTF8 { bytes in
            let hex: StaticString = "0123456789abcdef"
            for code in bytes {
                switch code {
                case UInt8(ascii: "\""): literal(#"\""#)
                case UInt8(ascii: "\\"): literal(#"\\"#)
                case UInt8(ascii: "\n"): literal(#"\n"#)
                case UInt8(ascii: "\r"): literal(#"\r"#)
                case UInt8(ascii: "\t"): literal(#"\t"#)
                case 0..<0x20:
                    literal(#"\u00"#)
                    byte(hex.utf8Start[Int(code >> 4)])
                    byte(hex.utf8Start[Int(code & 0xF)])
                default: byte(code)
                }
            }
        }
        byte(UInt8(ascii: "\""))
    }

    mutating func uuid(_ id: UUID) {
        cursor += id.writeLowercased(to: cursor)
    }

    mutating func time(_ time: Timestamp?) {
        guard let time else { return null() }
        byte(UInt8(ascii: "\""))
        cursor += time.writeISO8601(to: cursor)
        byte(UInt8(ascii: "\""))
    }
}
