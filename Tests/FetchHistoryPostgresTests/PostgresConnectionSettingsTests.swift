import FetchHistoryModel
import NIOCore
import Foundation
import Testing
@testable import FetchHistoryPostgres

@Suite struct PostgresConnectionSettingsTests {
    /// A system with `variables`, `files` for password files, and the user `alice`.
    static func system(_ variables: [String: String] = [:], files: [String: String] = [:]) -> PostgresConnectionSettings.System {
        PostgresConnectionSettings.System(
            environment: { variables[$0] }, passwordFile: { files[$0] }, userName: { "alice" }
        )
    }

    @Test func aFullURLIsReadPartByPart() throws {
        let settings = try PostgresConnectionSettings(
            url: "postgresql://ci%40team:p%3Ass%2Fw@db.example:6543/team%20history?sslmode=verify-full&sslrootcert=/etc/ca.crt&application_name=probe&connect_timeout=7",
            system: Self.system()
        )
        #expect(settings == PostgresConnectionSettings(
            host: .tcp("db.example"), port: 6543, user: "ci@team", password: "p:ss/w", database: "team history",
            tlsMode: .verifyFull, tlsRootCertificates: "/etc/ca.crt", applicationName: "probe", connectTimeout: .seconds(7)
        ))
        #expect(settings.displayName == "ci@team@db.example:6543/team history")
    }

    @Test(arguments: [
        ("postgres://h/db?sslmode=verify-full", "/home/alice/.postgresql/root.crt"),
        ("postgres://h/db?sslmode=verify-ca", "/home/alice/.postgresql/root.crt"),
        ("postgres://h/db?sslmode=verify-ca&sslrootcert=/etc/ca.crt", "/etc/ca.crt"),
        ("postgres://h/db?sslmode=require", nil),
        ("postgres://h/db", nil),
    ])
    func theModesThatCheckTheCertificateUseLibpqsRootsUnderHomeByDefault(url: String, roots: String?) throws {
        // Given a home folder in the environment
        // When the URL is read
        let settings = try PostgresConnectionSettings(url: url, system: Self.system(["HOME": "/home/alice"]))

        // Then verify-ca and verify-full name libpq's default file there, unless the URL names one
        #expect(settings.tlsRootCertificates == roots)
    }

    @Test(arguments: [
        ("postgres://", PostgresConnectionSettings.Host.unixSocket(folder: "/var/run/postgresql"), 5432, "alice", "alice"),
        ("postgres:///team?host=/run/pg", .unixSocket(folder: "/run/pg"), 5432, "alice", "team"),
        ("postgres://%2Frun%2Fpg:5433/team", .unixSocket(folder: "/run/pg"), 5433, "alice", "team"),
        ("postgres://[::1]:5433/db", .tcp("::1"), 5433, "alice", "db"),
        ("postgres://bob@localhost", .tcp("localhost"), 5432, "bob", "bob"),
        ("postgres://h/db?user=carol&port=7000&dbname=other", .tcp("h"), 7000, "carol", "other"),
    ])
    func whatTheURLLeavesOutComesFromLibpqsDefaults(url: String, host: PostgresConnectionSettings.Host, port: Int, user: String, database: String) throws {
        let settings = try PostgresConnectionSettings(url: url, system: Self.system())
        #expect(settings.host == host)
        #expect(settings.port == port)
        #expect(settings.user == user)
        #expect(settings.database == database)
        #expect(settings.tlsMode == .prefer)
        #expect(settings.password == nil)
    }

    @Test func theEnvironmentFillsWhatTheURLLeavesOutAndTheURLWins() throws {
        let variables = [
            "PGHOST": "env.example", "PGPORT": "5999", "PGUSER": "dave", "PGPASSWORD": "from-env", "PGDATABASE": "envdb",
            "PGSSLMODE": "require",
        ]
        let fromEnvironment = try PostgresConnectionSettings(url: "postgres://", system: Self.system(variables))
        let fromURL = try PostgresConnectionSettings(url: "postgres://erin:from-url@url.example:1234/urldb?sslmode=disable", system: Self.system(variables))
        #expect(fromEnvironment == PostgresConnectionSettings(
            host: .tcp("env.example"), port: 5999, user: "dave", password: "from-env", database: "envdb", tlsMode: .require
        ))
        #expect(fromURL == PostgresConnectionSettings(
            host: .tcp("url.example"), port: 1234, user: "erin", password: "from-url", database: "urldb", tlsMode: .disable
        ))
    }

    @Test func thePasswordFileGivesTheFirstMatchingLinesPassword() throws {
        let file = """
            # comments and malformed lines are skipped
            too:few:fields
            other.example:5432:team:ci:wrong
            db.example:*:team:ci:first\\:match\\\\
            *:*:*:*:catch-all
            localhost:5432:team:ci:socket
            /run/pg:5432:team:ci:own-folder
            """
        let home = Self.system(["HOME": "/home/alice"], files: ["/home/alice/.pgpass": file])
        let chosen = Self.system(["PGPASSFILE": "/elsewhere", "HOME": "/home/alice"], files: ["/elsewhere": "*:*:*:*:chosen-file"])
        #expect(try PostgresConnectionSettings(url: "postgres://ci@db.example:6000/team", system: home).password == "first:match\\")
        #expect(try PostgresConnectionSettings(url: "postgres://ci@nowhere/team", system: home).password == "catch-all")
        #expect(try PostgresConnectionSettings(url: "postgres://ci@db.example/team", system: chosen).password == "chosen-file")
        #expect(try PostgresConnectionSettings(url: "postgres://ci:given@db.example/team", system: home).password == "given")
        let socketsOnly = Self.system(["HOME": "/h"], files: ["/h/.pgpass": "localhost:5432:team:ci:socket\n/run/pg:5432:team:ci:own-folder\n"])
        #expect(try PostgresConnectionSettings(url: "postgres:///team?user=ci", system: socketsOnly).password == "socket")
        #expect(try PostgresConnectionSettings(url: "postgres:///team?user=ci&host=/run/pg", system: socketsOnly).password == "own-folder")
    }

    @Test(arguments: [
        ("mysql://h/db", PostgresURLError.notAServerURL),
        ("postgres://h%zz/db", .badPercentEncoding(part: "host")),
        ("postgres://h:99999/db", .badPort("99999")),
        ("postgres://h:port/db", .badPort("port")),
        ("postgres://h/db?colour=blue", .unknownParameter("colour")),
        ("postgres://h/db?sslmode=sometimes", .badParameter(name: "sslmode", value: "sometimes")),
        ("postgres://h/db?connect_timeout=soon", .badParameter(name: "connect_timeout", value: "soon")),
        ("postgres://h1,h2/db", .severalHosts),
    ])
    func aURLLibpqWouldRefuseIsRefusedWithoutRepeatingIt(url: String, error: PostgresURLError) {
        #expect(throws: error) { try PostgresConnectionSettings(url: url, system: Self.system()) }
        #expect(!error.description.contains(url))
    }

    @Test func aConnectTimeoutBelowTwoSecondsIsTwoAndZeroIsNone() throws {
        #expect(try PostgresConnectionSettings(url: "postgres://h/d?connect_timeout=1", system: Self.system()).connectTimeout == .seconds(2))
        #expect(try PostgresConnectionSettings(url: "postgres://h/d?connect_timeout=0", system: Self.system()).connectTimeout == nil)
    }

    @Test func theDisplayNameNeverHoldsThePassword() throws {
        let settings = try PostgresConnectionSettings(url: "postgres://u:hunter2@h/d", system: Self.system())
        #expect(settings.password == "hunter2")
        #expect(settings.displayName == "u@h:5432/d")
    }
}

@Suite struct PostgresMigrationTests {
    @Test func aFileIsSplitIntoItsStatementsKeepingQuotedAndDollarQuotedSemicolons() {
        let migration = PostgresMigration(version: 1, name: "t", sql: """
            -- a comment; with a semicolon
            CREATE TABLE a (b text DEFAULT ';');
            CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM 1; RETURN NULL;
            END
            $$;
            CREATE FUNCTION g() RETURNS int LANGUAGE sql AS $body$ SELECT 1; $body$;
            SELECT "odd;name" FROM a;
            """)
        #expect(migration.statements == [
            "CREATE TABLE a (b text DEFAULT ';')",
            "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n    PERFORM 1; RETURN NULL;\nEND\n$$",
            "CREATE FUNCTION g() RETURNS int LANGUAGE sql AS $body$ SELECT 1; $body$",
            "SELECT \"odd;name\" FROM a",
        ])
    }

    @Test func everyEmbeddedMigrationIsNumberedFromOneWithoutGaps() {
        #expect(PostgresMigration.embedded.map(\.version) == Array(1...PostgresMigration.embedded.count))
        #expect(!PostgresMigration.embedded.isEmpty)
    }
}

@Suite struct ServerPatternTests {
    @Test(arguments: [("ci-*", "ci-%"), ("100%", "100\\%"), ("a_b*", "a\\_b%"), (#"back\slash"#, #"back\\slash"#), ("*", "%"), ("**x", "%%x")])
    func aHostPatternIsALikePatternWithLikesOwnCharactersEscaped(pattern: String, like: String) {
        #expect(HostPattern(pattern).likePattern == like)
    }

    @Test func copyRowsEscapeWhatCOPYsTextFormatReadsAsSpecial() {
        var rows = CopyRows()
        rows.text("a\tb\nc\rd\\e")
        rows.null()
        rows.integer(Int64(-5))
        rows.text("")
        rows.endRow()
        #expect(String(buffer: rows.buffer) == "a\\tb\\nc\\rd\\\\e\t\\N\t-5\t\n")
    }
}

/// `RecordText`: a row value as PostgreSQL's `record_out` writes it, read back field by field.
@Suite struct RecordTextTests {
    @Test func everyKindOfFieldIsReadBackAsItWasWritten() throws {
        // NULL, an empty text, plain text, then what record_out quotes: a comma, doubled quotes,
        // a doubled backslash, parentheses, white space, a line break; then letters of several
        // bytes, booleans and integers
        let text = #"(,"",plain,"a,b","say ""hi""","back\\slash","(x)","two words","line"# + "\n" + #"two",日本,t,f,-42,9223372036854775807)"#
        let read = try RecordText.reading(text) { fields in
            (
                try fields.text(), try fields.text(), try fields.text(), try fields.text(), try fields.text(), try fields.text(),
                try fields.text(), try fields.text(), try fields.text(), try fields.text(), try fields.boolean(), try fields.boolean(),
                try fields.integer(), try fields.integer()
            )
        }
        #expect(read.0 == nil && read.1 == "" && read.2 == "plain" && read.3 == "a,b" && read.4 == #"say "hi""#)
        #expect(read.5 == #"back\slash"# && read.6 == "(x)" && read.7 == "two words" && read.8 == "line\ntwo" && read.9 == "日本")
        #expect(read.10 == true && read.11 == false && read.12 == -42 && read.13 == Int64.max)
    }

    @Test func aUUIDAndARequiredFieldAreReadOrRefused() throws {
        let id = UUID(uuidString: "5E550001-0000-4000-8000-000000000001")!
        #expect(try RecordText.reading("(5e550001-0000-4000-8000-000000000001,)") { [try $0.uuid(), try $0.uuid()] } == [id, nil])
        #expect(throws: MalformedRecord.self) { try RecordText.reading("(,x)") { try $0.required { try $0.uuid() } } }
    }

    @Test(arguments: ["", "x", "(", "(1", "(\"open,1)", "(12a)", "(99999999999999999999)", "(-)", "(maybe)", "(not-a-uuid)"])
    func aRecordThatIsNotOneIsRefused(text: String) {
        #expect(throws: MalformedRecord.self) {
            try RecordText.reading(text) { fields in
                switch text {
                case "(maybe)": _ = try fields.boolean()
                case "(not-a-uuid)": _ = try fields.uuid()
                case "(\"open,1)", "(": _ = try fields.text()
                default: _ = try fields.integer()
                }
            }
        }
    }
}
