import ArgumentParser
import FetchHistory

/// How `list` prints fetches (and any command that lists rows).
enum ListFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, jsonl, tsv, csv

    /// Whether the format starts with a header line, which `--no-header` leaves out.
    var hasHeader: Bool { self == .table || self == .tsv || self == .csv }
}

/// How `export` writes fetches.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case json, jsonl, csv, junit, har, otlp

    /// The format of a stream of export records (`FetchWriter`), or nil for a report of its own.
    var records: RecordFormat? {
        switch self {
        case .json: .json
        case .jsonl: .jsonl
        case .csv: .csv
        case .junit, .har, .otlp: nil
        }
    }
}

/// How `FetchWriter` writes export records: what `export`, `fetch` and `list` share.
enum RecordFormat {
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

/// How `replay` prints: a timeline, one JSON document, or JSON lines.
enum ReplayFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl
}

/// What `stats --over` charts by: a time grouping of `stats --by`.
enum ChartPeriod: String, ExpressibleByArgument, CaseIterable {
    case minute, hour, day, week

    var grouping: StatisticsGrouping {
        switch self {
        case .minute: .minute
        case .hour: .hour
        case .day: .day
        case .week: .week
        }
    }
}
