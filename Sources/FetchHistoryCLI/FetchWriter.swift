import FetchHistory

/// Writes a stream of fetches as a JSON array or JSON lines, one at a time.
struct FetchWriter {
    let output: OutputStream
    let format: ExportFormat
    private var count = 0

    init(output: OutputStream, format: ExportFormat) {
        self.output = output
        self.format = format
    }

    mutating func begin() throws {
        if format == .json { try output.write("[") }
    }

    mutating func write(_ fetch: Fetch) throws {
        let separator: [UInt8] = switch format {
        case .json: count == 0 ? Array("\n".utf8) : Array(",\n".utf8)
        case .jsonl: []
        }
        try output.write { buffer in
            buffer.append(contentsOf: separator)
            FetchJSON.append(fetch, to: &buffer)
            if format == .jsonl { buffer.append(UInt8(ascii: "\n")) }
        }
        count += 1
    }

    mutating func end() throws {
        if format == .json { try output.write(count == 0 ? "]\n" : "\n]\n") }
        try output.flush()
    }
}
