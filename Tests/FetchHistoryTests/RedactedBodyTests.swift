import FetchHistory
import Foundation
import Testing

/// What the history keeps of a failed answer's body: secrets hidden as a
/// URL's are (`RedactedBody`), then cut at the kept size (`ResponseBody`).
@Suite struct RedactedBodyTests {
    @Test(arguments: [
        // Members named like a secret, at any depth, whatever their value
        (#"{"error":"busy","token":"abc"}"#, #"{"error":"busy","token":"***"}"#),
        (#"{"a":{"b":[{"password":"pw"}]},"n":1}"#, #"{"a":{"b":[{"password":"***"}]},"n":1}"#),
        (#"{"X-Api-Key": 1234, "ok": true}"#, #"{"X-Api-Key": "***", "ok": true}"#),
        (#"{"session":{"id":7,"user":"ada"},"next":2}"#, #"{"session":"***","next":2}"#),
        (#"{"Authorization":"Bearer x","Cookie":"sid=1","client_secret":null}"#, #"{"Authorization":"***","Cookie":"***","client_secret":"***"}"#),
        (#"[{"refresh_token":["a","b"]}]"#, #"[{"refresh_token":"***"}]"#),
        // A name spelled with escapes is still the name
        (#"{"\u0074oken":"abc"}"#, #"{"\u0074oken":"***"}"#),
        // A string that holds a quote or a name-like value is not a member
        (#"{"message":"the \"token\": was wrong","hint":"token"}"#, #"{"message":"the \"token\": was wrong","hint":"token"}"#),
        // An escaped quote does not end a string: the member after it is still found
        (#"{"note":"say \"hi","token":"x"}"#, #"{"note":"say \"hi","token":"***"}"#),
        // White space as the server wrote it
        ("{\n  \"token\" :  \"abc\",\n  \"n\": 1\n}", "{\n  \"token\" :  \"***\",\n  \"n\": 1\n}"),
        // Cut short, inside the secret or right after its colon
        (#"{"error":"busy","token":"abcdef"#, #"{"error":"busy","token":"***""#),
        (#"{"token":{"a":[1,2"#, #"{"token":"***""#),
        (#"{"token":""#, #"{"token":"***""#),
        (#"{"token":"#, #"{"token":"#),
        // Already hidden: unchanged
        (#"{"token":"***"}"#, #"{"token":"***"}"#),
    ])
    func jsonMembersNamedLikeASecretAreHidden(_ example: (body: String, hidden: String)) {
        #expect(RedactedBody(example.body, contentType: "application/json").description == example.hidden)
    }

    @Test func aBodyThatLooksLikeJSONIsReadAsJSONWhateverItsType() {
        #expect(RedactedBody(#" {"token":"abc"}"#, contentType: nil).description == #" {"token":"***"}"#)
        #expect(RedactedBody(#"[{"key":1}]"#, contentType: "text/plain").description == #"[{"key":"***"}]"#)
        #expect(RedactedBody(#"{"token":"abc"}"#, contentType: "application/problem+json").description == #"{"token":"***"}"#)
    }

    @Test(arguments: [
        ("user=ada&password=hunter2&page=2", "user=ada&password=***&page=2"),
        ("access_token=abc;next=%2Fhome", "access_token=***;next=%2Fhome"),
        ("api%5Fkey=1&Cookie=x", "api%5Fkey=***&Cookie=***"),
        ("Service Unavailable", "Service Unavailable"),
    ])
    func formFieldsNamedLikeASecretAreHidden(_ example: (body: String, hidden: String)) {
        #expect(RedactedBody(example.body, contentType: "application/x-www-form-urlencoded").description == example.hidden)
        #expect(RedactedBody(example.body, contentType: nil).description == example.hidden)
    }

    @Test func aFormBodyIsReadAsFormsEvenWhenItLooksLikeJSON() {
        #expect(RedactedBody(#"{x}&token=abc"#, contentType: "application/x-www-form-urlencoded").description == #"{x}&token=***"#)
    }

    @Test func keepingCutsAfterHidingAtTheLimitAndSaysSo() {
        // Given a body whose secret comes before the cut
        let body = Array(#"{"token":"abcdefghijklmnop","n":12345}"#.utf8)

        // When 20 bytes are kept, then they are the hidden body's first 20, marked truncated
        let kept = ResponseBody(keeping: body, contentType: "application/json", limit: 20)
        #expect(kept == ResponseBody(text: #"{"token":"***","n":1"#, contentType: "application/json", isTruncated: true))
        // and a limit the hidden body fits is no cut
        #expect(ResponseBody(keeping: body, contentType: nil, limit: 25).isTruncated == false)
        #expect(ResponseBody(keeping: body, contentType: nil, limit: 24).isTruncated == true)
    }

    @Test func theCutNeverSplitsACharacter() {
        // Given "é" (2 bytes) and "€" (3 bytes) straddling the limits
        let body = Array("aé€".utf8)  // a(1) é(2) €(3)

        // When cut at each size, then only whole characters are kept
        let kept = (0...6).map { ResponseBody(keeping: body, contentType: nil, limit: $0).text }
        #expect(kept == ["", "a", "a", "aé", "aé", "aé", "aé€"])
    }

    @Test func bytesThatAreNotUTF8AreKeptAsReplacementCharacters() {
        let kept = ResponseBody(keeping: [0x41, 0xFF, 0x42], contentType: "application/octet-stream", limit: 1024)
        #expect(kept.text == "A\u{FFFD}B")
        #expect(!kept.isTruncated)
    }

    @Test func aBodyTheSourceStoppedReadingIsTruncatedEvenWhenItFits() {
        #expect(ResponseBody(keeping: Array("abc".utf8), contentType: nil, limit: 1024, bodyWasCut: true).isTruncated)
    }
}
