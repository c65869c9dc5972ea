import Foundation
import LoopbackServers
import Synchronization
import Testing

/// A throwaway PostgreSQL server for this test process: made by `initdb` in
/// a temporary folder (as the `postgres` user through `runuser` when the
/// tests run as root, since initdb refuses root), listening on a Unix
/// socket in that folder and on 127.0.0.1 only, with TLS on a certificate
/// made here; stopped and removed when the process exits. Never the
/// system's cluster, never another address.
///
/// Each test takes a database of its own (`makeDatabase()`), so tests run
/// side by side on one server.
final class TestPostgresServer: Sendable {
    /// The server binaries (initdb, pg_ctl, postgres), or nil when PostgreSQL is not installed.
    static let binaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }()

    /// Whether these tests may run here. On CI (`CI` set) they must: a
    /// missing server fails `PostgresAvailabilityTests`, never skips.
    static let isAvailable = binaries != nil
    static let skipReason: Comment = "PostgreSQL's server is not installed (README's test command installs it); the team-history tests are skipped"

    /// The superuser and its password (TCP connections need it; the socket trusts).
    static let superuser = "postgres"
    let superuserPassword: String
    /// The folder holding the socket, the data, the log and the certificates.
    let folder: String
    let port: Int
    /// The certificate authority the server's certificate chains to, and another one it does not.
    let rootCertificate: String
    let otherRootCertificate: String
    private let binaries: String

    private static let started = Mutex<Task<TestPostgresServer, any Error>?>(nil)

    /// The server, started by the first test that asks.
    static func shared() async throws -> TestPostgresServer {
        let task = started.withLock { task in
            if let task { return task }
            let starting = Task { try await TestPostgresServer.start() }
            task = starting
            return starting
        }
        return try await task.value
    }

    /// Whether a commit survives a crash: the shared server trades it for speed
    /// (`fsync=off`), a server a test crashes keeps it.
    private let durable: Bool

    private init(folder: String, port: Int, binaries: String, durable: Bool, superuserPassword: String = "s3cret-\(UUID().uuidString.prefix(8))") {
        self.superuserPassword = superuserPassword
        self.durable = durable
        self.folder = folder
        self.port = port
        self.binaries = binaries
        rootCertificate = folder + "/root.crt"
        otherRootCertificate = folder + "/other-root.crt"
    }

    /// A server of its own, for a test that stops and starts it (the
    /// shared one serves other tests meanwhile); `stop()` it at the end.
    static func startPrivate() async throws -> TestPostgresServer {
        try await start(durable: true)
    }

    /// Stops this server and removes its folder.
    func stop() async {
        try? await runAsPostgres("pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Makes and starts a server. Its port is chosen before the server
    /// binds it, so something else may take it meanwhile (CI saw this: the
    /// shared server's start failed and every team test with it); then the
    /// server is started on another, a few times.
    static func start(durable: Bool = false, ports: some Sequence<Int> = FreePorts()) async throws -> TestPostgresServer {
        guard let binaries else { throw SandboxError("PostgreSQL's server is not installed") }
        let folder = FileManager.default.temporaryDirectory.appending(path: "fetch-history-pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var ports = ports.prefix(5).makeIterator()
        guard let first = ports.next() else { throw SandboxError("no port to start PostgreSQL on") }
        var server = TestPostgresServer(folder: folder, port: first, binaries: binaries, durable: durable)
        try await server.makeCertificates()
        try server.givePostgres(folder)
        try Data(server.superuserPassword.utf8).write(to: URL(fileURLWithPath: folder + "/password"))
        try server.givePostgres(folder + "/password")
        try await server.runAsPostgres("initdb", [
            "-D", folder + "/data", "-U", superuser, "--pwfile=" + folder + "/password", "-E", "UTF8", "--locale=C",
            "--auth-local=trust", "--auth-host=scram-sha-256",
        ])
        Self.stopAtExit(binaries: binaries, folder: folder)
        while true {
            do {
                try await server.restart()
                return server
            } catch {
                guard server.logSaysThePortIsTaken, let next = ports.next() else { throw error }
                try? FileManager.default.removeItem(atPath: folder + "/log")
                server = TestPostgresServer(folder: folder, port: next, binaries: binaries, durable: durable, superuserPassword: server.superuserPassword)
            }
        }
    }

    private var logSaysThePortIsTaken: Bool {
        let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? ""
        return log.contains("Address already in use")
    }

    /// A new, empty database for one test; its name.
    func makeDatabase() async throws -> String {
        let name = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try await psql("CREATE DATABASE \(name)", database: "postgres")
        return name
    }

    /// A URL for `database` over TCP as the superuser, with its password.
    func url(_ database: String, user: String = TestPostgresServer.superuser, password: String? = nil, query: String = "sslmode=disable") -> String {
        let secret = password ?? superuserPassword
        return "postgres://\(user):\(secret)@127.0.0.1:\(port)/\(database)" + (query.isEmpty ? "" : "?" + query)
    }

    /// A URL for `database` through the socket, where the superuser is trusted.
    func socketURL(_ database: String, user: String = TestPostgresServer.superuser) -> String {
        "postgres:///\(database)?host=\(folder)&port=\(port)&user=\(user)"
    }

    /// Runs `sql` through psql on the socket as the superuser; its output.
    @discardableResult
    func psql(_ sql: String, database: String, user: String = TestPostgresServer.superuser) async throws -> String {
        let result = try await ExternalCommand.run("/usr/bin/psql", [
            "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", String(port), "-U", user, "-d", database, "-c", sql,
        ])
        guard result.succeeded else { throw SandboxError("psql failed: \(result)") }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server at once, as a crash or `kill -9` of the postmaster would (`-m immediate`).
    func stopImmediately() async throws {
        try await runAsPostgres("pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// Starts it (again, after `stopImmediately()`).
    func restart() async throws {
        let speed = durable ? "" : "-c fsync=off -c synchronous_commit=off "
        try await runAsPostgres("pg_ctl", [
            "-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "60", "start", "-o",
            "-k \(folder) -h 127.0.0.1 -p \(port) \(speed)-c ssl=on "
                + "-c ssl_cert_file=\(folder)/server.crt -c ssl_key_file=\(folder)/server.key -c max_connections=60",
        ])
    }

    // MARK: - Setting up

    private static var isRoot: Bool { geteuid() == 0 }

    /// Runs one of the server's programs: as `postgres` when the tests run
    /// as root. Every descriptor above 2 is closed first and the output goes
    /// to a file: the server `pg_ctl start` leaves running would otherwise
    /// inherit this process's descriptors, and Foundation's `Process` then
    /// never sees the program exit (measured: the wait timed out with
    /// `pg_ctl` long gone).
    private func runAsPostgres(_ program: String, _ arguments: [String]) async throws {
        let command = ([binaries + "/" + program] + arguments).map(Self.shellQuoted).joined(separator: " ")
        let output = folder + "/\(program).out"
        let closeInherited = #"for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done 2>/dev/null; "#
        let shell = closeInherited + "exec \(command) < /dev/null > \(Self.shellQuoted(output)) 2>&1"
        let result = Self.isRoot
            ? try await ExternalCommand.run("/usr/sbin/runuser", ["-u", "postgres", "--", "/bin/bash", "-c", shell], limit: .seconds(120))
            : try await ExternalCommand.run("/bin/bash", ["-c", shell], limit: .seconds(120))
        guard result.succeeded else {
            let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? ""
            throw SandboxError("\(program) failed: \(result)\n\(said)\n--- server log:\n\(log)")
        }
    }

    private static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Makes `path` the `postgres` user's when the tests run as root.
    private func givePostgres(_ path: String) throws {
        guard Self.isRoot, let user = getpwnam("postgres") else { return }
        guard chown(path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else { throw SandboxError("chown \(path) failed") }
    }

    /// A certificate authority, a server certificate it signed for
    /// 127.0.0.1 and localhost, and a second authority that signed nothing.
    private func makeCertificates() async throws {
        func openssl(_ arguments: [String]) async throws {
            let result = try await ExternalCommand.run("/usr/bin/openssl", arguments)
            guard result.succeeded else { throw SandboxError("openssl failed: \(result)") }
        }
        for name in ["root", "other-root"] {
            try await openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=fetch-history test \(name)",
                "-keyout", "\(folder)/\(name).key", "-out", "\(folder)/\(name).crt",
            ])
        }
        try await openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
            "-keyout", "\(folder)/server.key", "-out", "\(folder)/server.csr",
        ])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: "\(folder)/san.ext", atomically: true, encoding: .utf8)
        try await openssl([
            "x509", "-req", "-in", "\(folder)/server.csr", "-CA", "\(folder)/root.crt", "-CAkey", "\(folder)/root.key",
            "-CAcreateserial", "-days", "2", "-extfile", "\(folder)/san.ext", "-out", "\(folder)/server.crt",
        ])
        // The server refuses a key others may read.
        chmod("\(folder)/server.key", 0o600)
        for file in ["server.key", "server.crt"] { try givePostgres("\(folder)/\(file)") }
    }

    /// What the process runs at exit: every server stopped and its folder
    /// removed (one already stopped is left as it is).
    private static let cleanup = Mutex<[String]>([])

    private static func stopAtExit(binaries: String, folder: String) {
        let stop = "[ -d \(folder)/data ] && \(binaries)/pg_ctl -D \(folder)/data -m immediate -w stop >/dev/null 2>&1"
        let first = cleanup.withLock { commands in
            commands.append((isRoot ? "runuser -u postgres -- sh -c '\(stop)'" : stop) + "; rm -rf \(folder)")
            return commands.count == 1
        }
        guard first else { return }
        atexit {
            let script = TestPostgresServer.cleanup.withLock { $0.joined(separator: "; ") }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
            try? process.run()
            process.waitUntilExit()
        }
    }
}

/// On CI the team-history tests must run: a missing PostgreSQL fails here.
@Suite struct PostgresAvailabilityTests {
    @Test(.enabled(if: TestPostgresServer.isAvailable, TestPostgresServer.skipReason))
    func aServerWhosePortIsTakenBeforeItStartsStartsOnAnother() async throws {
        // Given a port something else listens on by the time the server starts
        var ports = FreePorts()
        let choice = ports.next()
        let taken = try #require(choice)
        let listener = try #require(FreePorts.bound(to: taken))
        defer { close(listener) }
        try #require(listen(listener, 1) == 0)

        // When a server is started with that port as its first choice
        let server = try await TestPostgresServer.start(ports: [taken] + Array(ports.prefix(1)))
        defer { Task { await server.stop() } }

        // Then it listens on the next one, and answers there
        #expect(server.port != taken)
        #expect(!FreePorts.isFree(server.port))
        #expect(try await server.psql("SELECT 40 + 2", database: "postgres") == "42")
    }

    @Test func theTeamHistoryTestsRunOnCI() {
        let onCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false
        if onCI {
            #expect(TestPostgresServer.isAvailable, "PostgreSQL's server is not installed on CI: README's test command installs it")
        } else if !TestPostgresServer.isAvailable {
            print("warning: \(TestPostgresServer.skipReason)")
        }
        #expect(!onCI || TestPostgresServer.binaries != nil)
    }
}
