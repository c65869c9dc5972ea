extension String {
    /// The text filled with spaces to `width` terminal cells, on the right
    /// (or on the left, for numbers), for aligned columns. Longer text is
    /// left whole: a wide cell pushes its row out rather than losing characters.
    func padded(to width: Int, right: Bool = false) -> String {
        let filling = String(repeating: " ", count: Swift.max(0, width - displayWidth))
        return right ? filling + self : self + filling
    }

    /// The text cut to at most `width` cells, its last one an ellipsis when
    /// cut: for a column that must not push the ones after it. Cut between
    /// characters, never inside one (an accent stays with its letter).
    func shortened(to width: Int) -> String {
        guard displayWidth > width else { return self }
        guard width > 0 else { return "" }
        var kept = ""
        var used = 0
        for character in self {
            let cells = character.displayWidth
            if used + cells > width - 1 { break }
            kept.append(character)
            used += cells
        }
        return kept + "…"
    }

    /// How many cells a terminal gives the text: two for each East Asian
    /// wide or fullwidth character, none for combining marks and
    /// zero-width characters, one for the others.
    var displayWidth: Int {
        // Plain ASCII, the usual case, is one cell a byte.
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return utf8.count }
        return reduce(0) { $0 + $1.displayWidth }
    }
}

extension String {
    /// An error cut to `width` cells after its last whole word that fits,
    /// so that what is left reads as the error's first words.
    func shortenedToWords(_ width: Int) -> String {
        let cut = shortened(to: width)
        guard cut != self, let space = cut.dropLast().lastIndex(of: " ") else { return cut }
        // Only when the words kept fill at least half the room, and hold at
        // least `String.errorStartWidth` cells: `connection r…` says more
        // than `connection…`, and a long first word is better cut than
        // shown alone.
        let words = String(cut[..<space])
        guard words.displayWidth * 2 >= width, words.displayWidth >= Self.errorStartWidth else { return cut }
        return words + "…"
    }

    /// How much of an error a cut keeps at the least, before the columns a
    /// reader needs least are dropped for it.
    static let errorStartWidth = 12

    /// The shortest cut of a URL that still tells it apart, `…host/…/last`
    /// (or `…host/last`, `…host`), as wide as `shortenedURL` makes it; 12
    /// cells for text that is not an http(s) URL.
    var usefulURLWidth: Int {
        guard hasPrefix("http"), let parts = urlParts else { return Swift.min(displayWidth, 12) }
        let segments = parts.path.split(separator: "/", omittingEmptySubsequences: true)
        let kept = segments.count > 1 ? "…" + parts.host + "/…/" + segments[segments.count - 1] : "…" + parts.host + parts.path
        return Swift.min(displayWidth, kept.displayWidth)
    }

    /// An http(s) URL's host and what follows it, path, query and fragment.
    private var urlParts: (host: String, path: String)? {
        guard let scheme = firstRange(of: "://") else { return nil }
        let rest = self[scheme.upperBound...]
        let hostEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return (String(rest[..<hostEnd]), String(rest[hostEnd...]))
    }

    /// A URL cut to `width` cells keeping what tells sources apart: its
    /// host and the end of its path, `…host/…/last`. Text that is not an
    /// http(s) URL is cut at its end.
    func shortenedURL(to width: Int, lastSegments: Int = 1) -> String {
        guard displayWidth > width else { return self }
        guard hasPrefix("http"), let (host, path) = urlParts else { return shortened(to: width) }
        let withoutScheme = "…" + host + path
        if withoutScheme.displayWidth <= width { return withoutScheme }
        // The last segments of the path (the last with its query), behind the host.
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        if segments.count > 1 {
            let count = Swift.min(lastSegments, segments.count - 1)
            let last = segments.suffix(count).joined(separator: "/")
            let kept: String = "…" + host + "/…/" + last
            if kept.displayWidth <= width { return kept }
            let prefix = "…" + host + "/…/"
            if prefix.displayWidth + 4 <= width { return prefix + String(last).shortened(to: width - prefix.displayWidth) }
        }
        return withoutScheme.shortened(to: width)
    }

    /// How narrow a column of `sources` may be while each keeps its host
    /// and as many of its last path segments as tell it from the others
    /// (`…h/…/users`, or `…h/…/v1/users` beside `…h/…/v2/users`).
    static func usefulURLWidth(of sources: Set<String>) -> Int {
        let others = sources.filter { !$0.hasPrefix("http") }.map(\.usefulURLWidth).max() ?? 0
        let urls = sources.filter { $0.hasPrefix("http") }
        let longest = urls.map { $0.split(separator: "/").count }.max() ?? 1
        for segments in 1...Swift.max(1, longest) {
            let cells = urls.map { $0.shortenedURL(to: 0, keepingAtLeastHostAnd: segments) }
            if Set(cells).count == urls.count { return Swift.max(others, cells.map(\.displayWidth).max() ?? 0) }
        }
        return Swift.max(others, urls.map(\.usefulURLWidth).max() ?? 0)
    }

    /// `…host/…/` and the last `segments` of the path, or the whole URL
    /// without its scheme when that is no longer; the text itself when it
    /// is no http(s) URL or no wider than `width`.
    private func shortenedURL(to width: Int, keepingAtLeastHostAnd segments: Int) -> String {
        guard displayWidth > width, hasPrefix("http"), let (host, path) = urlParts else { return self }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let withoutScheme = "…" + host + path
        guard parts.count > segments else { return withoutScheme }
        let kept = "…" + host + "/…/" + parts.suffix(segments).joined(separator: "/")
        return kept.displayWidth < withoutScheme.displayWidth ? kept : withoutScheme
    }

    /// `sources` cut to `width`, each to a cell no other source of them
    /// cuts to: keeping more of the path's end where two would be the same
    /// (`…h/…/v1/users`, `…h/…/v2/users`), then the text's end.
    static func distinctURLCells(_ sources: Set<String>, width: Int) -> [String: String] {
        let longest = sources.map { $0.split(separator: "/").count }.max() ?? 1
        var cells: [String: String] = [:]
        for segments in 1...Swift.max(1, longest) {
            cells = Dictionary(uniqueKeysWithValues: sources.map { ($0, $0.shortenedURL(to: width, lastSegments: segments)) })
            if Set(cells.values).count == sources.count { return cells }
        }
        // Still alike within `width`: their ends tell them apart.
        let ends = Dictionary(uniqueKeysWithValues: sources.map { source in
            (source, source.displayWidth <= width ? source : "…" + String(source.suffix(Swift.max(0, width - 1))))
        })
        return Set(ends.values).count == sources.count ? ends : cells
    }
}
