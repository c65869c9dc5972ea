import FetchHistory

/// Writes a stream of fetches as export records (`FetchJSON`), one at a
/// time, through one `JSONWriter`: a JSON array with a record a line
/// (`json`), or JSON lines (`jsonl`).
struct FetchWriter {
    let output: OutputStream
    let format: ExportFormat
    private var json = JSONWriter()
    /// Records written and not yet handed to `output`, which gets them a
    /// block at a time: the output, a class, is checked for exclusive
    /// access each time it is touched, a cost once a record.
    private var pending: [UInt8] = []
    private static var blockSize: Int { 1 << 16 }

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
        try flush()
    }

    /// Writes out the records pending and what the output buffers.
    mutating func flush() throws {
        try handOver()
        try output.flush()
    }

    /// Writes onto what is pending, which the writer goes on from.
    private mutating func write(_ body: (inout JSONWriter) -> Void) throws {
        json.write(into: &pending, body)
        if pending.count >= Self.blockSize { try handOver() }
    }

    private mutating func handOver() throws {
        try output.write(emptying: &pending)
    }
}
