import FoundationEssentials

extension PostgresConnectionSettings {
    /// What settings are read from besides the URL: the environment
    /// (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`,
    /// `PGSSLMODE`, `PGPASSFILE`, `HOME`), the password file and the
    /// system's user name. `System.current` reads this process's.
    package struct System: Sendable {
        package var environment: @Sendable (String) -> String?
        /// The text of the password file at a path, or nil when it is
        /// missing or readable by others than its owner (libpq ignores such a file).
        package var passwordFile: @Sendable (String) -> String?
        /// The name of the user running this process.
        package var userName: @Sendable () -> String?

        package init(
            environment: @escaping @Sendable (String) -> String?,
            passwordFile: @escaping @Sendable (String) -> String?,
            userName: @escaping @Sendable () -> String?
        ) {
            self.environment = environment
            self.passwordFile = passwordFile
            self.userName = userName
        }
    }

    /// Where libpq looks for a server's socket when no host is given (Debian's).
    package static let defaultSocketFolder = "/var/run/postgresql"

    /// Reads `url` as libpq would, completing it from `system`.
    package init(url: String, system: System = .current) throws(PostgresURLError) {
        // The scheme in any case, as RFC 3986 reads schemes (libpq 15 itself
        // takes lower case only, and reads `Postgres://…` as a database name).
        var rest = Substring(url)
        guard let schemeEnd = rest.firstRange(of: "://"),
              ["postgres", "postgresql"].contains(rest[..<schemeEnd.lowerBound].lowercased())
        else { throw .notAServerURL }
        rest = rest[schemeEnd.upperBound...]
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        // The last '@' ends the user and password: a password may hold '@' percent-encoded only, but be lenient.
        var userInfo: Substring?
        if let at = rest.lastIndex(of: "@") {
            userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
        }
        if rest.contains(",") { throw .severalHosts }

        var user: String?
        var password: String?
        if let userInfo {
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decoded(userInfo[..<colon], part: "user")
                password = try Self.decoded(userInfo[userInfo.index(after: colon)...], part: "password")
            } else {
                user = try Self.decoded(userInfo, part: "user")
            }
        }
        var hostText: String?
        var portText: String?
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            hostText = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portText = String(after.dropFirst()) }
        } else if let colon = rest.lastIndex(of: ":") {
            hostText = try Self.decoded(rest[..<colon], part: "host")
            portText = String(rest[rest.index(after: colon)...])
        } else if !rest.isEmpty {
            hostText = try Self.decoded(rest, part: "host")
        }
        var database = path.isEmpty ? nil : try Self.decoded(path, part: "database")

        var tlsMode: String?
        var rootCertificates: String?
        var applicationName: String?
        var timeout: String?
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let (name, value): (String, String)
            if let equals = pair.firstIndex(of: "=") {
                name = try Self.decoded(pair[..<equals], part: "parameters")
                value = try Self.decoded(pair[pair.index(after: equals)...], part: "parameters")
            } else {
                (name, value) = (try Self.decoded(pair, part: "parameters"), "")
            }
            switch name {
            case "sslmode": tlsMode = value
            case "sslrootcert": rootCertificates = value
            case "application_name": applicationName = value
            case "connect_timeout": timeout = value
            case "host": hostText = value
            case "port": portText = value
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            default: throw .unknownParameter(name)
            }
        }

        let environment = system.environment
        func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        let hostName = nonEmpty(hostText) ?? nonEmpty(environment("PGHOST")) ?? Self.defaultSocketFolder
        if hostName.contains(",") { throw .severalHosts }
        let portString = nonEmpty(portText) ?? nonEmpty(environment("PGPORT")) ?? "5432"
        guard let port = Int(portString), (1...65535).contains(port) else { throw .badPort(portString) }
        guard let userName = nonEmpty(user) ?? nonEmpty(environment("PGUSER")) ?? nonEmpty(system.userName()) else {
            throw .noUser
        }
        let databaseName = nonEmpty(database) ?? nonEmpty(environment("PGDATABASE")) ?? userName
        let modeText = nonEmpty(tlsMode) ?? nonEmpty(environment("PGSSLMODE")) ?? TLSMode.prefer.rawValue
        guard let mode = TLSMode(rawValue: modeText) else { throw .badParameter(name: "sslmode", value: modeText) }
        var connectTimeout: Duration?
        if let timeout = nonEmpty(timeout) ?? nonEmpty(environment("PGCONNECT_TIMEOUT")) {
            guard let seconds = Int(timeout) else { throw .badParameter(name: "connect_timeout", value: timeout) }
            // libpq: zero or less waits for ever; less than 2 s is 2 s.
            connectTimeout = seconds <= 0 ? nil : .seconds(max(seconds, 2))
        }
        let host: Host = hostName.hasPrefix("/") ? .unixSocket(folder: hostName) : .tcp(hostName)

        // libpq's default root certificates, for the modes that check them.
        if rootCertificates == nil, mode == .verifyCA || mode == .verifyFull {
            rootCertificates = (nonEmpty(environment("HOME")) ?? "") + "/.postgresql/root.crt"
        }
        self.init(
            host: host, port: port, user: userName, password: password, database: databaseName, tlsMode: mode,
            tlsRootCertificates: rootCertificates, applicationName: applicationName, connectTimeout: connectTimeout
        )
        if self.password == nil { self.password = nonEmpty(environment("PGPASSWORD")) }
        if self.password == nil, let file = Self.passwordFilePath(environment), let text = system.passwordFile(file) {
            self.password = PasswordFile(text: text).password(for: self)
        }
    }

    /// `PGPASSFILE`, else `~/.pgpass`.
    private static func passwordFilePath(_ environment: (String) -> String?) -> String? {
        if let file = environment("PGPASSFILE"), !file.isEmpty { return file }
        guard let home = environment("HOME"), !home.isEmpty else { return nil }
        return home + "/.pgpass"
    }

    /// `text` with its `%XX` escapes decoded.
    private static func decoded(_ text: Substring, part: String) throws(PostgresURLError) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue) else {
                throw .badPercentEncoding(part: part)
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .badPercentEncoding(part: part) }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// libpq's password file (`~/.pgpass`): lines of
/// `hostname:port:database:username:password`, `*` matching anything in
/// the first four fields, `\` escaping `:` and `\`; the first line that
/// matches gives the password. A server reached through the default
/// socket folder matches the host name `localhost`, through another socket
/// folder that folder's path (as libpq does).
struct PasswordFile {
    var entries: [[String]]

    init(text: String) {
        entries = text.split(whereSeparator: \.isNewline).compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            var fields: [String] = [""]
            var escaped = false
            for character in line {
                if escaped {
                    fields[fields.count - 1].append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == ":", fields.count < 5 {
                    fields.append("")
                } else {
                    fields[fields.count - 1].append(character)
                }
            }
            return fields.count == 5 ? fields : nil
        }
    }

    func password(for settings: PostgresConnectionSettings) -> String? {
        let host = switch settings.host {
        case .tcp(let name): name
        case .unixSocket(let folder): folder == PostgresConnectionSettings.defaultSocketFolder ? "localhost" : folder
        }
        let wanted = [host, String(settings.port), settings.database, settings.user]
        return entries.first { entry in
            zip(entry.prefix(4), wanted).allSatisfy { field, value in field == "*" || field == value }
        }?[4]
    }
}
