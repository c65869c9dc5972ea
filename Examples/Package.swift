// swift-tools-version: 6.0

import PackageDescription

// An app's package, as a user would write it: its own view states, client
// protocols and value types, using fetch-history through its products only.
let package = Package(
    name: "Examples",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ExampleViewStates", targets: ["ExampleViewStates"]),
    ],
    dependencies: [
        // A user writes `.package(url: "https://github.com/<owner>/fetch-history", from: "0.1.0")`.
        .package(name: "fetch-history", path: ".."),
        // For the test of its spans: swift-distributed-tracing's in-memory tracer.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .target(
            name: "ExampleViewStates",
            dependencies: [.product(name: "FetchHistory", package: "fetch-history")]
        ),
        // Records a User session into a history file, for the command to read.
        .executableTarget(
            name: "user-session",
            dependencies: ["ExampleViewStates", .product(name: "FetchHistory", package: "fetch-history")]
        ),
        .testTarget(
            name: "ExampleViewStatesTests",
            dependencies: [
                "ExampleViewStates",
                .product(name: "FetchHistoryTesting", package: "fetch-history"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
