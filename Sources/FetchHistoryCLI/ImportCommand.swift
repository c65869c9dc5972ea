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

    /// The whole input: a regular file mapped into memory (a large export
    /// costs no copy), anything else — standard input, a pipe, `<(…)` — read
    /// to its end.
    static func read(_ file: String) throws -> Data {
        if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        var info = stat()
        guard stat(file, &info) == 0 else {
            throw CLIError("cannot read \(file): \(String(cString: strerror(errno)))")
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw CLIError("cannot read \(file): it is a directory") }
        do {
            if info.st_mode & S_IFMT == S_IFREG {
                return try Data(contentsOf: URL(fileURLWithPath: file), options: .alwaysMapped)
            }
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw CLIError("cannot read \(file): \(String(cString: strerror(errno)))")
            }
            defer { try? handle.close() }
            return try handle.readToEnd() ?? Data()
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("cannot read \(file): \((error as NSError).localizedDescription)")
        }
    }

    func run() throws {
        let data = try Self.read(file)
        let path = try database.path()
        let existed = FileManager.default.fileExists(atPath: path)
        let summary: ImportSummary
        do {
            let store = try database.openForWriting()
            summary = try store.importFetches { insert in try FetchRecordReader(data: data).forEach(insert) }
        } catch {
            // A refused import leaves no trace: not even the new, empty
            // database it would have gone into.
            if !existed {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            if let error = error as? ImportError {
                throw CLIError("\(file == "-" ? "standard input" : file): \(error); nothing was imported")
            }
            throw error
        }
        print("imported \(summary.added + summary.skipped) fetches: \(summary.added) added, \(summary.skipped) already present")
    }
}
