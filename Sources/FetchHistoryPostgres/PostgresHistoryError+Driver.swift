import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

extension PostgresHistoryError {
    /// The sentence for what the driver or the server said, while doing
    /// `action`; `role` is the authenticated role, once there is one.
    init(_ error: any Error, settings: PostgresConnectionSettings, action: String, role: String? = nil) {
        let server = settings.displayName
        if let error = error as? PostgresHistoryError {
            self = error
            return
        }
        guard let error = error as? PSQLError else {
            self = .cannotConnect(server: server, reason: Self.reason(error, settings: settings))
            return
        }
        if let info = error.serverInfo, let state = info[.sqlState] {
            let message = info[.message] ?? "the server refused"
            switch state {
            case "28P01", "28000": self = .authenticationFailed(server: server)
            case "3D000": self = .noSuchDatabase(server: server, database: settings.database)
            case "42501": self = .permissionDenied(server: server, role: role ?? settings.user, action: action)
            case "25006": self = .readOnly(server: server)
            case "57P01", "57P02", "57P03": self = .connectionLost(server: server)
            default: self = .server(server: server, message: message, sqlState: state)
            }
            return
        }
        switch error.code {
        case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            // Before any answer a PostgreSQL server would give: whatever it is, it does not speak the protocol.
            self = role == nil ? .notPostgres(server: server) : .connectionLost(server: server)
        case .messageDecodingFailure, .unexpectedBackendMessage:
            self = .notPostgres(server: server)
        case .sslUnsupported:
            self = .cannotConnect(server: server, reason: "the server does not offer TLS, which sslmode \(settings.tlsMode.rawValue) requires")
        case .authMechanismRequiresPassword:
            self = .cannotConnect(server: server, reason: "the server asks for a password and none was given (URL, PGPASSWORD or ~/.pgpass)")
        case .connectionError, .failedToAddSSLHandler:
            self = .cannotConnect(server: server, reason: error.underlying.map { Self.reason($0, settings: settings) } ?? "the connection failed")
        default:
            self = .cannotConnect(server: server, reason: "\(error.code)")
        }
    }

    /// A short reason for a transport failure.
    private static func reason(_ error: any Error, settings: PostgresConnectionSettings) -> String {
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return "connection refused"
            case ENOENT: return "no server socket there"
            case EACCES: return "permission denied on the server's socket"
            case ETIMEDOUT: return "timed out"
            default: return error.description
            }
        }
        if let error = error as? NIOConnectionError {
            if error.dnsAAAAError != nil || error.dnsAError != nil { return "unknown host" }
            if let first = error.connectionErrors.first { return reason(first.error, settings: settings) }
            return "unknown host"
        }
        if error is ChannelError, case ChannelError.connectTimeout = error { return "timed out" }
        if let error = error as? NIOSSLError { return "TLS failed: \(error)" }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname, case .tcp(let host) = settings.host {
            return "TLS failed: the server's certificate is not for \(host) (sslmode verify-full checks the name; verify-ca does not)"
        }
        if let error = error as? BoringSSLError { return "TLS failed: the server's certificate was not trusted (\(error))" }
        return "\(error)"
    }
}
