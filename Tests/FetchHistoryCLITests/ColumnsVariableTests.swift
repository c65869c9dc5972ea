import Foundation
import Testing

/// COLUMNS is the user's word on the width: it counts only as a positive
/// number, and on a terminal it wins over the terminal's own width.
@Suite("COLUMNS: positive only, and before the terminal's width")
struct ColumnsVariableTests {
    @Test(arguments: ["0", "-5", "wide"])
    func aColumnsThatIsNotAPositiveNumberIsIgnored(_ columns: String) async throws {
        // Given fetches with a long value and a long URL
        let sandbox = try await TableWidthTests.history()

        // When listed to a pipe with COLUMNS set to something that is no width
        let result = try await sandbox.run(["list"], environment: sandbox.environment(.sandbox, ["COLUMNS": columns]))

        // Then nothing is cut, as on a pipe without COLUMNS
        let unset = try await sandbox.run("list")
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.contains { $0.hasSuffix(TableWidthTests.longURL) }, "\(result)")
        #expect(result.standardOutputData == unset.standardOutputData, "\(result)\n\(unset)")
    }

    @Test func onATerminalColumnsWinsOverTheTerminalsWidth() async throws {
        // Given a terminal 200 columns wide (a pseudo-terminal made by script(1)), and COLUMNS=80
        let sandbox = try await TableWidthTests.history()
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) from util-linux is needed")
        let environment = sandbox.environment(.sandbox, ["TERM": "xterm", "COLUMNS": "80"])

        // When list runs on it, and on a pipe with the same COLUMNS
        let command = "stty cols 200 rows 40; exec '\(FetchHistoryProcess.binary.path)' list"
        let terminal = try await sandbox.run(
            ["-qec", command, "/dev/null"], environment: environment, executable: URL(fileURLWithPath: "/usr/bin/script")
        )
        let pipe = try await sandbox.run(["list"], environment: environment)

        // Then the terminal gets the 80-column table the pipe gets, line for line
        #expect(terminal.status == 0 && pipe.status == 0, "\(terminal)\n\(pipe)")
        let lines = terminal.standardOutput.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init).dropLast()
        #expect(Array(lines) == pipe.lines, "\(terminal)\n\(pipe)")
        for line in pipe.lines {
            #expect(Cells.width(line) <= 80, "\(Cells.width(line)) cells: \(line)")
        }
    }
}
