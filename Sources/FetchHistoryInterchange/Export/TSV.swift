/// Tab-separated values for scripts (`--format tsv`): one line per row,
/// cells separated by one tab, an empty cell for a missing value.
///
/// A cell can hold any text and still be one cell on one line: a backslash
/// becomes `\\`, a tab `\t`, a newline `\n`, a carriage return `\r` (the
/// escapes of PostgreSQL's `COPY … (FORMAT text)`), and any other control
/// character (below U+0020, U+007F to U+009F) `\x` and its code point in two
/// hex digits, so nothing printed can move a terminal's cursor. `cut -f`
/// and `awk -F'\t'` split the lines as they are.
///
/// ```swift
/// TSV.line(["a\tb", nil, "c"])  // "a\\tb\t\tc\n"
/// ```
package enum TSV {
    /// `cells` as one line, with its newline.
    package static func line(_ cells: [String?]) -> String {
        cells.map { $0.map(escaped) ?? "" }.joined(separator: "\t") + "\n"
    }

    /// `text` as one cell.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var cell = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": cell += "\\\\"
            case "\t": cell += "\\t"
            case "\n": cell += "\\n"
            case "\r": cell += "\\r"
            case _ where needsEscape(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                cell += "\\x" + (hex.count < 2 ? "0" : "") + hex
            default: cell.unicodeScalars.append(scalar)
            }
        }
        return cell
    }

    /// The backslash and the C0 and C1 control characters (with DEL).
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\\" || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
