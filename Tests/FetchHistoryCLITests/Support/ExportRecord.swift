import Foundation

/// One export record, written and read by the tests themselves (not by the
/// library), so the CLI's JSON is checked against an independent reading of
/// the format.
struct ExportRecord: Hashable, Sendable, CustomStringConvertible {
    /// The keys every export record has, in this order; later versions may
    /// add keys after them (the fetch's script: tappedAt, timeoutMs, …), which
    /// these tests read past.
    static let keys = [
        "id", "session", "source", "outcome", "cancelReason", "value", "error", "startedAt", "endedAt", "durationMs",
        "status", "bytes",
    ]

    var id: String
    var session: String
    var source: String
    var outcome: String
    var cancelReason: String?
    var value: Int?
    var error: String?
    /// Milliseconds since 1970 UTC.
    var startedAt: Int64
    var endedAt: Int64?
    var durationMs: Int64?
    /// The HTTP status and body size, for the HTTP source; both or neither.
    var status: Int?
    var bytes: Int?
    /// The host that recorded it (written last, after the script's keys,
    /// when not nil); read back as nil when empty or absent.
    var host: String?

    var description: String { jsonLine }

    // MARK: Making fixtures

    /// A record with the fields its outcome needs: value only for
    /// succeeded, error only for failed, cancelReason only for cancelled,
    /// no end for running and interrupted.
    static func make(
        _ outcome: String, id: String, session: String = Ids.session(1), source: String = "random",
        at startedAt: Int64, duration: Int64 = 100, value: Int = 42, error: String = "the source failed",
        cancelReason: String = "user", status: Int? = nil, bytes: Int? = nil, host: String? = nil
    ) -> ExportRecord {
        let ended = !["running", "interrupted"].contains(outcome)
        return ExportRecord(
            id: id, session: session, source: source, outcome: outcome,
            cancelReason: outcome == "cancelled" ? cancelReason : nil,
            value: outcome == "succeeded" ? value : nil,
            error: outcome == "failed" ? error : nil,
            startedAt: startedAt,
            endedAt: ended ? startedAt + duration : nil,
            durationMs: ended ? duration : nil,
            status: status, bytes: bytes, host: host
        )
    }

    /// The record as one line of JSON, keys in the export's order, every key
    /// present, strings escaped as RFC 8259 requires and no more.
    var jsonLine: String {
        func string(_ text: String?) -> String {
            guard let text else { return "null" }
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20: out += "\\u" + ISO.padded(Int(scalar.value), 4, radix: 16)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        func number<N: BinaryInteger>(_ value: N?) -> String { value.map { "\($0)" } ?? "null" }
        let fields = [
            string(id), string(session), string(source), string(outcome), string(cancelReason), number(value),
            string(error), string(ISO.format(startedAt)), string(endedAt.map(ISO.format)), number(durationMs),
            number(status), number(bytes),
        ]
        let host = host.map { ",\"host\":" + string($0) } ?? ""
        return "{" + zip(Self.keys, fields).map { "\"\($0)\":\($1)" }.joined(separator: ",") + host + "}"
    }

    /// JSON lines, one record each, in the given order.
    static func jsonl(_ records: [ExportRecord]) -> Data {
        Data(records.map { $0.jsonLine + "\n" }.joined().utf8)
    }

    /// The order `export` promises: oldest first (ties by id).
    static func oldestFirst(_ records: [ExportRecord]) -> [ExportRecord] {
        records.sorted { ($0.startedAt, $0.id) < ($1.startedAt, $1.id) }
    }

    /// The order `list` promises: newest first (ties by id, descending).
    static func newestFirst(_ records: [ExportRecord]) -> [ExportRecord] {
        oldestFirst(records).reversed()
    }

}

// In an extension, so the memberwise initializer stays.
extension ExportRecord {
    // MARK: Reading the CLI's JSON

    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads one record printed by the CLI, refusing missing keys, keys out
    /// of order and wrong types.
    init(jsonLine: String) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(jsonLine.utf8)) as? [String: Any] else {
            throw FormatError(description: "not a JSON object: \(jsonLine)")
        }
        try self.init(object: object)
        // The documented key order (the object's own, which a dictionary loses).
        let offsets = Self.keys.compactMap { jsonLine.range(of: "\"\($0)\":")?.lowerBound }
        guard offsets.count == Self.keys.count, offsets == offsets.sorted() else {
            throw FormatError(description: "keys are not in the order \(Self.keys): \(jsonLine)")
        }
    }

    init(object: [String: Any]) throws {
        guard Set(Self.keys).isSubset(of: object.keys) else {
            throw FormatError(description: "keys \(object.keys.sorted()) lack some of the export record's \(Self.keys.sorted())")
        }
        func string(_ key: String) throws -> String? {
            if object[key] is NSNull { return nil }
            guard let text = object[key] as? String else { throw FormatError(description: "'\(key)' is not a string or null: \(object)") }
            return text
        }
        func integer(_ key: String) throws -> Int64? {
            if object[key] is NSNull { return nil }
            guard let number = object[key] as? NSNumber, let value = Int64(exactly: number.doubleValue) else {
                throw FormatError(description: "'\(key)' is not a whole number or null: \(object)")
            }
            return value
        }
        func time(_ key: String) throws -> Int64? {
            guard let text = try string(key) else { return nil }
            guard let milliseconds = ISO.parse(text) else {
                throw FormatError(description: "'\(key)' is not yyyy-MM-ddTHH:mm:ss.SSSZ: \(text)")
            }
            return milliseconds
        }
        func required<T>(_ value: T?, _ key: String) throws -> T {
            guard let value else { throw FormatError(description: "'\(key)' is null: \(object)") }
            return value
        }
        id = try required(string("id"), "id")
        session = try required(string("session"), "session")
        source = try required(string("source"), "source")
        outcome = try required(string("outcome"), "outcome")
        cancelReason = try string("cancelReason")
        value = try integer("value").map { Int($0) }
        error = try string("error")
        startedAt = try required(time("startedAt"), "startedAt")
        endedAt = try time("endedAt")
        durationMs = try integer("durationMs")
        status = try integer("status").map { Int($0) }
        bytes = try integer("bytes").map { Int($0) }
        host = object["host"] == nil ? nil : try string("host").flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// ISO 8601 UTC with milliseconds, done with the C library rather than the
/// product's own formatter.
enum ISO {
    static func format(_ milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        let fraction = milliseconds - Int64(seconds) * 1000
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // Not `String(format:)`: Foundation's formatting cost a test that
        // makes 100,000 records most of a minute on a cooperative thread,
        // which stalled every other test waiting for one.
        return padded(Int(parts.tm_year) + 1900, 4) + "-" + padded(Int(parts.tm_mon) + 1, 2) + "-" + padded(Int(parts.tm_mday), 2)
            + "T" + padded(Int(parts.tm_hour), 2) + ":" + padded(Int(parts.tm_min), 2) + ":" + padded(Int(parts.tm_sec), 2)
            + "." + padded(Int(fraction), 3) + "Z"
    }

    /// `value` in `radix`, zero-padded to `width` digits.
    static func padded(_ value: Int, _ width: Int, radix: Int = 10) -> String {
        let digits = String(value, radix: radix)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Parses exactly `yyyy-MM-ddTHH:mm:ss.SSSZ`.
    static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
              bytes[23] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int32? { Int32(String(decoding: bytes[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19), let millisecond = number(20..<23)
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Int64(timegm(&parts)) * 1000 + Int64(millisecond)
    }

    /// Milliseconds since 1970 of a whole-second UTC time written `yyyy-MM-ddTHH:mm:ss`.
    static func ms(_ text: String) -> Int64 {
        parse(text + ".000Z")!
    }

    static var now: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// Readable, deterministic ids for fixtures.
enum Ids {
    /// `00000001-0000-4000-8000-000000000001` and so on.
    static func fetch(_ number: Int) -> String {
        ISO.padded(number, 8, radix: 16) + "-0000-4000-8000-" + ISO.padded(number, 12, radix: 16)
    }

    /// `5e55..`-prefixed session ids, distinct from fetch ids.
    static func session(_ number: Int) -> String {
        "5e55" + ISO.padded(number, 4, radix: 16) + "-0000-4000-8000-" + ISO.padded(number, 12, radix: 16)
    }
}

/// Histories the tests import.
enum Fixtures {
    static let day0 = ISO.ms("2026-11-20T10:00:00")
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000
    static let otherSource = "https://numbers.example/api"

    /// Ten fetches over three days, three sessions and two sources, with
    /// every outcome (one stored as running, which an import has no
    /// process for, so it reads as interrupted).
    static let standard: [ExportRecord] = [
        .make("succeeded", id: Ids.fetch(1), session: Ids.session(1), at: day0 + 250, duration: 120, value: 7),
        .make("failed", id: Ids.fetch(2), session: Ids.session(1), at: day0 + hour, duration: 80, error: "HTTP 503: \"busy\"/retry"),
        .make("cancelled", id: Ids.fetch(3), session: Ids.session(1), at: day0 + 2 * hour, duration: 40),
        .make("cancelled", id: Ids.fetch(4), session: Ids.session(2), at: day0 + day - hour, duration: 30, cancelReason: "superseded"),
        .make("timed-out", id: Ids.fetch(5), session: Ids.session(2), source: otherSource, at: day0 + day, duration: 500),
        .make("interrupted", id: Ids.fetch(6), session: Ids.session(2), source: otherSource, at: day0 + day + hour),
        .make("running", id: Ids.fetch(7), session: Ids.session(2), source: otherSource, at: day0 + day + 2 * hour),
        .make("succeeded", id: Ids.fetch(8), session: Ids.session(3), source: otherSource, at: day0 + 2 * day, duration: 950, value: 100, status: 200, bytes: 4),
        .make("succeeded", id: Ids.fetch(9), session: Ids.session(3), at: day0 + 2 * day + hour, duration: 1_250, value: 1),
        .make("failed", id: Ids.fetch(10), session: Ids.session(3), at: day0 + 2 * day + 2 * hour, duration: 60, error: "line one\nline two"),
    ]

    /// How a record reads back: a running fetch with no live recorder is interrupted.
    static func asRead(_ record: ExportRecord) -> ExportRecord {
        var record = record
        if record.outcome == "running" { record.outcome = "interrupted" }
        return record
    }

    /// `count` succeeded fetches one minute apart, from `start`.
    static func succeeded(_ count: Int, from start: Int64 = day0, firstID: Int = 1000) -> [ExportRecord] {
        (0..<count).map { index in
            .make("succeeded", id: Ids.fetch(firstID + index), at: start + Int64(index) * 60_000, duration: Int64(10 + index), value: 1 + index % 100)
        }
    }
}
