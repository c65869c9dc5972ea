import ArgumentParser
import FetchHistory

/// `--fields id,outcome,durationMs`: which fields of the export record the
/// JSON, TSV and CSV formats give, in that order (the table shows its own
/// columns).
struct FieldsOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The fields to give, in order, named as export names them (json, jsonl, tsv, csv).",
            discussion: "One or more of: \(RecordKey.allCases.map(\.name).joined(separator: ", ")).",
            valueName: "names"
        )
    )
    var fields: String?

    /// The fields asked for, or nil for the format's own.
    func keys() throws -> [RecordKey]? {
        guard let fields else { return nil }
        var keys: [RecordKey] = []
        for name in fields.split(separator: ",", omittingEmptySubsequences: false).map({ String($0.filter { !$0.isWhitespace }) }) {
            guard let key = RecordKey.allCases.first(where: { $0.name == name }) else {
                let shown = name.isEmpty ? "an empty name" : "'\(name.terminalSafe)'"
                throw ValidationError("--fields has \(shown), which is not a field; use \(RecordKey.allCases.map(\.name).joined(separator: ", "))")
            }
            guard !keys.contains(key) else { throw ValidationError("--fields names \(name) twice") }
            keys.append(key)
        }
        return keys
    }

    /// Refuses `--fields` with the table, which has columns of its own.
    func validate(for format: ListFormat) throws {
        _ = try keys()
        if fields != nil, format == .table {
            throw ValidationError("--fields applies to --format json, jsonl, tsv and csv, not table")
        }
    }
}
