import FetchHistoryModel
import PostgresNIO

/// A failure of a team's history on a PostgreSQL server: a value to switch
/// over, phrased (`description`) so the commands can print it as one
/// sentence. The server is named by `PostgresConnectionSettings.displayName`
/// and no error ever holds the password.
package enum PostgresHistoryError: Error, Sendable, CustomStringConvertible {
    /// The URL (or what the environment added to it) could not be read.
    case badURL(PostgresURLError)
    /// No connection: the host is unknown or refused it, the socket is
    /// missing, the time ran out, TLS failed; `reason` says which.
    case cannotConnect(server: String, reason: String)
    /// The server refused the user or the password.
    case authenticationFailed(server: String)
    /// The server has no database of that name.
    case noSuchDatabase(server: String, database: String)
    /// What answered closed the connection, or said something PostgreSQL never says.
    case notPostgres(server: String)
    /// The schema is newer than this version of fetch-history knows.
    case newerSchema(found: Int, supported: Int)
    /// The schema is missing or older, and this role may not change it.
    case cannotCreateSchema(server: String, role: String)
    /// The role may not do what was asked (`action`: "delete fetches", …).
    case permissionDenied(server: String, role: String, action: String)
    /// The server only reads (a standby, or `default_transaction_read_only`).
    case readOnly(server: String)
    /// The connection broke in the middle (the server stopped, the network went).
    case connectionLost(server: String)
    /// Any other refusal, with the server's own words and SQLSTATE.
    case server(server: String, message: String, sqlState: String)

    package var description: String {
        switch self {
        case .badURL(let error): "\(error)"
        case .cannotConnect(let server, let reason): "cannot connect to \(server): \(reason)"
        case .authenticationFailed(let server): "\(server) refused the user name or password"
        case .noSuchDatabase(let server, let database): "\(server): the server has no database '\(database)'"
        case .notPostgres(let server): "\(server) closed the connection without answering as a PostgreSQL server"
        case .newerSchema(let found, let supported):
            "the server's history has schema version \(found), newer than this fetch-history knows (\(supported)); upgrade fetch-history"
        case .cannotCreateSchema(let server, let role):
            "\(server): the team history's tables are missing or out of date and role '\(role)' may not change them; run any fetch-history command against it once as the database's owner"
        case .permissionDenied(let server, let role, let action):
            "\(server): role '\(role)' may not \(action)"
        case .readOnly(let server): "\(server) only reads: it cannot take fetches"
        case .connectionLost(let server): "the connection to \(server) was lost"
        case .server(let server, let message, let sqlState): "\(server): \(message) (SQLSTATE \(sqlState))"
        }
    }
}
