import FetchHistory

/// Prints fetches one at a time as `list` shows them, in any `ListFormat`:
/// the table, the export records (`json`, `jsonl`) or TSV. The same printer
/// goes on printing the fetches `--follow` finds.
struct FetchPrinter {
    let output: OutputStream
    let format: ListFormat
    let header: Bool
    private let table: FetchTable
    private var records: FetchWriter

    /// `fetches`: the rows printed first, which the table's columns are sized to.
    init(output: OutputStream, format: ListFormat, header: Bool, color: Bool, fitting fetches: [Fetch] = []) {
        self.output = output
        self.format = format
        self.header = header
        table = FetchTable(color: color, fitting: fetches)
        records = FetchWriter(output: output, format: format == .json ? .json : .jsonl)
    }

    /// The TSV columns: the export record's first keys, same names and
    /// meaning, so a script can move between the two formats.
    static let tsvColumns = [
        "id", "session", "source", "outcome", "cancelReason", "value", "error", "startedAt", "endedAt", "durationMs",
        "status", "bytes",
    ]

    /// The header line, or the opening of the JSON array.
    mutating func begin() throws {
        switch format {
        case .table: if header { try output.write(table.header + "\n") }
        case .tsv: if header { try output.write(TSV.line(Self.tsvColumns)) }
        case .json, .jsonl: try records.begin()
        }
    }

    mutating func write(_ fetch: Fetch) throws {
        switch format {
        case .table: try output.write(table.row(fetch) + "\n")
        case .tsv: try output.write(TSV.line(Self.tsvCells(fetch)))
        case .json, .jsonl: try records.write(fetch)
        }
    }

    /// Ends the JSON array, and writes out what is buffered.
    mutating func end() throws {
        switch format {
        case .json, .jsonl: try records.end()
        case .table, .tsv: try output.flush()
        }
    }

    /// Writes out what is buffered, records pending included.
    mutating func flush() throws {
        switch format {
        case .json, .jsonl: try records.flush()
        case .table, .tsv: try output.flush()
        }
    }

    /// `fetch` in `tsvColumns`' order; nil where the record has null.
    static func tsvCells(_ fetch: Fetch) -> [String?] {
        [
            fetch.id.lowercased, fetch.sessionID.lowercased, fetch.source, fetch.status.rawValue,
            fetch.cancelReason?.rawValue, fetch.value?.json, fetch.errorMessage, fetch.startedAt.iso8601,
            fetch.endedAt?.iso8601, fetch.durationMilliseconds.map(String.init), fetch.response.map { String($0.status) },
            fetch.response.map { String($0.bytes) },
        ]
    }
}
