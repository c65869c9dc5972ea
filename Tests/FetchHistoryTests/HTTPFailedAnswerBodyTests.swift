import FetchHistory
import FetchHistoryTesting
@testable import FetchHistoryAsyncHTTP
@testable import FetchHistoryHTTP
import Foundation
import Testing

/// What the HTTP source keeps of an answer that failed, on both transports:
/// the start of the body, secrets hidden, and its Content-Type, in the
/// error's response; an answer that succeeded keeps only its value.
@Suite struct HTTPFailedAnswerBodyTests {
    static let busy = #"{"error":"busy","retryAfter":30,"token":"s3cr3t"}"#

    func failure(
        _ client: HTTPClientUnderTest, for reply: ServerReply, maximumBytes: Int = HTTPNumberClient.defaultMaximumBytes,
        keptBodyBytes: Int = ResponseBody.defaultLimit
    ) async throws -> HTTPFetchError? {
        let server = try client.server { reply }
        let client = server.client(maximumBytes: maximumBytes, keptBodyBytes: keptBodyBytes)
        do {
            _ = try await withTimeout { try await client.fetchValue() }
            return nil
        } catch {
            return error as? HTTPFetchError
        }
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func aStatusOutsideTwoHundredKeepsItsBodyWithTheTokenHidden(_ client: HTTPClientUnderTest) async throws {
        // Given a server answering 503 with a JSON body holding a token
        let reply = ServerReply.answer(status: 503, body: Data(Self.busy.utf8), contentType: "application/json")

        // When the client fetches, then the error's response keeps the body, token hidden, and its type
        let error = try await failure(client, for: reply)
        #expect(error == .status(SourceResponse(
            status: 503, bytes: Self.busy.utf8.count,
            body: ResponseBody(text: #"{"error":"busy","retryAfter":30,"token":"***"}"#, contentType: "application/json", isTruncated: false)
        )))
        #expect(error?.errorDescription == "HTTP 503")
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func aBodyThatIsNoValueKeepsItsStart(_ client: HTTPClientUnderTest) async throws {
        // Given a 200 whose body is HTML, longer than the bytes kept
        let html = "<html><body>" + String(repeating: "x", count: 100) + "</body></html>"
        let reply = ServerReply.answer(status: 200, body: Data(html.utf8), contentType: "text/html")

        // When the client fetches a value keeping 16 bytes, then they are the body's first 16, marked truncated
        let error = try await failure(client, for: reply, keptBodyBytes: 16)
        #expect(error?.response?.body == ResponseBody(text: String(html.prefix(16)), contentType: "text/html", isTruncated: true))
        #expect(error?.response?.bytes == html.utf8.count)
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func aBodyOverTheSourcesCapIsTruncatedEvenWhenAllOfWhatWasReadIsKept(_ client: HTTPClientUnderTest) async throws {
        // Given a body larger than the source reads
        let reply = ServerReply.answer(status: 200, body: Data(String(repeating: "1", count: 4096).utf8), contentType: "text/plain")

        // When a client capped at 64 bytes keeps up to 1 KiB of it
        let error = try await failure(client, for: reply, maximumBytes: 64, keptBodyBytes: 1024)

        // Then it keeps what it read, and says the body went on
        guard case .bodyTooLarge(_, let response)? = error, let body = response.body else {
            Issue.record("expected bodyTooLarge with a body, got \(String(describing: error))")
            return
        }
        #expect(body.text.allSatisfy { $0 == "1" } && body.text.utf8.count == min(response.bytes, 1024))
        #expect(body.isTruncated)
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func keepingNoBytesKeepsNoBody(_ client: HTTPClientUnderTest) async throws {
        let reply = ServerReply.answer(status: 503, body: Data(Self.busy.utf8), contentType: "application/json")
        let error = try await failure(client, for: reply, keptBodyBytes: 0)
        #expect(error == .status(SourceResponse(status: 503, bytes: Self.busy.utf8.count)))
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func anAnswerThatSucceedsKeepsOnlyItsValue(_ client: HTTPClientUnderTest) async throws {
        // Given a server answering a value that names a token
        let server = try client.server { .answer(status: 200, body: Data(#"{"token":"abc","n":1}"#.utf8), contentType: "application/json") }

        // When the client fetches it, then no body is kept beside the value
        let answer = try await withTimeout { try await server.client().fetchValue() }
        #expect(answer.value.json == #"{"token":"abc","n":1}"#)
        #expect(answer.response == SourceResponse(status: 200, bytes: 21))
    }
}
