import FoundationEssentials

/// Where and how to reach a PostgreSQL server, read the way libpq reads a
/// connection URI (postgresql.org/docs/current/libpq-connect.html):
/// `postgres://` or `postgresql://`, then `user:password@host:port/database`,
/// each part optional and percent-decoded, then query parameters. What the
/// URL leaves out comes from libpq's environment variables, then from
/// libpq's defaults; a password missing from both comes from the password
/// file.
///
/// ```swift
/// let settings = try PostgresConnectionSettings(url: "postgres://ci@db.example/team?sslmode=verify-full")
/// settings.displayName  // "ci@db.example:5432/team"
/// ```
package struct PostgresConnectionSettings: Hashable, Sendable {
    /// How the server is reached.
    package enum Host: Hashable, Sendable {
        /// A host name or IP address, over TCP.
        case tcp(String)
        /// The folder holding the server's socket (`.s.PGSQL.<port>`).
        case unixSocket(folder: String)
    }

    /// libpq's `sslmode`.
    package enum TLSMode: String, Hashable, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    package var host: Host
    package var port: Int
    package var user: String
    /// Never shown: `displayName` and every error leave it out.
    package var password: String?
    package var database: String
    package var tlsMode: TLSMode
    /// The certificates a server's must chain to (`sslrootcert`), for
    /// `verify-ca` and `verify-full`: read from a URL in those modes, it is
    /// libpq's `~/.postgresql/root.crt` when the URL names none.
    package var tlsRootCertificates: String?
    package var applicationName: String?
    /// How long connecting may take (`connect_timeout`, whole seconds).
    package var connectTimeout: Duration?

    /// `user@host:port/database`: the server as errors and output name it,
    /// never with a password.
    package var displayName: String {
        let place = switch host {
        case .tcp(let name): name.contains(":") ? "[\(name)]:\(port)" : "\(name):\(port)"
        case .unixSocket(let folder): "\(folder)/.s.PGSQL.\(port)"
        }
        return "\(user)@\(place)/\(database)"
    }

    package init(
        host: Host, port: Int = 5432, user: String, password: String? = nil, database: String,
        tlsMode: TLSMode = .prefer, tlsRootCertificates: String? = nil, applicationName: String? = nil,
        connectTimeout: Duration? = nil
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.tlsMode = tlsMode
        self.tlsRootCertificates = tlsRootCertificates
        self.applicationName = applicationName
        self.connectTimeout = connectTimeout
    }
}

/// Why a PostgreSQL URL was refused. The URL itself is never repeated: it
/// may hold a password.
package enum PostgresURLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not `postgres://…` or `postgresql://…`.
    case notAServerURL
    /// A `%` not followed by two hexadecimal digits, or bytes that are not UTF-8.
    case badPercentEncoding(part: String)
    case badPort(String)
    /// A query parameter libpq does not take here.
    case unknownParameter(String)
    case badParameter(name: String, value: String)
    /// Several hosts (`host1,host2`), which libpq tries in turn: not supported.
    case severalHosts
    /// Neither the URL, the environment nor the system names a user.
    case noUser

    package var description: String {
        switch self {
        case .notAServerURL: "a server is named by a postgres:// or postgresql:// URL"
        case .badPercentEncoding(let part): "the URL's \(part) has a '%' that is not followed by two hexadecimal digits"
        // Only digits are repeated: a password holding '/' puts its end where the port goes.
        case .badPort(let port) where !port.isEmpty && port.utf8.allSatisfy({ (48...57).contains($0) }): "'\(port.prefix(20))' is not a port number (1-65535)"
        case .badPort: "the port is not a number (1-65535)"
        case .unknownParameter(let name):
            "the URL's parameter '\(name.prefix(40))' is not one of sslmode, sslrootcert, application_name, connect_timeout, host, port, user, dbname"
        case .badParameter(let name, let value):
            switch name {
            case "sslmode": "sslmode '\(value.prefix(20))' is not one of disable, allow, prefer, require, verify-ca, verify-full"
            default: "\(name) '\(value.prefix(20))' is not a whole number of seconds"
            }
        case .severalHosts: "the URL names several hosts; name one"
        case .noUser: "no user name: put one in the URL (postgres://USER@host/db) or set PGUSER"
        }
    }
}
