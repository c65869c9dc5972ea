// swift-tools-version: 6.0

import PackageDescription

let package = Package(
    name: "fetch-history",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "FetchHistory", targets: ["FetchHistory"]),
        .library(name: "FetchHistoryTesting", targets: ["FetchHistoryTesting"]),
        .executable(name: "fetch-history", targets: ["fetch-history"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
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
        .target(
            name: "FetchHistory",
            dependencies: ["CSQLite"],
            plugins: ["EmbedMigrations"]
        ),
        .target(
            name: "FetchHistoryTesting",
            dependencies: ["FetchHistory"]
        ),
        .executableTarget(
            name: "fetch-history",
            dependencies: [
                "FetchHistory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "FetchHistoryTests",
            dependencies: [
                "FetchHistory",
                "FetchHistoryTesting",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        .testTarget(
            name: "FetchHistoryCLITests",
            dependencies: [
                "fetch-history",
                "FetchHistory",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
