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
        /// Its UTF-8, when it is all ASCII: the fast path.
        let ascii: [UInt8]?

        public init(_ text: String) {
            folded = TextSearch.fold(text)
            ascii = folded.utf8.allSatisfy { $0 < 0x80 } ? Array(folded.utf8) : nil
        }

        /// Whether `haystack` contains the needle, ignoring case.
        public func isFound(in haystack: String) -> Bool {
            var text = haystack
            return text.withUTF8 { isFound(inUTF8: $0) }
        }

        /// Whether the UTF-8 text `haystack` contains the needle. When both
        /// are ASCII (integers, most errors and URLs), bytes are compared
        /// with ASCII case folding, no string made: the same answer as the
        /// Unicode path gives for ASCII, much faster over a million rows.
        func isFound(inUTF8 haystack: UnsafeBufferPointer<UInt8>) -> Bool {
            if let ascii, haystack.allSatisfy({ $0 < 0x80 }) {
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
