import ArgumentParser

/// `--no-header`, for any command that prints a table or TSV: scripts
/// that read rows only leave the header out.
struct HeaderOption: ParsableArguments {
    @Flag(name: .customLong("no-header"), help: "Leave out the header line (--format table and tsv).")
    var noHeader = false

    /// Refuses `--no-header` with a format that has no header, rather than
    /// ignoring it.
    func validate(for format: ListFormat) throws {
        if noHeader && !format.hasHeader {
            throw ValidationError("--no-header applies to --format table and tsv only, not \(format.rawValue)")
        }
    }
}
