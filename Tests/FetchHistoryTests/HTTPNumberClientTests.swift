import AsyncHTTPClient
import FetchHistory
import FetchHistoryTesting
@testable import FetchHistoryAsyncHTTP
@testable import FetchHistoryHTTP
import Foundation
import LoopbackServers
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP source's behaviour, on both clients: what each sends, which
/// bodies and statuses it takes, its cap, its errors in words, cancelling.
@Suite struct HTTPNumberClientTests {
    func answer(
        _ client: HTTPClientUnderTest, to reply: ServerReply, maximumBytes: Int = HTTPNumberClient.defaultMaximumBytes
    ) async throws -> SourceAnswer<Int> {
        let server = try client.server { reply }
        let client = server.client(maximumBytes: maximumBytes)
        return try await withTimeout { try await client.fetchAnswer() }
    }

    func failure(
        _ client: HTTPClientUnderTest, for reply: ServerReply, maximumBytes: Int = HTTPNumberClient.defaultMaximumBytes
    ) async -> HTTPFetchError? {
        do {
            _ = try await answer(client, to: reply, maximumBytes: maximumBytes)
            return nil
        } catch {
            return error as? HTTPFetchError
        }
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func sendsAGetForTheURL(_ client: HTTPClientUnderTest) async throws {
        // Given a server answering 1
        let server = try client.server { .ok("1") }
        let client = server.client()

        // When the client fetches
        async let answer = client.fetchAnswer()
        let request = try await server.waitForRequest()

        // Then it sent a GET of the URL's path and query, asking for JSON, as fetch-history
        #expect(request.method == "GET")
        #expect(request.target == "/next?page=2")
        #expect(request.value(forHeaderField: "Accept")?.hasPrefix("application/json") == true)
        #expect(request.value(forHeaderField: "User-Agent") == "fetch-history")
        #expect(try await answer.value == 1)
    }

    @Test func aHostWrittenInCapitalsStillReachesItsStub() async throws {
        // Given a stub, and a URL naming its host in capitals (hosts ignore case)
        let stub = URLProtocolStub { _ in .ok("42") }
        let client = HTTPNumberClient(url: URL(string: "https://\(stub.host.uppercased())/next")!, configuration: stub.configuration)

        // When the client fetches, then the stub answers it, not the network
        #expect(try await withTimeout { try await client.fetchAnswer() }.value == 42)
    }

    @Test(arguments: HTTPClientUnderTest.allCases, [
        ("42", 42), (" 42\n", 42), ("-7", -7), ("42.0", 42), ("4.2e1", 42),
        (#"{"number": 5}"#, 5), (#"{"value": 6, "unit": "apples"}"#, 6), (#" {"number":8} "#, 8),
        (#"{"value": 1, "number": 2}"#, 2), (#"{"number": 2, "value": 1}"#, 2),
    ])
    func acceptsEachNumberShape(_ client: HTTPClientUnderTest, _ shape: (body: String, expected: Int)) async throws {
        let answer = try await answer(client, to: .ok(shape.body))
        #expect(answer.value == shape.expected)
        #expect(answer.response == SourceResponse(status: 200, bytes: shape.body.utf8.count))
    }

    // Not 204, which a real server sends with no body.
    @Test(arguments: HTTPClientUnderTest.allCases, [200, 203, 299])
    func anyTwoHundredStatusCounts(_ client: HTTPClientUnderTest, _ status: Int) async throws {
        let answer = try await answer(client, to: .answer(status: status, body: Data("3".utf8)))
        #expect(answer.response?.status == status)
    }

    @Test(arguments: HTTPClientUnderTest.allCases, [301, 404, 500, 503])
    func aStatusOutsideTwoHundredFails(_ client: HTTPClientUnderTest, _ status: Int) async {
        let error = await failure(client, for: .answer(status: status, body: Data("42".utf8)))
        #expect(error == .status(SourceResponse(status: status, bytes: 2, body: ResponseBody(text: "42", contentType: nil, isTruncated: false))))
        #expect(error?.errorDescription == "HTTP \(status)")
    }

    @Test(arguments: HTTPClientUnderTest.allCases, [
        "hello", "", "42.5", #"{"number": "5"}"#, #"{"count": 5}"#, "[1]", "42 43", "0x2A",
        #"{"number":1,"number":2}"#, "1e16", "-1e16", "1e300",
    ])
    func aBodyThatIsNotANumberFailsWithAPreview(_ client: HTTPClientUnderTest, _ body: String) async {
        let error = await failure(client, for: .ok(body))
        #expect(error?.errorDescription == "response is not a number: \"\(body.trimmingCharacters(in: .whitespaces))\"")
    }

    @Test(arguments: HTTPClientUnderTest.allCases, [
        ("3.5", "3.5"), (#"{"value": 3.5}"#, "3.5"), (#"{"number": 5, "value": 6}"#, "5"), (" 42\n", "42"), ("+7", "7"),
        (#"{ "id" : 1, "name" : "A  B" }"#, #"{"id":1,"name":"A  B"}"#), (#"{"count": 5}"#, #"{"count":5}"#),
        (#"{"number": "5"}"#, #"{"number":"5"}"#), ("[1, [2]]", "[1,[2]]"), (#""text""#, #""text""#),
        ("true", "true"), ("null", "null"), ("1e16", "1e16"), ("42.0", "42.0"),
    ])
    func fetchValueTakesAnyJSONAnswerAsWrittenAndAPlainTextInteger(
        _ client: HTTPClientUnderTest, _ shape: (body: String, json: String)
    ) async throws {
        // Given a server answering `body`
        let server = try client.server { .ok(shape.body) }
        let client = server.client()

        // When the client fetches a value
        let answer = try await withTimeout { try await client.fetchValue() }

        // Then it is the JSON the body holds, white space between tokens dropped, with the status and size
        #expect(answer.value.json == shape.json)
        #expect(answer.response == SourceResponse(status: 200, bytes: shape.body.utf8.count))
    }

    @Test(arguments: HTTPClientUnderTest.allCases, [
        ("hello", "text/plain", #"response is neither JSON nor a number: "hello" (Content-Type: text/plain)"#),
        ("42 43", nil, #"response is neither JSON nor a number: "42 43""#),
        ("{\"a\":1,\"a\":2}", "application/json", #"response is neither JSON nor a number: "{"a":1,"a":2}" (Content-Type: application/json)"#),
        // A C1 control (CSI) in the header: HTTP parsers pass it on, where they refuse ESC
        ("\u{1B}]0;pwned\u{07}", "text/x\u{9B}", #"response is neither JSON nor a number: "\x1b]0;pwned\x07" (Content-Type: text/x\x9b)"#),
        ("", "text/plain", "response is empty (Content-Type: text/plain)"),
    ] as [(String, String?, String)])
    func fetchValueRefusesABodyThatIsNeitherJSONNorANumberNamingWhatCame(
        _ client: HTTPClientUnderTest, _ answer: (body: String, type: String?, message: String)
    ) async throws {
        // Given a server answering `body` with that Content-Type
        let server = try client.server { .answer(status: 200, body: Data(answer.body.utf8), contentType: answer.type) }
        let client = server.client()

        // When the client fetches a value, then it fails with one sentence naming what came, safe to print
        await #expect {
            _ = try await withTimeout { try await client.fetchValue() }
        } throws: { error in
            (error as? HTTPFetchError)?.errorDescription == answer.message
                && (error as? HTTPFetchError)?.response == SourceResponse(
                    status: 200, bytes: answer.body.utf8.count,
                    body: ResponseBody(text: answer.body, contentType: answer.type, isTruncated: false)
                )
        }
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func thePreviewIsTheFirstEightyCharacters(_ client: HTTPClientUnderTest) async {
        let body = String(repeating: "abcdefghij", count: 20)
        let error = await failure(client, for: .ok(body))
        #expect(error?.errorDescription == "response is not a number: \"\(body.prefix(80))\"")
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func thePreviewLeavesOutTheWhiteSpaceAroundTheBody(_ client: HTTPClientUnderTest) async {
        // Given a body with white space and line ends around it, Unicode's too
        let body = "\u{3000}\t no number here\r\n\u{2028}\u{85}"

        // When it is read as a number, then the preview holds only what is between
        let error = await failure(client, for: .ok(body))
        #expect(error?.errorDescription == "response is not a number: \"no number here\"")
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func aBodyOverTheCapFails(_ client: HTTPClientUnderTest) async {
        let error = await failure(client, for: .ok(String(repeating: "1", count: 1025)), maximumBytes: 1024)
        guard case .bodyTooLarge(let limit, let response)? = error else {
            Issue.record("expected bodyTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 1024)
        #expect(response.bytes > 1024)
        #expect(error?.errorDescription == "response is larger than 1024 bytes")
    }

    /// AsyncHTTPClient's only: URLProtocolStub answers whole bodies.
    @Test func anEndlessBodyIsLetGoOfAtTheCap() async throws {
        // Given a server whose answer's body never ends
        let server = try LocalHTTPServer { _ in .endless }
        defer { server.stop() }
        let client = AsyncHTTPNumberClient(url: URL(string: server.url("/n"))!, maximumBytes: 1024)

        // When a client capped at 1024 bytes fetches from it
        let error = await #expect(throws: HTTPFetchError.self) { try await withTimeout { try await client.fetchAnswer() } }

        // Then it stops reading at the cap, and fails saying so, instead of reading on
        #expect(error?.errorDescription == "response is larger than 1024 bytes")
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func aBodyExactlyAtTheCapIsRead(_ client: HTTPClientUnderTest) async throws {
        // Given a body of exactly 1024 bytes: a number and the white space after it
        let body = "42" + String(repeating: " ", count: 1022)

        // When a client capped at 1024 bytes reads it
        let answer = try await answer(client, to: .ok(body), maximumBytes: 1024)

        // Then the number is read, and all 1024 bytes are counted
        #expect(answer.value == 42)
        #expect(answer.response?.bytes == 1024)
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func theDefaultCapIsOneMebibyte(_ client: HTTPClientUnderTest) async {
        let error = await failure(client, for: .ok(String(repeating: "1", count: (1 << 20) + 1)))
        #expect(error?.errorDescription == "response is larger than 1 MiB")
    }

    @Test(arguments: [
        (URLError.Code.cannotConnectToHost, "connection refused by HOST"),
        (.cannotFindHost, "host not found: HOST"),
        (.secureConnectionFailed, "TLS handshake with HOST failed (-1200)"),
        (.dnsLookupFailed, "host not found: HOST"),
        (.timedOut, "HOST stopped answering (idle timeout)"),
        (.networkConnectionLost, "connection to HOST lost"),
        (.notConnectedToInternet, "no network connection"),
        (.serverCertificateUntrusted, "TLS handshake with HOST failed (-1202)"),
        (.badServerResponse, "HOST sent a malformed response"),
        (.resourceUnavailable, "network error -1008 talking to HOST"),
    ])
    func aTransportFailureSaysWhatHappenedWithoutTheURL(_ code: URLError.Code, _ message: String) async throws {
        let stub = URLProtocolStub { _ in .fail(URLError(code)) }
        let client = HTTPNumberClient(url: URL(string: "https://\(stub.host)/next?page=2")!, configuration: stub.configuration)
        await #expect {
            try await withTimeout { try await client.fetchAnswer() }
        } throws: { error in
            (error as? HTTPFetchError)?.errorDescription == message.replacingOccurrences(of: "HOST", with: stub.host)
        }
    }

    @Test(arguments: [
        (HTTPClientError.readTimeout, "HOST stopped answering (idle timeout)"),
        (.connectTimeout, "HOST stopped answering (idle timeout)"),
        (.remoteConnectionClosed, "connection to HOST lost"),
        (.invalidURL, "network error -1000 talking to HOST"),
        (.bodyLengthMismatch, "network error talking to HOST"),
    ])
    func anAsyncHTTPClientFailureIsWordedAsURLSessionsIs(_ error: HTTPClientError, _ message: String) {
        // Given a failure AsyncHTTPClient reports, When the transport words it, Then the words are URLSession's
        #expect(HTTPFetchError.transport(AsyncHTTPClientTransport.failure(error), host: "h").errorDescription
            == message.replacingOccurrences(of: "HOST", with: "h"))
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func aRefusedConnectionNamesTheHost(_ client: HTTPClientUnderTest) async throws {
        // Given a port on 127.0.0.1 that nothing listens on
        let port = try LocalHTTPServer.closedPort()

        // When the client of either transport fetches from it, over the network
        let client = client.client(url: URL(string: "http://127.0.0.1:\(port)/n")!)

        // Then both say the same sentence
        await #expect {
            try await withTimeout { try await client.fetchAnswer() }
        } throws: { error in
            (error as? HTTPFetchError)?.errorDescription == "connection refused by 127.0.0.1"
        }
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func anHTTPSURLToAPlainHTTPServerIsATLSFailureWithAHint(_ client: HTTPClientUnderTest) async throws {
        // Given a server that answers in plain text
        let server = try PlainTextListener()
        defer { server.stop() }

        // When the client of either transport asks it over https
        let client = client.client(url: URL(string: "https://127.0.0.1:\(server.port)/n?token=secret")!)

        // Then both name the TLS failure in OpenSSL's words, with the likely mistake, and no URL
        await #expect {
            try await withTimeout { try await client.fetchAnswer() }
        } throws: { error in
            (error as? HTTPFetchError)?.errorDescription
                == "TLS handshake with 127.0.0.1 failed: wrong version number (does the server speak plain http?)"
        }
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func cancellingTheCallingTaskCancelsTheRequest(_ client: HTTPClientUnderTest) async throws {
        // Given a server that never answers
        let server = try client.server { .hang }
        let client = server.client()
        let fetch = Task { try await client.fetchAnswer() }
        _ = try await server.waitForRequest()

        // When the fetch's task is cancelled
        fetch.cancel()
        let result = try await withTimeout { await fetch.result }

        // Then whatever the transport threw (URLError(.cancelled) on Linux,
        // HTTPClientError.cancelled), the client says CancellationError
        #expect(throws: CancellationError.self) { try result.get() }
    }

    /// A fetch whose task is cancelled before it starts cancels the data
    /// task first (`withTaskCancellationHandler` calls its handler at once),
    /// and URLSession may complete that task, on its own queues, before the
    /// fetch starts waiting for it.
    @Test func aTaskCompletedBeforeTheFetchWaitsStillEndsTheFetch() async throws {
        // Given a data task that completed, cancelled, before anyone waited for it
        let collector = BodyCollector(limit: 1024)
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URL(string: "https://numbers.invalid/n")!)
        collector.urlSession(session, task: task, didCompleteWithError: URLError(.cancelled))

        // When the fetch starts waiting for it
        let wait = Task { try await withCheckedThrowingContinuation { collector.start($0) } }
        let result = try await withTimeout { await wait.result }

        // Then it ends with the task's error instead of waiting forever
        #expect(throws: URLError(.cancelled)) { try result.get() }
    }
}

@Suite struct RedactedURLTests {
    @Test(arguments: [
        ("https://numbers.example/n", "https://numbers.example/n"),
        ("https://bob:hunter2@numbers.example/n", "https://***:***@numbers.example/n"),
        ("https://bob@numbers.example/n", "https://***@numbers.example/n"),
        ("https://h/n?token=abc&page=2", "https://h/n?token=***&page=2"),
        ("https://h/n?access_token=abc", "https://h/n?access_token=***"),
        ("https://h/n?KEY=abc&Api_Key=def&apikey=ghi", "https://h/n?KEY=***&Api_Key=***&apikey=***"),
        ("https://h/n?x-api-key=abc", "https://h/n?x-api-key=***"),
        ("https://h/n?client_secret=abc&password=p&passwd=q", "https://h/n?client_secret=***&password=***&passwd=***"),
        ("https://h/n?sig=a&signature=b&auth=c&session=d&code=e", "https://h/n?sig=***&signature=***&auth=***&session=***&code=***"),
        ("https://h/n?api%5Fkey=abc", "https://h/n?api%5Fkey=***"),
        ("https://h/n?page=1#access_token=abc&state=x", "https://h/n?page=1#access_token=***&state=x"),
        ("https://u:p@h:8443/n?token=t&token=u", "https://***:***@h:8443/n?token=***&token=***"),
        ("https://h/n?a=1&&token=x&flag&=y", "https://h/n?a=1&&token=***&flag&=y"),
        // `;` separates parameters too, for servers that read it so
        ("https://h/n?a=1;token=abc&b=2;key=k;c", "https://h/n?a=1;token=***&b=2;key=***;c"),
    ])
    func secretsAreReplaced(_ original: String, _ redacted: String) throws {
        #expect(RedactedURL(try #require(URL(string: original))).description == redacted)
        // Read as text, not parsed as a URL, it hides the same
        #expect(RedactedURL(text: original).description == redacted)
    }

    @Test(arguments: [
        ("bob:pw@host/n", "***:***@host/n"),
        ("bob@host:80", "***@host:80"),
        ("bob:p/w@host/n?token=t", "***:***@host/n?token=***"),
        ("http://bob:p@ss w@h/n#key=k", "http://***:***@h/n#key=***"),
        ("127.0.0.1:8765", "127.0.0.1:8765"),
        ("Random", "Random"),
    ])
    func secretsInTextThatIsNoURLAreReplacedToo(_ original: String, _ redacted: String) {
        #expect(RedactedURL(text: original).description == redacted)
    }

    /// The commands bootstrap no tracer: the companion's client works out no span for a request.
    @Test func theCompanionsClientAsksForNoSpans() {
        #expect(AsyncHTTPClientTransport.configuration.tracing.tracer == nil)
        #expect(AsyncHTTPClientTransport.configuration.connectionPool.retryConnectionEstablishment == false)
    }
}
