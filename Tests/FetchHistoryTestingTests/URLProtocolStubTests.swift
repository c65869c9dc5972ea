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
