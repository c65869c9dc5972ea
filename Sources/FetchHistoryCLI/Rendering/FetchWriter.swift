import FetchHistory

/// Writes a stream of fetches as export records (`FetchJSON`), one at a
/// time, through one `JSONWriter`: a JSON array with a record a line
/// (`json`), or JSON lines (`jsonl`).
struct FetchWriter {
    let output: OutputStream
    let format: ExportFormat
    private var json = JSONWriter()

    init(output: OutputStream, format: ExportFormat) {
        self.output = output
        self.format = format
    }

    mutating func begin() throws {
        if format == .json { try write { $0.beginArray(elementsOnOwnLines: true) } }
    }

    mutating func write(_ fetch: Fetch) throws {
        let format = format
        try write { json in
            json.record(fetch)
            if format == .jsonl { json.newline() }
        }
    }

    mutating func end() throws {
        if format == .json {
            try write { json in
                json.endArray()
                json.newline()
            }
        }
        try output.flush()
    }

    /// Writes into the output's buffer, which the writer goes on from.
    private mutating func write(_ body: (inout JSONWriter) -> Void) throws {
        try output.write { buffer in json.write(into: &buffer, body) }
    }
}
