import FetchHistory
import Foundation

/// A realistic, reproducible history of `count` fetches spread over one year
/// (2025), oldest first: the same seed gives the same bytes on every machine.
///
/// Outcomes are mixed about 85% succeeded, 7% failed, 5% cancelled,
/// 2% timed-out and 1% interrupted. Fetches come in sessions of a few hundred,
/// each from one source: mostly `random`, some from two HTTP URLs, whose
/// fetches carry an HTTP status and body size. Every fetch has its script (tap,
/// timeout, cause of its end), as fetch-history records them now.
///
/// ```swift
/// for fetch in HistoryGenerator(count: 10_000) { … }
/// ```
struct HistoryGenerator: Sequence {
    var count: Int
    var seed: UInt64 = 0x5EED_F37C

    /// 2025-01-01T00:00:00Z.
    static let yearStart: Int64 = 1_735_689_600_000
    static let yearLength: Int64 = 365 * 86_400_000

    static let sources = [
        "random", "random", "random", "random", "random", "random", "random", "random",
        "http://127.0.0.1:8080/number", "https://numbers.example.com/api/v1/random?min=1&max=100",
    ]
    /// Failure messages as the screen shows them, and the response that came
    /// with each (nil: no response at all).
    static let httpFailures: [(message: String, response: SourceResponse?)] = [
        ("HTTP 503", SourceResponse(status: 503, bytes: 19)),
        ("HTTP 503", SourceResponse(status: 503, bytes: 19)),
        ("HTTP 500", SourceResponse(status: 500, bytes: 21)),
        ("HTTP 502", SourceResponse(status: 502, bytes: 0)),
        ("HTTP 429", SourceResponse(status: 429, bytes: 17)),
        ("not a number: \"<!doctype html>\"", SourceResponse(status: 200, bytes: 1_204)),
        ("The request timed out.", nil),
        ("Could not connect to the server.", nil),
    ]
    static let randomFailures = ["The source is unavailable.", "The operation could not be completed."]

    func makeIterator() -> Iterator {
        Iterator(count: count, random: SplitMix64(seed: seed))
    }

    struct Iterator: IteratorProtocol {
        let count: Int
        var random: SplitMix64
        var produced = 0
        var session = UUID()
        var source = ""
        var sessionLeft = 0
        var timeout: Int64 = 5_000
        var startedAt = HistoryGenerator.yearStart

        init(count: Int, random: SplitMix64) {
            self.count = count
            self.random = random
        }

        mutating func next() -> Fetch? {
            guard produced < count else { return nil }
            produced += 1
            if sessionLeft == 0 {
                session = random.uuid()
                source = HistoryGenerator.sources[random.below(HistoryGenerator.sources.count)]
                sessionLeft = 1 + random.below(800)
                timeout = random.below(4) == 0 ? 10_000 : 5_000
            }
            sessionLeft -= 1
            // Gaps average a year / count, so the last fetch lands near the year's end.
            let meanGap = HistoryGenerator.yearLength / Int64(count)
            startedAt += Int64(random.below(Int(2 * meanGap) + 1))
            let isHTTP = source.hasPrefix("http")
            let id = random.uuid()
            let roll = random.below(1000)
            var duration: Int64?
            var outcome: FetchOutcome
            var response: SourceResponse?
            var cause: FetchEnd.Cause?
            switch roll {
            case ..<850:
                let value = 1 + random.below(100)
                // Mostly 80–400 ms, with a slow tail.
                duration = Int64(random.below(100) < 5 ? 1_000 + random.below(4_000) : 80 + random.below(320))
                outcome = .succeeded(FetchValue(value))
                cause = .answer(FetchValue(value))
                if isHTTP { response = SourceResponse(status: 200, bytes: String(value).utf8.count + 1) }
            case ..<920:
                duration = Int64(20 + random.below(2_000))
                if isHTTP {
                    let failure = HistoryGenerator.httpFailures[random.below(HistoryGenerator.httpFailures.count)]
                    outcome = .failed(failure.message)
                    cause = .failure(failure.message)
                    response = failure.response
                } else {
                    let message = HistoryGenerator.randomFailures[random.below(HistoryGenerator.randomFailures.count)]
                    outcome = .failed(message)
                    cause = .failure(message)
                }
            case ..<970:
                duration = Int64(5 + random.below(1_500))
                let byUser = random.below(10) < 7
                outcome = .cancelled(byUser ? .user : .superseded)
                cause = byUser ? .cancelTap : .fetchTap
            case ..<990:
                duration = timeout
                outcome = .timedOut
                cause = .timeout
            default:
                outcome = .interrupted
            }
            let start = Timestamp(millisecondsSince1970: startedAt)
            let end = duration.map { Timestamp(millisecondsSince1970: startedAt + $0) }
            var script = FetchScript(tappedAt: start, timeoutMilliseconds: timeout)
            if let cause, let end { script.end = FetchScript.End(cause: cause, at: end) }
            return Fetch(
                id: id, sessionID: session, source: source, startedAt: start, endedAt: end,
                durationMilliseconds: duration, outcome: outcome, response: response, script: script
            )
        }
    }

    /// Writes the history as export records, one per line (`export --format jsonl`).
    func writeJSONLines(to path: String) throws {
        guard let file = fopen(path, "w") else {
            throw BenchmarkError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        for fetch in self {
            FetchJSON.append(fetch, to: &buffer)
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= 1 << 20 {
                fwrite(buffer, 1, buffer.count, file)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        fwrite(buffer, 1, buffer.count, file)
    }
}

/// Sebastiano Vigna's SplitMix64: tiny, fast and the same everywhere, unlike
/// the system generator.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// A version-4 UUID made of this generator's bits.
    mutating func uuid() -> UUID {
        let high = next()
        let low = next()
        var bytes = (
            UInt8(truncatingIfNeeded: high >> 56), UInt8(truncatingIfNeeded: high >> 48),
            UInt8(truncatingIfNeeded: high >> 40), UInt8(truncatingIfNeeded: high >> 32),
            UInt8(truncatingIfNeeded: high >> 24), UInt8(truncatingIfNeeded: high >> 16),
            UInt8(truncatingIfNeeded: high >> 8), UInt8(truncatingIfNeeded: high),
            UInt8(truncatingIfNeeded: low >> 56), UInt8(truncatingIfNeeded: low >> 48),
            UInt8(truncatingIfNeeded: low >> 40), UInt8(truncatingIfNeeded: low >> 32),
            UInt8(truncatingIfNeeded: low >> 24), UInt8(truncatingIfNeeded: low >> 16),
            UInt8(truncatingIfNeeded: low >> 8), UInt8(truncatingIfNeeded: low)
        )
        bytes.6 = (bytes.6 & 0x0F) | 0x40
        bytes.8 = (bytes.8 & 0x3F) | 0x80
        return UUID(uuid: bytes)
    }
}
