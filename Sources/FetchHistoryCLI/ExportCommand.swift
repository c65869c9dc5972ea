import ArgumentParser
import FetchHistory
import FoundationEssentials

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
