import ArgumentParser

/// How `list` prints fetches.
enum ListFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, jsonl
}

/// How `export` writes fetches.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case json, jsonl
}

/// How `fetch`, `show` and `stats` print.
enum TextFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
