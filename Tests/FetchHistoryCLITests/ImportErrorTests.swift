import Foundation
import Testing

/// What `import` says when its input cannot be imported: the input named as
/// the user gave it (a path, or "standard input" for `-`), in one line, and
/// no database left behind.
@Suite("import names its input in an error")
struct ImportErrorTests {
    @Test func importingAFolderSaysItIsAFolderAndCreatesNothing() async throws {
        // Given an empty sandbox, and a folder
        let sandbox = try Sandbox()
        let folder = sandbox.home.path

        // When the folder is given to import
        let result = try await sandbox.run("import", folder)

        // Then it exits 1 with one line naming the folder, and no database is created
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: cannot read \(folder): it is a directory\n", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test func aRefusedRecordOnStandardInputIsSaidToComeFromStandardInput() async throws {
        // Given an empty sandbox
        let sandbox = try Sandbox()

        // When `import -` reads a record without an id
        let result = try await sandbox.run("import", "-", stdin: Data("{\"session\":\"x\"}\n".utf8))

        // Then the error names standard input (not "-"), says nothing was imported, and no database is left
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: standard input: record 1 (line 1, column 1): 'id' is missing; nothing was imported\n", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }
}
