/// Comma-separated values as RFC 4180 writes them (`--format csv`): cells
/// separated by commas, lines ended by CRLF, a cell with a comma, a double
/// quote, a carriage return or a line feed enclosed in double quotes and
/// its double quotes doubled; an empty cell for a missing value.
/// Spreadsheets and `sqlite-utils`, Python's `csv` and `xsv` read it as is.
///
/// ```swift
/// CSV.line(["a,b", nil, "say \"hi\""])  // "\"a,b\",,\"say \"\"hi\"\"\"\r\n"
/// ```
package enum CSV {
    /// `cells` as one record, with its CRLF.
    package static func line(_ cells: [String?]) -> String {
        cells.map { $0.map(quoted) ?? "" }.joined(separator: ",") + "\r\n"
    }

    /// `text` as one field.
    package static func quoted(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }) else {
            return text
        }
        // Scalar by scalar: a quote followed by a combining mark is one Character, and splitting
        // on Characters would leave that quote undoubled.
        var out = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" { out.unicodeScalars.append("\"") }
            out.unicodeScalars.append(scalar)
        }
        return out + "\""
    }
}
