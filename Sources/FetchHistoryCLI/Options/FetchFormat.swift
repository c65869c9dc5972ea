import ArgumentParser

/// How `fetch` prints each fetch as it ends.
///
/// `jsonl` is the name `list` and `export` use for one JSON object per line;
/// `json` came first and scripts use it, so it stays, meaning the same
/// thing (a fetch that is still running has no array to close).
enum FetchFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl
}
