import AsyncHTTPClient
import FetchHistory
import FetchHistoryHTTPCore
import FetchHistoryInterchange
import FoundationEssentials
import NIOCore
import NIOHTTP1

/// A collector of OpenTelemetry spans at an OTLP/HTTP endpoint, as `push`
/// sends to it: each batch of fetches one request of spans in OTLP/JSON
/// (`OTLPWriter`, the bytes `export --format otlp` writes), POSTed to the
/// endpoint's traces URL with its headers.
///
/// A collector cannot say which spans it had already; the span ids are the
/// history's own, so a span sent twice is the same span. What it accepts
/// counts as new; what it rejects (OTLP's partial success) is not sent
/// again, as the specification asks.
package struct OTLPCollector: PushDestination {
    package let endpoint: OTLPEndpoint
    private let scopeVersion: String

    /// - Parameter scopeVersion: the version of fetch-history, as the spans' instrumentation scope's.
    package init(endpoint: OTLPEndpoint, scopeVersion: String) {
        self.endpoint = endpoint
        self.scopeVersion = scopeVersion
    }

    /// `otlp ` and the traces URL, secrets hidden: never a history's id.
    package var pushKey: String { "otlp " + endpoint.shown }

    package var displayName: String { endpoint.shown }

    /// About 1 MB of JSON a request, well under what collectors take (the
    /// OpenTelemetry Collector's default limit is 20 MiB).
    package var pushBatchSize: Int { 1_000 }

    package nonisolated(nonsending) func add(_ fetches: [Fetch], sessions: [Session]) async throws -> Int {
        guard let (body, spans) = OTLPWriter.request(of: fetches, scopeVersion: scopeVersion) else { return 0 }
        var request = HTTPClientRequest(url: endpoint.tracesURL)
        request.method = .POST
        for header in endpoint.headers { request.headers.replaceOrAdd(name: header.name, value: header.value) }
        // The body is OTLP/JSON whatever the variables' headers say: a
        // Content-Type among them (protobuf, copied from another exporter's
        // settings) would have the collector misread every request.
        request.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        request.body = .bytes(body)
        let (status, answer) = try await send(request)
        guard (200..<300).contains(status) else {
            let message = OTLPAnswer.message(in: answer, hiding: endpoint.headers.map(\.value))
            throw OTLPPushError.refused(collector: endpoint.shown, status: status, message: message)
        }
        return spans - min(spans, OTLPAnswer.rejectedSpans(in: answer))
    }

    /// The status, and the first 64 KiB of the answer (the rest let go).
    private func send(_ request: HTTPClientRequest) async throws(OTLPPushError) -> (Int, [UInt8]) {
        do {
            let response = try await AsyncHTTPClientTransport.client.execute(request, timeout: .seconds(120))
            var answer: [UInt8] = []
            for try await chunk in response.body {
                answer.append(contentsOf: chunk.readableBytesView.prefix(OTLPAnswer.maximumBytes - answer.count))
                if answer.count == OTLPAnswer.maximumBytes { break }
            }
            return (Int(response.status.code), answer)
        } catch {
            throw .unreachable(collector: endpoint.shown, AsyncHTTPClientTransport.failure(error), authority: endpoint.authority)
        }
    }
}

/// Why a push to a collector stopped. The batches it took before are
/// remembered as sent; the next push sends the rest.
package enum OTLPPushError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request did not reach the collector, or its answer did not come back.
    case unreachable(collector: String, TransportFailure, authority: String)
    /// The collector answered with a status other than 2xx, and `message`
    /// when its answer had one.
    case refused(collector: String, status: Int, message: String?)

    package var description: String {
        switch self {
        case .unreachable(let collector, let failure, let authority):
            return "cannot push to the collector at \(collector): \(failure.sentence(host: authority))"
        case .refused(let collector, let status, let message):
            return "the collector at \(collector) refused the spans with HTTP \(status)" + (message.map { ": \($0)" } ?? "")
        }
    }
}

/// What an OTLP/HTTP collector answers, read as far as `push` needs.
enum OTLPAnswer {
    /// What is read of an answer.
    static let maximumBytes = 64 * 1024

    /// `ExportTraceServiceResponse.partial_success.rejected_spans`: 0 when
    /// the answer has none (or is not OTLP/JSON).
    static func rejectedSpans(in answer: [UInt8]) -> Int {
        guard let response = try? JSONDecoder().decode(ExportResponse.self, from: Data(answer)) else { return 0 }
        return Int(clamping: max(0, response.partialSuccess?.rejectedSpans?.value ?? 0))
    }

    /// A refusal's words: the `message` of a `google.rpc.Status` in JSON,
    /// else the answer's first line; at most 200 characters, nil when empty.
    /// A header's value the collector echoes (`invalid key s3cr3t…`) is
    /// shown as `***`: what was sent as a secret is never printed (values
    /// shorter than 6 characters, a `1` or `on`, are left, or every digit
    /// of the message could go).
    static func message(in answer: [UInt8], hiding secrets: [String]) -> String? {
        let status = try? JSONDecoder().decode(RPCStatus.self, from: Data(answer))
        let text = status?.message ?? String(decoding: answer, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
        guard var text = text.map({ String($0.drop { $0 == " " }) }), !text.isEmpty else { return nil }
        for secret in secrets where secret.count >= 6 { text = text.replacing(secret, with: "***") }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    private struct ExportResponse: Decodable {
        var partialSuccess: PartialSuccess?

        struct PartialSuccess: Decodable {
            var rejectedSpans: JSONInt64?
        }
    }

    private struct RPCStatus: Decodable {
        var message: String?
    }

    /// A 64-bit integer as proto3's JSON mapping writes it: a string, or a number.
    private struct JSONInt64: Decodable {
        var value: Int64

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self), let value = Int64(text) {
                self.value = value
            } else {
                value = try container.decode(Int64.self)
            }
        }
    }
}
