/// Terminal cells, counted independently of the tool: CJK ideographs, kana,
/// Hangul syllables and fullwidth punctuation take two; combining marks, format characters
/// (zero width space, word joiner) and ANSI colour codes none.
enum Cells {
    static func width(_ text: String) -> Int {
        var cells = 0
        for scalar in text.replacing(/\x1B\[[0-9;]*m/, with: "").unicodeScalars {
            cells += cellsOf(scalar)
        }
        return cells
    }

    /// The start of `text` that takes up `cells` cells, or all of it.
    static func prefix(_ text: String, cells: Int) -> String {
        var used = 0
        var kept = ""
        for character in text {
            let width = character.unicodeScalars.reduce(0) { $0 + cellsOf($1) }
            if used + width > cells { break }
            kept.append(character)
            used += width
        }
        return kept
    }

    private static func cellsOf(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch scalar.value {
        case 0x3000...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF60: return 2
        default: return 1
        }
    }
}
