import ArgumentParser

/// `--no-header`, for any command that prints a table or TSV: scripts
/// that read rows only leave the header out.
struct HeaderOption: ParsableArguments {
    @Flag(name: .customLong("no-header"), help: "Leave out the header line (--format table, tsv and csv).")
    var noHeader = false

    /// Refuses `--no-header` with a format that has no header, rather than
    /// ignoring it.
    func validate(for format: ListFormat) throws {
        if noHeader && !format.hasHeader {
            throw ValidationError("--no-header applies to --format table, tsv and csv only, not \(format.rawValue)")
        }
    }

    /// The same for `export`, whose only format with a header is csv.
    func validate(for format: ExportFormat) throws {
        if noHeader && format != .csv {
            throw ValidationError("--no-header applies to --format csv only, not \(format.rawValue)")
        }
    }
}
