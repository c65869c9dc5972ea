// swift-tools-version: 6.1

import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder: "main" here, something
// else in another checkout.
let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// The benchmark suite of fetch-history: its own package, so the project's
// graph never carries GRDB. Release builds only (see run.sh).
let package = Package(
    name: "fetch-history-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The SQLite C API for the raw baselines. The project's CSQLite is a
        // target, not a product, so it cannot be imported from here.
        .systemLibrary(
            name: "BenchSQLite",
            path: "Sources/BenchSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .executableTarget(
            name: "fetch-history-bench",
            dependencies: [
                "BenchSQLite",
                .product(name: "FetchHistory", package: project),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
