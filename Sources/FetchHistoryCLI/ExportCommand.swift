import ArgumentParser
import FetchHistory
import FoundationEssentials
import Glibc

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the history as JSON, oldest first, streamed row by row.",
        discussion: """
            Each fetch is one record: id, session, source, outcome, cancelReason, value, error, \
            startedAt, endedAt (ISO 8601 UTC with milliseconds) and durationMs. `import` reads \
            both formats back.

            With --output, the file is written under a temporary name and renamed at the end, \
            so a failed export never leaves a half-written file under that name.

            Examples:
              fetch-history export --format jsonl --output history.jsonl
              fetch-history export --outcome failed --since 7d | jq .error
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var filters: FilterOptions

    @Option(help: "json (one array) or jsonl (one object per line).")
    var format = ExportFormat.json

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let store = try database.openForReading()
        guard let output else {
            return try write(store, to: .standardOutput())
        }
        let file = try AtomicFile(path: output)
        do {
            try write(store, to: OutputStream(descriptor: file.descriptor, name: output))
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    private func write(_ store: HistoryStore, to output: OutputStream) throws {
        var writer = FetchWriter(output: output, format: format)
        try writer.begin()
        try store.read { db in try db.forEachFetch(matching: filters.filter(in: db)) { try writer.write($0) } }
        try writer.end()
    }
}

/// A file written under a temporary name in the same folder and renamed
/// over `path` only when complete.
struct AtomicFile {
    let path: String
    let temporaryPath: String
    let descriptor: Int32

    init(path: String) throws {
        self.path = path
        let (folder, name) = path.folderAndName
        var template = Array(((folder.isEmpty ? "." : folder) + "/.\(name).XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        // mkstemp makes the file 0600; an export is an ordinary file.
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        self.descriptor = descriptor
        self.temporaryPath = String(cString: template.map { $0 }) 
    }

    func commit() throws {
        guard fsync(descriptor) == 0, close(descriptor) == 0, rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw CLIError("cannot write \(path): \(reason)")
        }
    }

    func discard() {
        close(descriptor)
        unlink(temporaryPath)
    }
}
