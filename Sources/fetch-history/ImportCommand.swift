import ArgumentParser
import FetchHistory
import Foundation

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add fetches from a file written by `export` (json or jsonl).",
        discussion: """
            All or nothing: one bad record and nothing is imported. Fetches whose id is already \
            in the history are skipped, so importing the same file twice is harmless.

            Examples:
              fetch-history import history.jsonl
              ssh laptop fetch-history export | fetch-history import -
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The file to read, or - for standard input.", valueName: "file"))
    var file: String

    func run() throws {
        let data: Data
        do {
            data = file == "-"
                ? FileHandle.standardInput.readDataToEndOfFile()
                : try Data(contentsOf: URL(fileURLWithPath: file), options: .alwaysMapped)
        } catch {
            throw CLIError("cannot read \(file): \((error as NSError).localizedDescription)")
        }
        let store = try database.openForWriting()
        let summary: ImportSummary
        do {
            summary = try store.importFetches { insert in try FetchRecordReader(data: data).forEach(insert) }
        } catch let error as ImportError {
            throw CLIError("\(file == "-" ? "standard input" : file): \(error); nothing was imported")
        }
        print("imported \(summary.added + summary.skipped) fetches: \(summary.added) added, \(summary.skipped) already present")
    }
}
