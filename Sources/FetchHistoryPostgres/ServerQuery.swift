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
    /// How the server selects the column: its name, and the JSON columns
    /// as their text, exactly as it was pushed (`json` keeps it).
    var serverExpression: String {
        switch self {
        case .value, .answerValue: name + "::text"
        default: name
        }
    }

    /// Every column, in order, as a SELECT of fetches lists them.
    static let serverSelectList = allCases.map(\.serverExpression).joined(separator: ", ")
}

extension StoredSessionColumn {
    static let serverSelectList = allCases.map(\.name).joined(separator: ", ")
}

extension Fetch {
    /// A row of `StoredFetch.Column.serverSelectList`.
    init(serverRow row: PostgresRow) throws {
        typealias Column = StoredFetch.Column
        let cells = row.makeRandomAccess()
        func value<T: PostgresDecodable>(_ column: Column, _: T.Type = T.self) throws -> T { try cells[Int(column.rawValue)].decode(T.self) }
        var stored = StoredFetch(
            id: try value(.id), sessionID: try value(.sessionID), source: try value(.source), startedAt: try value(.startedAt),
            host: try value(.host)
        )
        stored.endedAt = try value(.endedAt)
        stored.durationMs = try value(.durationMs)
        stored.outcome = FetchStatus(rawValue: try value(.outcome, String.self)) ?? .failed
        stored.cancelReason = try value(.cancelReason, String?.self).flatMap(CancelReason.init(rawValue:))
        stored.value = try value(.value, String?.self).map(FetchValue.init(validJSON:))
        stored.error = try value(.error)
        stored.httpStatus = try value(.httpStatus, Int?.self).map(Int64.init)
        stored.responseBytes = try value(.responseBytes)
        stored.tappedAt = try value(.tappedAt)
        stored.timeoutMs = try value(.timeoutMs)
        stored.endedBy = try value(.endedBy)
        stored.endedByAt = try value(.endedByAt)
        stored.answerValue = try value(.answerValue, String?.self).map(FetchValue.init(validJSON:))
        stored.answerError = try value(.answerError)
        stored.responseBody = try value(.responseBody)
        stored.responseContentType = try value(.responseContentType)
        stored.responseBodyTruncated = try value(.responseBodyTruncated)
        self = stored.fetch()
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
