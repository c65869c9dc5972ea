import FetchHistory
import Testing

@Suite("TextSearch ignores case beyond ASCII, and its ASCII fast path agrees with the Unicode path")
struct TextSearchTests {
    /// The Unicode path alone: both texts folded, then compared as characters.
    private func unicodeAnswer(_ needle: String, _ haystack: String) -> Bool {
        TextSearch.fold(haystack).contains(TextSearch.fold(needle))
    }

    @Test(arguments: [
        ("ÉCHEC", "échec de connexion", true),
        ("échec", "ÉCHEC", true),
        ("é", "xe\u{301}x", true),
        ("e", "xe\u{301}x", false),
        ("STRASSE", "straße", true),
        ("ς", "ΣΟΦΟΣ", true),
        ("k", "\u{212A}elvin", true),  // KELVIN SIGN folds to k
        (";", "a\u{037E}b", true),  // GREEK QUESTION MARK is canonically ;
        ("\u{037E}", "a;b", true),
        ("é", "plain ascii", false),
        ("REFUSED", "connection refused", true),
        ("50%", "500 off", false),
        ("a_b", "axb", false),
        ("42", "1424", true),
    ])
    func needleIsFoundAsUnicodeSays(needle: String, haystack: String, expected: Bool) {
        // When the needle is searched (ASCII haystacks take the byte path)
        let found = TextSearch.Needle(needle).isFound(in: haystack)

        // Then the answer is the expected one, and the Unicode path's
        #expect(found == expected)
        #expect(found == unicodeAnswer(needle, haystack))
    }
}
