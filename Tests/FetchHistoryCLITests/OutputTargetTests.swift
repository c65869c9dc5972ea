import Foundation
import Glibc
import Testing

/// Where `export -o` and `report -o` write: a regular file is replaced whole
/// (through a temporary file renamed over it), anything else is written as it
/// is, and the history being read is never written over.
@Suite("--output targets")
struct OutputTargetTests {
    private static func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test(arguments: ["export", "report"])
    func theHistoryBeingReadIsNeverWrittenOver(_ command: String) async throws {
        // Given a history of ten fetches
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let before = try Data(contentsOf: URL(filePath: sandbox.database))

        // When asked to write over it, by another spelling of its path
        let result = try await sandbox.run(command, "--output", sandbox.path("./history.sqlite"))

        // Then it refuses in one sentence, and the history is as it was
        #expect(result.status == 1 && result.standardError.hasPrefix("error: will not write ") && result.standardError.contains("it is the history being read"), "\(result)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(try Data(contentsOf: URL(filePath: sandbox.database)) == before)
        #expect(try await sandbox.succeed("list", "--format", "json").standardOutput.contains(Ids.fetch(10)))
    }

    @Test func aNamedPipeIsWrittenIntoAndStaysAPipe() async throws {
        // Given a history, and a named pipe a reader is waiting on
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let pipe = sandbox.path("pipe")
        #expect(mkfifo(pipe, 0o600) == 0)
        let reader = try await FetchHistoryProcess.start(
            arguments: [pipe], environment: [:], workingDirectory: sandbox.root, executable: URL(filePath: "/bin/cat")
        )

        // When exported into it
        let written = try await sandbox.run("export", "--format", "jsonl", "--output", pipe)
        let read = try await reader.wait(limit: .seconds(60))

        // Then the reader got the export, and the pipe is still a pipe, not a file put in its place
        let expected = try await sandbox.succeed("export", "--format", "jsonl").standardOutput
        #expect(written.status == 0, "\(written)")
        #expect(read.standardOutput == expected && !expected.isEmpty)
        #expect(Self.kind(pipe) == S_IFIFO)
    }

    @Test func throughASymbolicLinkTheFileItNamesIsReplacedKeepingItsPermissions() async throws {
        // Given a private file (0600) and a link to it
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let file = sandbox.path("private.json"), link = sandbox.path("link.json")
        try Data("old".utf8).write(to: URL(filePath: file))
        #expect(chmod(file, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "private.json")

        // When exported through the link
        try await sandbox.succeed("export", "--output", link)

        // Then the link is still a link, the file holds the export, and it is still private
        #expect(Self.kind(link) == S_IFLNK)
        let expected = try await sandbox.succeed("export").standardOutput
        #expect(try String(contentsOfFile: file, encoding: .utf8) == expected)
        var info = stat()
        #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
    }
}
