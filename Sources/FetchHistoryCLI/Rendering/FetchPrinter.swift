import FetchHistory

/// Prints fetches one at a time as `list` shows them, in any `ListFormat`:
/// the table, the export records (`json`, `jsonl`), TSV or CSV, these
/// three with every field or the `--fields` asked for. The same printer
/// goes on printing the fetches `--follow` finds.
struct FetchPrinter {
    let output: OutputStream
    let format: ListFormat
    let header: Bool
    private let table: FetchTable
    private var records: FetchWriter
    /// The fields of the TSV and CSV columns.
    private let columns: [RecordKey]

    /// `fetches`: the rows printed first, which the table's columns are sized
    /// to; `fields`: what `--fields` asked for, nil for the format's own.
    init(output: OutputStream, format: ListFormat, header: Bool, color: Bool, fitting fetches: [Fetch] = [], fields: [RecordKey]? = nil) {
        self.output = output
        self.format = format
        self.header = header
        table = FetchTable(color: color, fitting: fetches)
        records = FetchWriter(output: output, format: format == .json ? .json : .jsonl, fields: fields)
        columns = fields ?? Self.tsvColumns
    }

    /// The TSV and CSV columns: the export record's first keys, same names
    /// and meaning, so a script can move between the formats.
    static let tsvColumns: [RecordKey] = [
        .id, .session, .source, .outcome, .cancelReason, .value, .error, .startedAt, .endedAt, .durationMs, .status, .bytes,
    ]

    /// The header line, or the opening of the JSON array.
    mutating func begin() throws {
        switch format {
        case .table: if header { try output.write(table.header + "\n") }
        case .tsv: if header { try output.write(TSV.line(columns.map(\.name))) }
        case .csv: if header { try output.write(CSV.line(columns.map(\.name))) }
        case .json, .jsonl: try records.begin()
        }
    }

    mutating func write(_ fetch: Fetch) throws {
        switch format {
        case .table: try output.write(table.row(fetch) + "\n")
        case .tsv: try output.write(TSV.line(columns.map { $0.cell(of: fetch) }))
        case .csv: try output.write(CSV.line(columns.map { $0.cell(of: fetch) }))
        case .json, .jsonl: try records.write(fetch)
        }
    }

    /// Ends the JSON array, and writes out what is buffered.
    mutating func end() throws {
        switch format {
        case .json, .jsonl: try records.end()
        case .table, .tsv, .csv: try output.flush()
        }
    }

    /// Writes out what is buffered, records pending included.
    mutating func flush() throws {
        switch format {
        case .json, .jsonl: try records.flush()
        case .table, .tsv, .csv: try output.flush()
        }
    }
}
