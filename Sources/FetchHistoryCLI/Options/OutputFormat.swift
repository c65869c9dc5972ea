import ArgumentParser

/// How `list` prints fetches (and any command that lists rows).
enum ListFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, jsonl, tsv, csv

    /// Whether the format starts with a header line, which `--no-header` leaves out.
    var hasHeader: Bool { self == .table || self == .tsv || self == .csv }
}

/// How `export` writes fetches.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case json, jsonl, csv
}

/// How `stats` prints.
enum StatsFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, csv
}

/// How `fetch`, `show` and `stats` print.
enum TextFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
