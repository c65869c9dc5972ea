import FetchHistory
import Foundation
import Testing

/// Each way a file can fail to open is a value an app can switch over, and
/// the file is left as it was.
@Suite struct OpenFailureTests {
    enum Case: String, CaseIterable, Sendable {
        case missing, missingForWriting, empty, directory, text, foreign, newer, readOnlyFile, readOnlyFolder
    }

    /// Makes the case's file in `folder`; returns its path, the access to open it with, and the failure expected.
    static func make(_ kind: Case, in folder: URL) throws -> (String, Database.Access, OpenFailure) {
        let path = folder.appending(path: "history.sqlite").path
        switch kind {
        case .missing:
            return (path, .readOnly, .missing)
        case .missingForWriting:
            // Only .create may create the file.
            return (path, .readWrite, .missing)
        case .empty:
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            return (path, .readOnly, .empty)
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            return (path, .create, .isDirectory)
        case .text:
            try Data("a shopping list\n".utf8).write(to: URL(fileURLWithPath: path))
            return (path, .create, .notADatabase)
        case .foreign:
            let database = try Database(path: path, access: .create)
            try database.execute("PRAGMA application_id = 42")
            try database.execute("CREATE TABLE note (body TEXT)")
            return (path, .create, .foreignDatabase(applicationID: 42))
        case .newer:
            _ = try HistoryStore(path: path, access: .create)
            try Database(path: path, access: .readWrite).execute("PRAGMA user_version = 99")
            return (path, .create, .newerSchema(found: 99, supported: Migrator().latestVersion))
        case .readOnlyFile:
            _ = try HistoryStore(path: path, access: .create)
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
            return (path, .readWrite, .readOnly)
        case .readOnlyFolder:
            let locked = folder.appending(path: "locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o555])
            return (locked.appending(path: "history.sqlite").path, .create, .folderNotWritable)
        }
    }

    @Test(arguments: Case.allCases)
    func eachFailureIsItsOwnValueAndTheFileIsLeftAsItWas(_ kind: Case) throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "open-failure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, access, expected) = try Self.make(kind, in: folder)
        let before = FileManager.default.contents(atPath: path)

        #expect(throws: HistoryError.cannotOpen(path: path, reason: expected)) {
            try HistoryStore(path: path, access: access)
        }

        #expect(FileManager.default.contents(atPath: path) == before, "the file changed")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal") || kind == .newer || kind == .readOnlyFile)
    }
}
