// swift-tools-version: 6.2

import PackageDescription

// The library and the commands import FoundationEssentials, not Foundation:
// Foundation's ICU and its thousands of protocol conformances triple the
// time every command takes to start. Each file must import what it uses, so
// that a Foundation-only API can't slip in through another file's import.
let essentialsOnly: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

// `--static-swift-stdlib` links with `-export-dynamic`, which puts every
// Swift symbol of the executable in its dynamic symbol table (42,000 in
// fetch-history-http), and the Swift runtime's start-up `dladdr` walks that
// table: about a millisecond of every command. Nothing looks the
// executables' own symbols up at run time (the one `dlsym`, of libdispatch,
// finds nothing either way), so they export none.
let keepsItsSymbolsToItself: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux]))
]

let package = Package(
    name: "fetch-history",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "FetchHistory", targets: ["FetchHistory"]),
        .library(name: "FetchHistoryHTTP", targets: ["FetchHistoryHTTP"]),
        .library(name: "FetchHistoryTesting", targets: ["FetchHistoryTesting"]),
        .executable(name: "fetch-history", targets: ["fetch-history"]),
        .executable(name: "fetch-history-http", targets: ["fetch-history-http"]),
        .executable(name: "fetch-history-postgres", targets: ["fetch-history-postgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .executableTarget(
            name: "EmbedMigrationsTool",
            path: "Sources/EmbedMigrationsTool"
        ),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["EmbedMigrationsTool"]
        ),
        // The library, in layers the compiler keeps apart (CONTRIBUTING.md, "Layout"):
        // values; interchange, the report, the store and the view state on
        // values only. `FetchHistory` re-exports the five.
        .target(
            name: "FetchHistoryModel",
            swiftSettings: essentialsOnly
        ),
        .target(
            name: "FetchHistoryInterchange",
            dependencies: ["FetchHistoryModel"],
            swiftSettings: essentialsOnly
        ),
        // The HTML report, a page people open in a browser, drawn from fetches
        // (the file formats stay in Interchange).
        .target(
            name: "FetchHistoryReport",
            dependencies: ["FetchHistoryModel"],
            swiftSettings: essentialsOnly
        ),
        .target(
            name: "FetchHistoryStore",
            dependencies: ["CSQLite", "FetchHistoryModel"],
            swiftSettings: essentialsOnly,
            plugins: ["EmbedMigrations"]
        ),
        .target(
            name: "FetchHistoryViewState",
            dependencies: ["FetchHistoryModel", .product(name: "Tracing", package: "swift-distributed-tracing")],
            swiftSettings: essentialsOnly
        ),
        // Replay: a recorded session re-driven through the view state, on a
        // manual clock, and checked against its history.
        .target(
            name: "FetchHistoryReplay",
            dependencies: ["FetchHistoryModel", "FetchHistoryViewState"],
            swiftSettings: essentialsOnly
        ),
        .target(
            name: "FetchHistory",
            dependencies: [
                "FetchHistoryModel", "FetchHistoryInterchange", "FetchHistoryReport", "FetchHistoryStore", "FetchHistoryViewState",
                "FetchHistoryReplay",
            ],
            swiftSettings: essentialsOnly
        ),
        // A team's history on a PostgreSQL server, behind the same seam as
        // the store. SwiftNIO and Foundation come with postgres-nio: only the
        // companion links it, so commands on local files start as before.
        .target(
            name: "FetchHistoryPostgres",
            dependencies: [
                "FetchHistoryModel",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            plugins: ["EmbedMigrations"]
        ),
        // The HTTP source, once for every transport: the request, the size
        // cap, the status, reading the answer (NumberBody), the errors and
        // their words (HTTPFetchError), the redacted source. No networking:
        // each transport below only moves bytes (HTTPTransport).
        .target(
            name: "FetchHistoryHTTPCore",
            dependencies: ["FetchHistoryModel", "FetchHistoryInterchange"],
            swiftSettings: essentialsOnly
        ),
        // The HTTP source on URLSession, which on Linux links libcurl: the
        // product apps use. Re-exports the core (HTTPFetchError, NumberBody).
        .target(
            name: "FetchHistoryHTTP",
            dependencies: ["FetchHistory", "FetchHistoryHTTPCore"]
        ),
        // The test kit. It brings swift-clocks' TestClock along (re-exported),
        // and reports its failures through IssueReporting, with the support
        // library that makes them fail a Swift Testing test on Linux.
        .target(
            name: "FetchHistoryTesting",
            dependencies: [
                "FetchHistory",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        // The commands, shared by the two executables below.
        .target(
            name: "FetchHistoryCLI",
            dependencies: [
                "FetchHistory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: essentialsOnly
        ),
        // Every command, without libcurl, so that it starts in a few
        // milliseconds (built with --static-swift-stdlib, see docs/install.md); a
        // command that fetches over HTTP re-runs in fetch-history-http, one on
        // a postgres:// URL in fetch-history-postgres.
        .executableTarget(
            name: "fetch-history",
            dependencies: ["FetchHistoryCLI"],
            linkerSettings: keepsItsSymbolsToItself
        ),
        // The HTTP source on SwiftNIO (AsyncHTTPClient), for the commands:
        // waiting for an answer costs no processor time, where URLSession on
        // Linux polls libcurl (docs/commands.md, "Fetching over HTTP"). Not on
        // FetchHistoryHTTP, so fetch-history-http links neither URLSession nor libcurl.
        .target(
            name: "FetchHistoryAsyncHTTP",
            dependencies: [
                "FetchHistory",
                "FetchHistoryHTTPCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: essentialsOnly
        ),
        // The same commands with HTTP linked in: the HTTP source and pushes to
        // OpenTelemetry collectors. Without PostgreSQL's driver, which brings
        // all of Foundation (ICU, and some 3,000 protocol conformances that
        // every HTTP fetch's start-up would search): half the size.
        .executableTarget(
            name: "fetch-history-http",
            dependencies: ["FetchHistoryCLI", "FetchHistoryAsyncHTTP"],
            linkerSettings: keepsItsSymbolsToItself
        ),
        // The same commands with PostgreSQL's driver linked in: team histories.
        .executableTarget(
            name: "fetch-history-postgres",
            dependencies: ["FetchHistoryCLI", "FetchHistoryPostgres"],
            linkerSettings: keepsItsSymbolsToItself
        ),
        // Servers on 127.0.0.1 for the tests (HTTP, plain text where TLS is
        // expected), and the lock under which tests make descriptors and
        // start children. Not a product: only the test targets use it.
        .target(
            name: "LoopbackServers",
            path: "Tests/LoopbackServers"
        ),
        // The library's tests; the HTTP source's run on both transports.
        .testTarget(
            name: "FetchHistoryTests",
            dependencies: [
                "FetchHistory",
                "FetchHistoryHTTP",
                "FetchHistoryAsyncHTTP",
                "FetchHistoryTesting",
                "LoopbackServers",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The PostgreSQL backend's own parts (the server itself is tested
        // through the commands, in FetchHistoryCLITests).
        .testTarget(
            name: "FetchHistoryPostgresTests",
            dependencies: ["FetchHistoryPostgres"]
        ),
        // The test kit's own tests.
        .testTarget(
            name: "FetchHistoryTestingTests",
            dependencies: ["FetchHistoryTesting"]
        ),
        .testTarget(
            name: "FetchHistoryCLITests",
            dependencies: [
                "fetch-history",
                "fetch-history-http",
                "fetch-history-postgres",
                "FetchHistory",
                "FetchHistoryCLI",
                "FetchHistoryTesting",
                "LoopbackServers",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            // Read by path: the docs' example history (ReadmeExampleTests), the
            // JUnit schema, and the script that opens a report in a browser.
            exclude: ["Fixtures", "Browser"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
