extension Character {
    /// The cells a terminal gives this character: its scalars' cells added up,
    /// as terminals (through wcwidth) do.
    var displayWidth: Int {
        unicodeScalars.reduce(0) { $0 + $1.displayWidth }
    }
}

extension Unicode.Scalar {
    /// 0, 1 or 2 cells, after Unicode's East Asian Width (UAX #11): W and F
    /// take two, marks that combine with the character before them and
    /// format characters (zero width space, joiners) take none.
    var displayWidth: Int {
        let value = value
        if value < 0x300 { return 1 }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // Hangul vowels and final consonants join the syllable's first jamo.
        if (0x1160...0x11FF).contains(value) { return 0 }
        if properties.isEmojiPresentation { return 2 }
        return Self.wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// The East Asian Wide and Fullwidth blocks (UAX #11, as glibc's wcwidth
    /// has them), emoji aside.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul initial consonants
        0x231A...0x231B, 0x2329...0x232A,
        0x2E80...0x303E,  // CJK radicals, punctuation
        0x3041...0x33FF,  // kana, CJK compatibility
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
        0x16FE0...0x18AFF, 0x1B000...0x1B2FF,
        0x1F200...0x1F2FF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,  // CJK extensions B and beyond
    ]
}
