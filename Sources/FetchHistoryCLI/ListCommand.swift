import ArgumentParser
import FetchHistory

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List recorded fetches, newest first.",
        discussion: """
            Examples:
              fetch-history list
              fetch-history list --limit 0 --outcome timed-out
              fetch-history list --since 2026-11-22 --until 2026-11-23 --format jsonl
              fetch-history list --source random --since 2h
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var filters: FilterOptions

    @Option(help: "Show at most this many fetches; 0 shows all.")
    var limit = 20

    @Option(help: "table (aligned text), json (one array) or jsonl (one object per line).")
    var format = ListFormat.table

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 (all) or more") }
    }

    func run() throws {
        let store = try database.openForReading()
        let fetches = try store.read { db in try db.fetches(matching: filters.filter(in: db), limit: limit == 0 ? nil : limit) }
        let output = OutputStream.standardOutput()
        switch format {
        case .table:
            let table = FetchTable(color: Terminal.wantsColor, fitting: fetches)
            if fetches.isEmpty {
                StandardError.write("no fetches match\n")
            } else {
                try output.write(table.header + "\n")
                for fetch in fetches { try output.write(table.row(fetch) + "\n") }
            }
            try output.flush()
        case .json, .jsonl:
            var writer = FetchWriter(output: output, format: format == .json ? .json : .jsonl)
            try writer.begin()
            for fetch in fetches { try writer.write(fetch) }
            try writer.end()
        }
    }
}
