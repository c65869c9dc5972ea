import Synchronization
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryReplay
@testable import FetchHistoryViewState
import FetchHistoryHTTP
import FetchHistoryTesting
import Foundation
import Testing

/// HTTP scenarios through the view state, on both HTTP clients.
extension FetchViewStateTests {
    @Test(arguments: HTTPClientUnderTest.allCases)
    func anHTTPFetchRecordsItsStatusAndSize(_ client: HTTPClientUnderTest) async throws {
        do {
            let server = try client.server { .ok("{\"number\": 17}") }
            let client = server.client(url: server.url("/n"))
            let recorder = try await HistoryRecorder(store: .inMemory(), source: client.source)
            let viewState = FetchViewState(client: client, recorder: recorder, clock: ManualClock())

            let completed = try await withTimeout { try await viewState.fetch() }

            let fetch = try await recorder.store.read { db in try db.fetch(idPrefix: completed.id.lowercased) }
            #expect(fetch.outcome == .succeeded(17))
            #expect(fetch.response == SourceResponse(status: 200, bytes: 14))
            #expect(fetch.source == server.url("/n").absoluteString)
        }
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func aFailedHTTPFetchKeepsTheStatus(_ client: HTTPClientUnderTest) async throws {
        do {
            let server = try client.server { .answer(status: 503, body: Data("busy".utf8)) }
            let client = server.client(url: server.url("/n"))
            let recorder = try await HistoryRecorder(store: .inMemory(), source: client.source)
            let viewState = FetchViewState(client: client, recorder: recorder, clock: ManualClock())

            let completed = try await withTimeout { try await viewState.fetch() }

            #expect(viewState.error == "HTTP 503")
            let fetch = try await recorder.store.read { db in try db.fetch(idPrefix: completed.id.lowercased) }
            #expect(fetch.outcome == .failed("HTTP 503"))
            #expect(fetch.response == SourceResponse(
                status: 503, bytes: 4, body: ResponseBody(text: "busy", contentType: nil, isTruncated: false)
            ))
        }
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func cancellingMidRequestIsRecordedAsCancelledOnce(_ client: HTTPClientUnderTest) async throws {
        do {
            let server = try client.server { .hang }
            let client = server.client(url: server.url("/n"))
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: client, recorder: recorder, clock: ManualClock())

            viewState.fetchButtonTapped()
            _ = try await server.waitForRequest()
            viewState.cancelButtonTapped()
            let completed = try await withTimeout { try await viewState.fetchTask?.value }

            #expect(completed?.outcome == .cancelled(.user))
            #expect(viewState.error == "Fetch cancelled")
            #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.cancelled(.user), at: .zero)])
        }
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func aSlowServerTimesOutOnTheManualClock(_ client: HTTPClientUnderTest) async throws {
        do {
            let server = try client.server { .hang }
            let clock = ManualClock()
            let client = server.client(url: server.url("/n"))
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: .seconds(3))

            viewState.fetchButtonTapped()
            _ = try await server.waitForRequest()
            clock.advance(by: .seconds(3))
            let completed = try await withTimeout { try await viewState.fetchTask?.value }

            #expect(completed?.outcome == .timedOut)
            #expect(try await recorder.timeline() == [.started(at: .zero), .ended(.timedOut, at: .seconds(3))])
        }
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func repeatedHTTPFetchesAreObservedAsTheyArrive(_ client: HTTPClientUnderTest) async throws {
        do {
            let counter = Mutex(0)
            let server = try client.server { .ok(String(counter.withLock { $0 += 1; return $0 })) }
            let clock = ManualClock()
            let client = server.client(url: server.url("/n"))
            let recorder = try await HistoryRecorder.inMemory()
            let viewState = FetchViewState(client: client, recorder: recorder, clock: clock)
            let run = Task { try await viewState.fetch(count: 3, interval: .seconds(1)) }
            for expected in 1...3 {
                let request = try await server.waitForRequest(expected)
                #expect(request.target == "/n", "request \(expected)")
                if expected < 3 {
                    // The next request only comes after the interval on the clock, whose
                    // sleep begins once the fetch's end is recorded.
                    try await clock.waitUntilSleeping()
                    clock.advance(by: .seconds(1))
                }
            }
            let completed = try await withTimeout { try await run.value }

            #expect(completed.map(\.outcome) == [.succeeded(1), .succeeded(2), .succeeded(3)])
        }
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func noTableHoldsASecretAfterFetchingFromASecretURL(_ client: HTTPClientUnderTest) async throws {
        let secrets = ["hunter2", "alice", "tok3n", "k3y", "s1gnature", "c0de", "fr4gment"]
        do {
            let server = try client.server { .answer(status: 500, body: Data()) }
            let url = server.url(
                "/n?token=tok3n&x-api-key=k3y&Sig=s1gnature&code=c0de&page=2#access_token=fr4gment", userInfo: "alice:hunter2"
            )
            let client = server.client(url: url)
            let store = try HistoryStore.inMemory()
            let recorder = try await HistoryRecorder(store: store, source: client.source)
            let viewState = FetchViewState(client: client, recorder: recorder, clock: ManualClock())

            _ = try await withTimeout { try await viewState.fetch() }

            let text = try await store.read { db in try db.allText() }
            #expect(text.contains("page=2"))
            for secret in secrets {
                #expect(!text.contains(secret), "\(secret) is stored")
            }
            var exported: [UInt8] = []
            for fetch in try await store.read({ db in try db.fetches() }) { FetchJSON.append(fetch, to: &exported) }
            for secret in secrets {
                #expect(!String(decoding: exported, as: UTF8.self).contains(secret), "\(secret) is exported")
            }
        }
    }
}
