import FetchHistoryModel
import PostgresNIO

/// A statement made of fixed fragments, with every value bound as a
/// parameter (`$1`, `$2`, …), never spliced into the text.
struct ServerQuery {
    private(set) var sql = ""
    private(set) var binds = PostgresBindings()

    init(_ sql: String = "") {
        self.sql = sql
    }

    /// Appends a fixed fragment.
    mutating func append(_ fragment: String) {
        sql += fragment
    }

    /// Binds `value` and returns its placeholder, to be put in the text.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: binds) }
}

extension StoredFetch.Column {
    /// Every column, in order, as one row value in text (`RecordText`): what a SELECT of
    /// fetches lists. The JSON columns come as their text, exactly as it was pushed (`json`
    /// keeps it).
    static let serverSelectList = "ROW(" + allCases.map(\.name).joined(separator: ", ") + ")::text"
}

extension StoredSessionColumn {
    static let serverSelectList = allCases.map(\.name).joined(separator: ", ")
}

extension Fetch {
    /// A row of `StoredFetch.Column.serverSelectList`.
    init(serverRow row: PostgresRow) throws {
        self = try RecordText.reading(try row.decode(String.self)) { fields in
            var stored = StoredFetch(
                id: try fields.required { try $0.uuid() }, sessionID: try fields.required { try $0.uuid() },
                source: try fields.required { try $0.text() }, startedAt: try fields.required { try $0.integer() }, host: ""
            )
            stored.endedAt = try fields.integer()
            stored.durationMs = try fields.integer()
            stored.outcome = FetchStatus(rawValue: try fields.required { try $0.text() }) ?? .failed
            stored.cancelReason = try fields.text().flatMap(CancelReason.init(rawValue:))
            stored.value = try fields.text().map(FetchValue.init(validJSON:))
            stored.error = try fields.text()
            stored.httpStatus = try fields.integer()
            stored.responseBytes = try fields.integer()
            stored.tappedAt = try fields.integer()
            stored.timeoutMs = try fields.integer()
            stored.endedBy = try fields.text()
            stored.endedByAt = try fields.integer()
            stored.answerValue = try fields.text().map(FetchValue.init(validJSON:))
            stored.answerError = try fields.text()
            stored.host = try fields.required { try $0.text() }
            stored.responseBody = try fields.text()
            stored.responseContentType = try fields.text()
            stored.responseBodyTruncated = try fields.boolean()
            return stored.fetch()
        }
    }
}

extension Session {
    /// A row of `StoredSessionColumn.serverSelectList`.
    init(serverRow row: PostgresRow) throws {
        typealias Column = StoredSessionColumn
        let cells = row.makeRandomAccess()
        func value<T: PostgresDecodable>(_ column: Column, _: T.Type = T.self) throws -> T { try cells[Int(column.rawValue)].decode(T.self) }
        self.init(
            id: try value(.id), startedAt: Timestamp(millisecondsSince1970: try value(.startedAt)), source: try value(.source),
            process: ProcessIdentity(
                host: try value(.host), processID: Int32(try value(.processID, Int.self)),
                bootID: try value(.bootID), startTicks: try value(.processStarted)
            )
        )
    }
}
