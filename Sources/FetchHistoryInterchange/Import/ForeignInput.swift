import FetchHistoryModel

/// What an import's input is when it is not an export, guessed from its
/// first line, so the refusal can say what the user gave instead of where
/// a JSON parser gave up: the TSV `list --format tsv` writes, a CSV, an
/// SQLite database (a history file itself), binary data or plain text.
enum ForeignInput: Equatable {
    /// An SQLite database file, such as a history.
    case sqliteDatabase
    /// Tab- or comma-separated values; `header` holds the column names when
    /// the first line is a header.
    case separatedValues(format: String, header: [String]?)
    case binary
    /// Text: its first line, shortened and safe to print.
    case text(String)

    /// The start of every SQLite database file ("The database file header").
    private static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// What `firstLine` (without its newline) says the input is.
    init(firstLine: ArraySlice<UInt8>) {
        if JSONParser.bytes(Array(firstLine.prefix(Self.sqliteHeader.count)), at: 0, are: Self.sqliteHeader) {
            self = .sqliteDatabase
            return
        }
        // Enough to tell; cut at a character's start, or UTF-8 would look broken.
        var line = firstLine.prefix(4096)
        if line.count < firstLine.count {
            while let last = line.last, last & 0xC0 == 0x80 { line = line.dropLast() }
            if let last = line.last, last >= 0xC0 { line = line.dropLast() }
        }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        if line.contains(0) || String(validating: line, as: UTF8.self) == nil {
            self = .binary
            return
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.contains("\t") {
            self = .separatedValues(format: "TSV", header: Self.header(text.split(separator: "\t", omittingEmptySubsequences: false)))
            return
        }
        let cells = text.split(separator: ",", omittingEmptySubsequences: false)
        // Prose has commas too, followed by a space.
        if cells.count >= 3 || (cells.count == 2 && Self.header(cells) != nil), !cells.dropFirst().contains(where: { $0.first == " " }) {
            self = .separatedValues(format: "CSV", header: Self.header(cells))
            return
        }
        self = .text(text.count > 40 ? String(text.prefix(39)).terminalSafe + "…" : text.terminalSafe)
    }

    /// The cells as column names, when every one is a name (`id`,
    /// `durationMs`, `"source"`): the line is a header.
    private static func header(_ cells: [Substring]) -> [String]? {
        let names = cells.map { cell in
            cell.count >= 2 && cell.first == "\"" && cell.last == "\"" ? cell.dropFirst().dropLast() : cell
        }
        guard names.count >= 2, names.allSatisfy(isName) else { return nil }
        return names.map(String.init)
    }

    private static func isName(_ cell: Substring) -> Bool {
        guard let first = cell.first, first.isLetter, cell.count <= 40 else { return false }
        return cell.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == " " || $0 == "." }
    }

    /// The refusal, in words.
    var message: String {
        let refusal = "not a fetch-history export: "
        let expected = "import reads JSON Lines or a JSON array of records, as `export` writes them"
        switch self {
        case .sqliteDatabase:
            return refusal + "it is an SQLite database; " + expected
                + " (to copy a history: `fetch-history export -d FILE | fetch-history import -`)"
        case .separatedValues(let format, let header?):
            let names = header.prefix(3).map { String($0.prefix(20)).terminalSafe }.joined(separator: ", ")
            return refusal + "its first line is a \(format) header (\(names)\(header.count > 3 ? ", …" : "")); " + expected
        case .separatedValues(let format, nil):
            return refusal + "its first line is \(format == "TSV" ? "tab" : "comma")-separated values (\(format)); " + expected
        case .binary:
            return refusal + "it is binary data, not text; " + expected
        case .text(let line):
            return refusal + "its first line is text (\"\(line)\"); " + expected
        }
    }
}
