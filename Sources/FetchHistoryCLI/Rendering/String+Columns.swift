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
        // Only when the words kept fill at least half the room: a long first
        // word is better cut than shown alone.
        let words = String(cut[..<space])
        guard words.displayWidth * 2 >= width else { return cut }
        return words + "…"
    }

    /// A URL cut to `width` cells keeping what tells sources apart: its
    /// host and the end of its path, `…host/…/last`. Text that is not an
    /// http(s) URL is cut at its end.
    func shortenedURL(to width: Int) -> String {
        guard displayWidth > width else { return self }
        guard hasPrefix("http"), let scheme = firstRange(of: "://") else { return shortened(to: width) }
        let rest = self[scheme.upperBound...]
        let hostEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let host = String(rest[..<hostEnd]), path = String(rest[hostEnd...])
        let withoutScheme = "…" + host + path
        if withoutScheme.displayWidth <= width { return withoutScheme }
        // The last segment of the path (with its query), behind the host.
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        if let last = segments.last, segments.count > 1 {
            let kept: String = "…" + host + "/…/" + last
            if kept.displayWidth <= width { return kept }
            let prefix = "…" + host + "/…/"
            if prefix.displayWidth + 4 <= width { return prefix + String(last).shortened(to: width - prefix.displayWidth) }
        }
        return withoutScheme.shortened(to: width)
    }
}
