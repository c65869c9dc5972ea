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
