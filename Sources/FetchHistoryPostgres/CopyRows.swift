import FetchHistoryModel
import Foundation
import NIOCore

/// Rows in `COPY … FROM STDIN`'s text format: fields separated by tabs,
/// rows ended by newlines, `\N` for NULL, and in a field a backslash,
/// tab, newline or carriage return escaped with a backslash
/// (postgresql.org/docs/current/sql-copy.html, "Text Format").
struct CopyRows {
    private(set) var buffer: ByteBuffer
    private var fieldsInRow = 0

    init(capacity: Int = 1 << 20) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    mutating func endRow() {
        buffer.writeInteger(UInt8(ascii: "\n"))
        fieldsInRow = 0
    }

    mutating func reset() {
        buffer.clear()
        fieldsInRow = 0
    }

    private mutating func separate() {
        if fieldsInRow > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
        fieldsInRow += 1
    }

    mutating func null() {
        separate()
        buffer.writeStaticString("\\N")
    }

    mutating func text(_ value: String?) {
        guard var value else { return null() }
        separate()
        value.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() {
                let escape: UInt8? = switch byte {
                case UInt8(ascii: "\\"): UInt8(ascii: "\\")
                case UInt8(ascii: "\t"): UInt8(ascii: "t")
                case UInt8(ascii: "\n"): UInt8(ascii: "n")
                case UInt8(ascii: "\r"): UInt8(ascii: "r")
                default: nil
                }
                guard let escape else { continue }
                buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<index]))
                buffer.writeInteger(UInt8(ascii: "\\"))
                buffer.writeInteger(escape)
                start = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start...]))
        }
    }

    mutating func integer<Number: BinaryInteger>(_ number: Number?) {
        guard let number else { return null() }
        separate()
        buffer.writeString(String(number))
    }

    mutating func uuid(_ id: UUID) {
        separate()
        buffer.writeString(id.lowercased)
    }
}

extension CopyRows {
    /// The columns `fetch(_:)` writes, in order: the staging table's and the target's.
    static let fetchColumns = StoredFetch.Column.allCases.map(\.name)

    /// `fetch` as a row of `fetchColumns`. A fetch that never ended is
    /// written as interrupted: nothing will end it on the server.
    mutating func fetch(_ fetch: Fetch) {
        let script = fetch.script
        uuid(fetch.id)
        uuid(fetch.sessionID)
        text(fetch.source)
        integer(fetch.startedAt.millisecondsSince1970)
        integer(fetch.endedAt?.millisecondsSince1970)
        integer(fetch.durationMilliseconds)
        text(fetch.outcome == nil ? FetchStatus.interrupted.rawValue : fetch.status.rawValue)
        text(fetch.cancelReason?.rawValue)
        text(fetch.value?.json)
        text(fetch.errorMessage)
        integer(fetch.response?.status)
        integer(fetch.response?.bytes)
        integer(script?.tappedAt.millisecondsSince1970)
        integer(script?.timeoutMilliseconds)
        text(script?.end?.cause.name)
        integer(script?.end?.at.millisecondsSince1970)
        text(script?.end?.cause.answerValue?.json)
        text(script?.end?.cause.answerError)
        text(fetch.host)
        let body = fetch.response?.body
        text(body?.text)
        text(body?.contentType)
        text(body.map { $0.isTruncated ? "t" : "f" })
        endRow()
    }

    /// The columns `session(_:)` writes, in order.
    static let sessionColumns = StoredSessionColumn.allCases.map(\.name)

    mutating func session(_ session: Session) {
        uuid(session.id)
        integer(session.startedAt.millisecondsSince1970)
        text(session.source)
        text(session.process.host)
        integer(session.process.processID)
        text(session.process.bootID)
        integer(session.process.startTicks)
        endRow()
    }
}
