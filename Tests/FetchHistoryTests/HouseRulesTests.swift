import Foundation
import Testing

/// Rules of the sources that no compiler here checks: what would only break
/// on a machine this project has not got (an Apple platform), or what a
/// user could come to depend on by accident.
@Suite("House rules of the sources")
struct HouseRulesTests {
    /// The package's `Sources/`, found from this file.
    static let sources = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Sources")

    /// Every Swift file under `Sources/`, by its path relative to it, with its lines.
    static func swiftFiles() throws -> [(path: String, lines: [Substring])] {
        let root = sources.path + "/"
        guard let walker = FileManager.default.enumerator(atPath: sources.path) else { throw CocoaError(.fileNoSuchFile) }
        return try walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { path in
            (path, try String(contentsOfFile: root + path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false))
        }
    }

    @Test func everySystemModuleIsImportedBehindCanImportInAPlatformFile() throws {
        // Given every source file
        let files = try Self.swiftFiles()
        #expect(files.count > 100, "found \(files.count) files under \(Self.sources.path)")

        // When the imports of the C library's modules are looked at
        var unguarded: [String] = []
        var outsidePlatform: [String] = []
        for (path, lines) in files {
            for (index, line) in lines.enumerated() where ["import Glibc", "import Darwin", "import Musl"].contains(line.trimmingCharacters(in: .whitespaces)) {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                let previous = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                if !previous.hasSuffix("canImport(\(module))") { unguarded.append("\(path):\(index + 1)") }
                if !path.contains("/Platform/") { outsidePlatform.append("\(path):\(index + 1)") }
            }
        }

        // Then each is guarded by `#if canImport(…)` of itself, in a Platform/ folder
        #expect(unguarded.isEmpty, "unguarded: \(unguarded)")
        #expect(outsidePlatform.isEmpty, "outside Platform/: \(outsidePlatform)")
    }

    /// The modules no product offers: the commands, the PostgreSQL backend,
    /// the build tool. What they share with the package is `package`.
    static let unoffered = ["FetchHistoryCLI/", "FetchHistoryPostgres/", "FetchHistoryAsyncHTTP/", "EmbedMigrationsTool/", "fetch-history/", "fetch-history-http/", "fetch-history-postgres/"]

    @Test func modulesThatAreNoProductDeclareNothingPublic() throws {
        // Given the files of the modules no product offers
        let files = try Self.swiftFiles().filter { file in Self.unoffered.contains { file.path.hasPrefix($0) } }
        #expect(files.count > 50, "found \(files.count) files")

        // When their declarations are read
        let publics = files.flatMap { file in
            file.lines.enumerated().filter { _, line in
                let code = line.trimmingCharacters(in: .whitespaces)
                return !code.hasPrefix("//") && code.split(separator: " ").contains { $0 == "public" || $0.hasPrefix("public(") }
            }.map { index, _ in "\(file.path):\(index + 1)" }
        }

        // Then none is public: a user cannot come to depend on it
        #expect(publics.isEmpty, "\(publics)")
    }
}
