/// The case-insensitive substring search behind `--grep`
/// (`HistoryFilter.containing`), done in Swift because SQLite's `LIKE`,
/// `lower()` and `NOCASE` fold ASCII letters only: with them, `ÉCHEC` would
/// not find `échec`.
///
/// Case is removed from both texts by Unicode's default case mappings,
/// upper-casing then lower-casing (locale-independent, as the standard
/// library does it): `É`/`é`, `Σ`/`σ`/`ς` and `ẞ`/`ß`/`SS`/`ss` then compare
/// equal, close to Unicode's full case folding. The search then compares
/// characters (grapheme clusters) by canonical equivalence, so an `é` typed
/// as one code point finds an `é` stored as `e` + U+0301, and `e` does not
/// match inside `é`. Every character is literal: no wildcard, no escape.
///
/// ```swift
/// let needle = TextSearch.Needle("ÉCHEC")
/// needle.isFound(in: "Échec de connexion")  // true
/// ```
public enum TextSearch {
    /// `text` without case: upper-cased, then lower-cased.
    public static func fold(_ text: String) -> String {
        text.uppercased().lowercased()
    }

    /// The text searched for, folded once for every row it is compared with.
    public final class Needle: Sendable {
        /// The folded text.
        public let folded: String
        /// The ASCII text the folded needle is canonically equivalent to,
        /// character by character (itself when it is ASCII; `;` for a Greek
        /// question mark), or nil: then no ASCII text can contain it.
        let ascii: [UInt8]?

        public init(_ text: String) {
            folded = TextSearch.fold(text)
            var ascii: [UInt8]? = []
            for character in folded {
                // Character equality is canonical equivalence.
                guard let byte = (0..<0x80).first(where: { Character(Unicode.Scalar(UInt8($0))) == character }) else {
                    ascii = nil
                    break
                }
                ascii?.append(UInt8(byte))
            }
            self.ascii = ascii
        }

        /// Whether `haystack` contains the needle, ignoring case.
        public func isFound(in haystack: String) -> Bool {
            var text = haystack
            return text.withUTF8 { isFound(inUTF8: $0) }
        }

        /// Whether the UTF-8 text `haystack` contains the needle. An ASCII
        /// haystack (integers, most errors and URLs) is searched byte by
        /// byte with ASCII case folding, no string made, or not at all when
        /// the needle has no ASCII form: the answer the Unicode path gives
        /// for it (but for a `\n` inside a `\r\n`, one character to
        /// Swift), without its cost over a million rows.
        package func isFound(inUTF8 haystack: UnsafeBufferPointer<UInt8>) -> Bool {
            if haystack.allSatisfy({ $0 < 0x80 }) {
                guard let ascii else { return false }
                return Self.asciiContains(haystack, ascii)
            }
            return TextSearch.fold(String(decoding: haystack, as: UTF8.self)).contains(folded)
        }

        /// Plain search of the lower-case ASCII `needle` in `haystack`,
        /// whose letters are lower-cased as they are compared.
        private static func asciiContains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
            guard let first = needle.first else { return true }
            guard haystack.count >= needle.count else { return false }
            for start in 0...(haystack.count - needle.count) where lower(haystack[start]) == first {
                var matched = 1
                while matched < needle.count, lower(haystack[start + matched]) == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            return false
        }

        private static func lower(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        }
    }
}
