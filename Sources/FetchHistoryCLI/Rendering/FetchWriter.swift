import FetchHistory

/// Writes a stream of fetches as export records (`FetchJSON`), one at a
/// time, through one `JSONWriter`: a JSON array with a record a line
/// (`json`), or JSON lines (`jsonl`).
struct FetchWriter {
    let output: OutputStream
    let format: RecordFormat
    /// The record's fields to write, in order; nil for every one.
    let fields: [RecordKey]?
    private var json = JSONWriter()
    /// Records written and not yet handed to `output`, which gets them a
    /// block at a time: the output, a class, is checked for exclusive
    /// access each time it is touched, a cost once a record.
    private var pending: [UInt8] = []
    private static var blockSize: Int { 1 << 16 }

    /// Whether CSV starts with its header line.
    let header: Bool

    init(output: OutputStream, format: RecordFormat, fields: [RecordKey]? = nil, header: Bool = true) {
        self.output = output
        self.format = format
        self.fields = fields
        self.header = header
    }

    mutating func begin() throws {
        switch format {
        case .json: try write { $0.beginArray(elementsOnOwnLines: true) }
        case .csv: if header { pending.append(contentsOf: CSV.line((fields ?? RecordKey.allCases).map(\.name)).utf8) }
        case .jsonl: break
        }
    }

    mutating func write(_ fetch: Fetch) throws {
        let format = format
        if format == .csv {
            pending.append(contentsOf: CSV.line((fields ?? RecordKey.allCases).map { $0.cell(of: fetch) }).utf8)
            if pending.count >= Self.blockSize { try handOver() }
            return
        }
        if let fields {
            try write { json in
                json.record(fetch, keys: fields)
                if format == .jsonl { json.newline() }
            }
            return
        }
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
