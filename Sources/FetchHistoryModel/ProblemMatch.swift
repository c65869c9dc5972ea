/// What `--problem KEY` asks of a fetch (`HistoryFilter.problems`), said
/// once for both stores. A problem's key is computed from a fetch, never
/// stored, so no stored column holds it; but each key names the stored
/// columns its fetches must have, which a store's SQL states to narrow the
/// rows before the key itself is compared:
/// - `timed out`, `cancelled` and `interrupted`: that stored outcome
///   (`outcomes`), and for the last, a fetch a file holds as not ended
///   whose recorder is gone (`interrupted`);
/// - `HTTP 503`: failed with that HTTP status (`httpStatuses`);
/// - any key masking leaves as it is (`Problem.masked`), those three
///   included: failed with no HTTP status outside 2xx, and an error that
///   masks to it (`errorKeys`) — compared by SQLite's
///   `fetch_history_problem(error)`, and by the client on a server.
///
/// ```swift
/// ProblemMatch(keys: ["HTTP 503", "user <n> not found"]).httpStatuses   // [503]
/// ```
package struct ProblemMatch: Hashable, Sendable {
    /// The keys, in the order given, each once.
    package let keys: [String]
    /// Stored outcomes whose fetches all have one of the keys (an
    /// interrupted fetch may be stored so, or not ended: `interrupted`).
    package let outcomes: [String]
    /// Whether interrupted fetches have one of the keys, those a file holds
    /// as not ended, their recorder gone, among them.
    package let interrupted: Bool
    /// HTTP statuses whose failed fetches have one of the keys.
    package let httpStatuses: [Int]
    /// The keys a failed fetch's error may mask to.
    package let errorKeys: [String]

    package init(keys: [String]) {
        var unique: [String] = []
        for key in keys where !unique.contains(key) { unique.append(key) }
        self.keys = unique
        outcomes = [FetchStatus.timedOut, .cancelled, .interrupted].filter { status in
            unique.contains(Problem.key(outcome: status, error: nil, httpStatus: nil)!)
        }.map(\.rawValue)
        interrupted = unique.contains(Problem.key(outcome: .interrupted, error: nil, httpStatus: nil)!)
        httpStatuses = unique.compactMap { key in
            // Only the key an HTTP status gives: `HTTP 503`, not `HTTP 0503`.
            guard key.hasPrefix("HTTP "), let status = Int(key.dropFirst(5)),
                  Problem.key(outcome: .failed, error: nil, httpStatus: status) == key
            else { return nil }
            return status
        }
        // Masking leaves a masked text as it is, so a key that masks to
        // itself is the key of every error masking to it, and no other is.
        errorKeys = unique.filter { Problem.masked($0) == $0 }
    }

    /// Whether `fetch`'s problem is one of the keys.
    package func matches(_ fetch: Fetch) -> Bool {
        Problem(of: fetch).map { keys.contains($0.key) } ?? false
    }
}
