import Testing
@testable import FetchHistoryAsyncHTTP

/// What `push` reads of a collector's answer: the spans it rejected, and a
/// refusal's words, with the secrets it was sent hidden.
struct OTLPAnswerTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func rejectedSpansAreReadAsProto3WritesAnInt64EitherWay() {
        #expect(OTLPAnswer.rejectedSpans(in: Self.bytes(#"{"partialSuccess":{"rejectedSpans":"3"}}"#)) == 3)
        #expect(OTLPAnswer.rejectedSpans(in: Self.bytes(#"{"partialSuccess":{"rejectedSpans":4,"errorMessage":"old"}}"#)) == 4)
        #expect(OTLPAnswer.rejectedSpans(in: Self.bytes("{}")) == 0)
        #expect(OTLPAnswer.rejectedSpans(in: Self.bytes("not json")) == 0)
    }

    @Test func aRefusalsWordsAreItsStatusMessageElseItsFirstLineAtMost200Characters() {
        #expect(OTLPAnswer.message(in: Self.bytes(#"{"code":14,"message":"busy"}"#), hiding: []) == "busy")
        #expect(OTLPAnswer.message(in: Self.bytes("  overloaded\nretry later"), hiding: []) == "overloaded")
        #expect(OTLPAnswer.message(in: [], hiding: []) == nil)
        let long = OTLPAnswer.message(in: Self.bytes(String(repeating: "x", count: 300)), hiding: [])
        #expect(long == String(repeating: "x", count: 200) + "…")
    }

    @Test func aSecretItWasSentIsHiddenButAShortValueIsLeft() {
        let answer = Self.bytes(#"{"message":"key s3cr3t-key invalid for tenant 1"}"#)
        #expect(OTLPAnswer.message(in: answer, hiding: ["s3cr3t-key", "1"]) == "key *** invalid for tenant 1")
    }
}
