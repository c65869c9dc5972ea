import FetchHistoryTesting
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(3))) struct URLProtocolStubTests {
    @Test func aRequestThatHasAlreadyArrivedIsGivenAtOnceByItsNumber() async throws {
        // Given a stub that has answered two requests, /1 then /2
        let stub = URLProtocolStub { _ in .ok("1") }
        let session = URLSession(configuration: stub.configuration)
        for path in ["/1", "/2"] {
            _ = try await withTimeout { try await session.data(from: URL(string: "http://\(stub.host)\(path)")!) }
        }

        // When each is waited for afterwards, the later first
        let second = try await stub.waitForRequest(2, limit: .seconds(20))
        let first = try await stub.waitForRequest(1, limit: .seconds(20))

        // Then each is the request of its number, already there
        #expect(second.url?.path == "/2")
        #expect(first.url?.path == "/1")
    }

    @Test func askingForRequestZeroStopsWithAMessageThatSaysRequestsCountFromOne() async {
        // A programming mistake in the test: it ends the process (here a child the exit test runs),
        // with a message, rather than reading before the first request
        let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try? await URLProtocolStub { _ in .ok("1") }.waitForRequest(0, limit: .seconds(5))
        }
        let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("waitForRequest(0): requests are counted from 1"), "\(message)")
    }

    @Test func theRequestsStreamGivesEveryRequestInArrivalOrder() async throws {
        // Given a stub that has answered /1 then /2
        let stub = URLProtocolStub { _ in .ok("1") }
        let session = URLSession(configuration: stub.configuration)
        for path in ["/1", "/2"] {
            _ = try await withTimeout { try await session.data(from: URL(string: "http://\(stub.host)\(path)")!) }
        }

        // When its requests are read from the stream
        let paths = try await withTimeout {
            var paths: [String] = []
            for await request in stub.requests {
                paths.append(request.url?.path ?? "")
                if paths.count == 2 { break }
            }
            return paths
        }

        // Then they come in the order they arrived
        #expect(paths == ["/1", "/2"])
    }
}

extension URLProtocolStubTests {
    /// What `body` returned or threw.
    static func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    /// The code of the URLError `result` failed with, if it did.
    static func urlErrorCode<T>(_ result: Result<T, any Error>) -> URLError.Code? {
        guard case .failure(let error) = result else { return nil }
        return (error as? URLError)?.code
    }

    @Test func eachStubAnswersItsOwnHostOnly() async throws {
        // Given two stubs answering 1 and 2, and one session through the stubs
        let one = URLProtocolStub { _ in .ok("1") }
        let two = URLProtocolStub { _ in .ok("2") }
        let session = URLSession(configuration: one.configuration)

        // When each host is asked, and a host neither stub has (a closed local port)
        let fromOne = try await withTimeout(.seconds(20)) { try await session.data(from: URL(string: "http://\(one.host)/n")!).0 }
        let fromTwo = try await withTimeout(.seconds(20)) { try await session.data(from: URL(string: "http://\(two.host)/n")!).0 }
        let elsewhere = await Self.outcome { try await withTimeout(.seconds(20)) { try await session.data(from: URL(string: "http://127.0.0.1:1/n")!).0 } }

        // Then each stub answered its own host, and neither the other one
        #expect(String(decoding: fromOne, as: UTF8.self) == "1")
        #expect(String(decoding: fromTwo, as: UTF8.self) == "2")
        #expect(Self.urlErrorCode(elsewhere) == .cannotConnectToHost, "\(elsewhere)")
    }

    @Test func cancellingARequestCancelsItsHandler() async throws {
        // Given a stub whose handler waits until it is cancelled, and says so
        let (ended, endedContinuation) = AsyncStream<Void>.makeStream()
        let stub = URLProtocolStub { _ in
            // A stream nothing yields to: iterating it ends only when the task is cancelled.
            let (never, keepOpen) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            withExtendedLifetime(keepOpen) {}
            if Task.isCancelled { endedContinuation.yield() }
            throw CancellationError()
        }
        let session = URLSession(configuration: stub.configuration)
        let fetch = Task { try await session.data(from: URL(string: "http://\(stub.host)/slow")!) }
        _ = try await stub.waitForRequest(limit: .seconds(20))

        // When the request's task is cancelled
        fetch.cancel()

        // Then the handler's task is cancelled too
        let handlerEnded = try await withTimeout(.seconds(20)) {
            var iterator = ended.makeAsyncIterator()
            return await iterator.next() != nil
        }
        #expect(handlerEnded)
        _ = await fetch.result
    }

    @Test func aResponseCarriesItsStatusBodyAndHeaders() async throws {
        // Given a stub answering 201 with a body and a header of its own
        let stub = URLProtocolStub { _ in .respond(status: 201, body: Data("x".utf8), headers: ["X-Stub": "yes"]) }
        let session = URLSession(configuration: stub.configuration)

        // When it is asked
        let (body, response) = try await withTimeout(.seconds(20)) { try await session.data(from: URL(string: "http://\(stub.host)/n")!) }

        // Then the answer is all of that
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 201)
        #expect(http.value(forHTTPHeaderField: "X-Stub") == "yes")
        #expect(String(decoding: body, as: UTF8.self) == "x")
    }

    @Test func aHandlerThatThrowsFailsTheRequestAsAnUnknownError() async throws {
        // Given a stub whose handler throws, and one that fails as the network would
        struct Broken: Error {}
        let throwing = URLProtocolStub { _ in throw Broken() }
        let failing = URLProtocolStub { _ in .fail(URLError(.timedOut)) }

        // When each is asked
        let thrown = await Self.outcome { try await withTimeout(.seconds(20)) {
            try await URLSession(configuration: throwing.configuration).data(from: URL(string: "http://\(throwing.host)/n")!)
        } }
        let failed = await Self.outcome { try await withTimeout(.seconds(20)) {
            try await URLSession(configuration: failing.configuration).data(from: URL(string: "http://\(failing.host)/n")!)
        } }

        // Then the first fails with URLError.unknown, the second with its own error
        #expect(Self.urlErrorCode(thrown) == .unknown, "\(thrown)")
        #expect(Self.urlErrorCode(failed) == .timedOut, "\(failed)")
    }
}
