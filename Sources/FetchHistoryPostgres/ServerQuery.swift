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

/// The columns a fetch is read from, in the order every SELECT of fetches
/// lists them (`selectList`); rows are read by these names.
enum ServerFetchColumn: Int, CaseIterable {
    case id, sessionID, source, startedAt, endedAt, durationMs, outcome, cancelReason, value, error
    case httpStatus, responseBytes, tappedAt, timeoutMs, endedBy, endedByAt, answerValue, answerError, host

    var expression: String {
        switch self {
        case .id: "id"
        case .sessionID: "session_id"
        case .source: "source"
        case .startedAt: "started_at"
        case .endedAt: "ended_at"
        case .durationMs: "duration_ms"
        case .outcome: "outcome"
        case .cancelReason: "cancel_reason"
        // The JSON exactly as it was pushed: `json` keeps its text.
        case .value: "value::text"
        case .error: "error"
        case .httpStatus: "http_status"
        case .responseBytes: "response_bytes"
        case .tappedAt: "tapped_at"
        case .timeoutMs: "timeout_ms"
        case .endedBy: "ended_by"
        case .endedByAt: "ended_by_at"
        case .answerValue: "answer_value::text"
        case .answerError: "answer_error"
        case .host: "host"
        }
    }

    static let selectList = allCases.map(\.expression).joined(separator: ", ")
}

/// The columns a session is read from.
enum ServerSessionColumn: Int, CaseIterable {
    case id, startedAt, source, host, processID, bootID, processStarted

    var expression: String {
        switch self {
        case .id: "id"
        case .startedAt: "started_at"
        case .source: "source"
        case .host: "host"
        case .processID: "process_id"
        case .bootID: "boot_id"
        case .processStarted: "process_started"
        }
    }

    static let selectList = allCases.map(\.expression).joined(separator: ", ")
}

extension Fetch {
    /// A row of `ServerFetchColumn`s.
    init(serverRow row: PostgresRow) throws {
        typealias Column = ServerFetchColumn
        let cells = row.makeRandomAccess()
        func value<T: PostgresDecodable>(_ column: Column, _: T.Type = T.self) throws -> T { try cells[column.rawValue].decode(T.self) }
        let outcome: FetchOutcome? = switch FetchStatus(rawValue: try value(.outcome, String.self)) ?? .failed {
        case .running: nil
        case .succeeded: .succeeded(FetchValue(validJSON: try value(.value, String?.self) ?? "null"))
        case .failed: .failed(try value(.error, String?.self) ?? "")
        case .cancelled: .cancelled(CancelReason(rawValue: try value(.cancelReason, String?.self) ?? "") ?? .user)
        case .timedOut: .timedOut
        case .interrupted: .interrupted
        }
        var script: FetchScript?
        if let tappedAt = try value(.tappedAt, Int64?.self) {
            var end: FetchScript.End?
            if let name = try value(.endedBy, String?.self), let at = try value(.endedByAt, Int64?.self),
               let cause = FetchEnd.Cause(
                   name: name, value: try value(.answerValue, String?.self).map(FetchValue.init(validJSON:)),
                   error: try value(.answerError, String?.self)
               ) {
                end = FetchScript.End(cause: cause, at: Timestamp(millisecondsSince1970: at))
            }
            script = FetchScript(
                tappedAt: Timestamp(millisecondsSince1970: tappedAt), timeoutMilliseconds: try value(.timeoutMs, Int64?.self), end: end
            )
        }
        self.init(
            id: try value(.id), sessionID: try value(.sessionID), source: try value(.source),
            startedAt: Timestamp(millisecondsSince1970: try value(.startedAt)),
            endedAt: try value(.endedAt, Int64?.self).map(Timestamp.init(millisecondsSince1970:)),
            durationMilliseconds: try value(.durationMs), outcome: outcome,
            response: try value(.httpStatus, Int?.self).map { SourceResponse(status: $0, bytes: Int(try value(.responseBytes, Int64?.self) ?? 0)) },
            script: script, host: try value(.host)
        )
    }
}

extension Session {
    /// A row of `ServerSessionColumn`s.
    init(serverRow row: PostgresRow) throws {
        typealias Column = ServerSessionColumn
        let cells = row.makeRandomAccess()
        func value<T: PostgresDecodable>(_ column: Column, _: T.Type = T.self) throws -> T { try cells[column.rawValue].decode(T.self) }
        self.init(
            id: try value(.id), startedAt: Timestamp(millisecondsSince1970: try value(.startedAt)), source: try value(.source),
            process: ProcessIdentity(
                host: try value(.host), processID: Int32(try value(.processID, Int.self)),
                bootID: try value(.bootID), startTicks: try value(.processStarted)
            )
        )
    }
}
