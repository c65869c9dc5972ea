import FetchHistoryModel

/// The longest fetches seen, longest first, at most `limit` of them: what
/// `list --sort duration` would give first, kept while the history streams
/// past. A fetch as long as the shortest kept does not displace it, so of
/// equal ones the earliest stay.
struct SlowestFetches {
    static let limit = 20

    private(set) var fetches: [Fetch] = []

    mutating func add(_ fetch: Fetch) {
        // Nearly every fetch is shorter than the shortest kept: one comparison.
        guard let duration = fetch.durationMilliseconds else { return }
        if fetches.count == Self.limit, duration <= fetches[Self.limit - 1].durationMilliseconds! { return }
        let place = fetches.firstIndex { $0.durationMilliseconds! < duration } ?? fetches.count
        fetches.insert(fetch, at: place)
        if fetches.count > Self.limit { fetches.removeLast() }
    }
}
