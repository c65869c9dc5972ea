import FetchHistoryModel
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// A team's history on a PostgreSQL server, behind the commands' seam
/// (`HistoryReader`, `HistoryWriter`), so `list`, `stats`, `export`, … read
/// it as they read a local file, with the same values in the same orders.
///
/// One connection, opened by `connect(to:)` and closed by `close()`; its
/// calls run one at a time, each a statement or a transaction of its own.
/// The schema (`Migrations/postgres/`) is created or brought up to date as
/// the history connects, by whoever connects first.
///
/// ```swift
/// let history = try await PostgresHistory.connect(to: PostgresConnectionSettings(url: "postgres://ci@db/team"))
/// let failures = try await history.fetches(matching: HistoryFilter(status: .failed), limit: 20)
/// try await history.close()
/// ```
package final class PostgresHistory: Sendable {
    package let settings: PostgresConnectionSettings
    /// The role the server authenticated: what it stamps the rows this
    /// connection pushes with.
    package let role: String
    /// The history's own id, made with its schema: how a local file tells
    /// this history from another it pushed to.
    package let historyID: UUID
    let connection: PostgresConnection
    let logger: Logger
    /// One call at a time: a call's transaction must not interleave with another's.
    private let turn = AsyncLock()

    private init(settings: PostgresConnectionSettings, role: String, historyID: UUID, connection: PostgresConnection, logger: Logger) {
        self.settings = settings
        self.role = role
        self.historyID = historyID
        self.connection = connection
        self.logger = logger
    }

    /// Connects, creating or upgrading the schema if it is missing or older.
    package static func connect(
        to settings: PostgresConnectionSettings,
        logger: Logger = Logger(label: "fetch-history.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(PostgresHistoryError) -> PostgresHistory {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: try configuration(settings), id: 1, logger: logger)
        } catch {
            throw PostgresHistoryError(error, settings: settings, action: "connect")
        }
        do {
            let role = try await connection.query("SELECT session_user::text", logger: logger).collect().first?.decode(String.self) ?? settings.user
            do {
                try await PostgresMigrator().migrate(connection, logger: logger)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42501" {
                throw PostgresHistoryError.cannotCreateSchema(server: settings.displayName, role: role)
            }
            let historyID = try await connection.query("SELECT id FROM fetch_history.identity", logger: logger)
                .collect().first?.decode(UUID.self) ?? UUID()
            return PostgresHistory(settings: settings, role: role, historyID: historyID, connection: connection, logger: logger)
        } catch {
            try? await connection.close()
            if let error = error as? PostgresHistoryError { throw error }
            throw PostgresHistoryError(error, settings: settings, action: "read the team history", role: settings.user)
        }
    }

    /// Closes the connection.
    package func close() async {
        try? await connection.close()
    }

    /// Runs `body` alone on the connection, turning the driver's errors
    /// into `PostgresHistoryError`s that say what `action` was refused.
    func run<T: Sendable>(_ action: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        await turn.lock()
        defer { turn.unlock() }
        do {
            return try await untilTheConnectionCloses(body)
        } catch let error as PostgresHistoryError {
            throw error
        } catch let error as PSQLError {
            throw PostgresHistoryError(error, settings: settings, action: action, role: role)
        } catch let error as PostgresTransactionError {
            throw PostgresHistoryError(error.closureError ?? error.commitError ?? error.beginError ?? error, settings: settings, action: action, role: role)
        }
    }

    /// `body`'s result, or `connectionLost` as soon as the connection closes.
    ///
    /// postgres-nio 1.33.2 leaves a `COPY` waiting for good when the server
    /// goes away in the middle of it (measured: a push whose server was
    /// stopped with `-m immediate` never returned); so the work runs in a
    /// task of its own, raced against the connection's end. The work left
    /// waiting is abandoned: the command ends with the error.
    private func untilTheConnectionCloses<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let work = Task { try await body() }
        let settle = Once<Result<T, any Error>>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                settle.whenSet { continuation.resume(with: $0) }
                Task { settle.set(await work.result) }
                connection.closeFuture.whenComplete { [settings] _ in
                    settle.set(.failure(PostgresHistoryError.connectionLost(server: settings.displayName)))
                }
            }
        } onCancel: {
            work.cancel()
        }
    }

    /// Runs `body` in one transaction (`BEGIN` … `COMMIT`), rolled back if it throws.
    func transaction<T>(_ mode: String = "", _ body: () async throws -> T) async throws -> T {
        try await connection.query(PostgresQuery(unsafeSQL: "BEGIN" + mode), logger: logger)
        do {
            let result = try await body()
            try await connection.query("COMMIT", logger: logger)
            return result
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// The driver's configuration for `settings`: the endpoint, the
    /// credentials, TLS as `sslmode` asks, the time limit and the name the
    /// server shows for the connection.
    static func configuration(_ settings: PostgresConnectionSettings) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch settings.host {
        case .unixSocket(let folder):
            // libpq never uses TLS over a socket.
            configuration = PostgresConnection.Configuration(
                unixSocketPath: "\(folder)/.s.PGSQL.\(settings.port)", username: settings.user,
                password: settings.password, database: settings.database
            )
        case .tcp(let host):
            configuration = PostgresConnection.Configuration(
                host: host, port: settings.port, username: settings.user, password: settings.password,
                database: settings.database, tls: try tls(settings)
            )
        }
        if let timeout = settings.connectTimeout {
            configuration.options.connectTimeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000)
        }
        configuration.options.additionalStartupParameters = [("application_name", settings.applicationName ?? "fetch-history")]
        return configuration
    }

    private static func tls(_ settings: PostgresConnectionSettings) throws -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch settings.tlsMode {
        case .disable:
            return .disable
        case .allow, .prefer, .require:
            // Encrypted, but whoever answers is believed (libpq's require).
            tls.certificateVerification = .none
        case .verifyCA, .verifyFull:
            tls.certificateVerification = settings.tlsMode == .verifyFull ? .fullVerification : .noHostnameVerification
            // Set by the URL's reading for these modes (libpq's ~/.postgresql/root.crt by default).
            let roots = settings.tlsRootCertificates ?? ".postgresql/root.crt"
            if roots == "system" {
                tls.trustRoots = .default
            } else {
                guard FileManager.default.isReadableFile(atPath: roots) else {
                    throw PostgresHistoryError.cannotConnect(
                        server: settings.displayName,
                        reason: "sslmode \(settings.tlsMode.rawValue) needs the root certificate file \(roots), which cannot be read"
                    )
                }
                tls.trustRoots = .file(roots)
            }
        }
        let context = try NIOSSLContext(configuration: tls)
        return settings.tlsMode == .allow || settings.tlsMode == .prefer ? .prefer(context) : .require(context)
    }
}

/// A value set once, by whichever of several parties comes first; the
/// one who waits for it is called once, with it.
final class Once<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, waiter: (@Sendable (Value) -> Void)?)>((nil, nil))

    func set(_ value: Value) {
        let waiter = state.withLock { state -> (@Sendable (Value) -> Void)? in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?(value)
    }

    func whenSet(_ waiter: @escaping @Sendable (Value) -> Void) {
        let value = state.withLock { state -> Value? in
            if state.value == nil { state.waiter = waiter }
            return state.value
        }
        if let value { waiter(value) }
    }
}

/// A lock whose waiters suspend rather than block: one call on the
/// connection at a time.
final class AsyncLock: Sendable {
    private let state = Mutex(State())

    private struct State {
        var locked = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    func lock() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { state -> Bool in
                guard state.locked else {
                    state.locked = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if acquired { continuation.resume() }
        }
    }

    func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.locked = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
