import ArgumentParser
import FetchHistory
import FoundationEssentials

struct ImportCommand: HistoryCommand {
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

    @Argument(help: ArgumentHelp("The file to read, or - for standard input.", valueName: "file"), completion: .file())
    var file: String

    /// The input, opened: standard input for `-`, else the file, pipe or
    /// `<(…)` at `file`. Read a chunk at a time, so its size does not matter.
    static func openInput(_ file: String) throws(InputFileError) -> InputFile {
        if file == "-" { return .standardInput }
        return try InputFile.open(file)
    }

    @MainActor func run() async throws {
        FreedMemory.keepForReuse()
        let input = try Self.openInput(file)
        defer { input.close() }
        let name = file == "-" ? "standard input" : file
        var newFile: String?
        if case .file(let path) = try database.location(), !FileManager.default.fileExists(atPath: path) { newFile = path }
        let summary: ImportSummary
        // On a terminal, a live line once it has run a second.
        let progress = TransferProgress("importing")
        defer { progress.stop() }
        do {
            let reader = FetchRecordReader(descriptor: input.descriptor)
            // Into a new (or empty) history, a file built beside it at
            // SQLite's copy speed; into one that holds fetches, one
            // transaction in it.
            if let built = try database.buildingNew({ db in try db.importFetches(from: reader, read: progress.counted) }) {
                summary = built
            } else {
                summary = try await database.adding { history in
                    try await history.importFetches(from: reader, read: progress.counted)
                }
            }
        } catch {
            // A refused import leaves no trace: not even the new, empty
            // database it would have gone into.
            if let newFile {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: newFile + suffix) }
            }
            switch error {
            case let error as ImportError: throw Refusal.invalid(input: name, error)
            case let error as InputReadError: throw Refusal.unreadable(input: name, error)
            default: throw error
            }
        }
        progress.stop()
        print(Self.sentence(summary))
        SecretsNote.write(command: "import", sources: summary.sourcesWithSecretsHidden)
    }

    /// Why nothing was imported from the input named `input` (a file's
    /// path, or "standard input").
    enum Refusal: Error {
        /// A record is not what `export` writes.
        case invalid(input: String, ImportError)
        /// Reading the input failed.
        case unreadable(input: String, InputReadError)
    }

    /// What an import did, in words: `imported 3 fetches: 2 added, 1 already
    /// present`; when it added nothing, that it had nothing to add, and why.
    static func sentence(_ summary: ImportSummary) -> String {
        let read = summary.added + summary.skipped
        if read == 0 { return "nothing to import: the input has no fetches" }
        if summary.added == 0 {
            return read == 1 ? "nothing to import: the 1 fetch is already present" : "nothing to import: all \(read) fetches are already present"
        }
        return "imported \(read) \(read == 1 ? "fetch" : "fetches"): \(summary.added) added, \(summary.skipped) already present"
    }
}
