@_spi(Benchmarks) import FetchHistory
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP source against a job that does the same work, on a server of
/// the harness's own (127.0.0.1, keep-alive): 100 fetches in a row, each
/// recorded, against `curl -s` of the same 100 URLs in one process followed
/// by the store's recording of 100 fetches through SQLite's C API (a start
/// row, then its end, each in its own transaction: `RecordingEngine.raw`),
/// timed together; and the CPU a fetch costs while it waits 3 s for its
/// answer (the goal: 50 ms), beside curl's for the same wait.
///
/// fetch-history fetches through its companion `fetch-history-http`; the
/// harness builds both, side by side.
struct HTTPBenchmark {
    var suite: Suite

    mutating func run() throws {
        let server = try LocalNumberServer()
        defer { server.stop() }
        let database = "\(suite.work)/http.sqlite"
        Suite.removeDatabase(database)
        let url = "http://127.0.0.1:\(server.port)/number"

        log("HTTP: 100 fetches in a row, fetch-history vs curl and recording them through SQLite's C API")
        let fetches = ChildProcess([
            suite.cli, "fetch", "-d", database, "--source", url, "--count", "100", "--interval", "0ms", "--timeout", "10s",
        ])
        let baseline = CurlAndRecording(url: url, count: 100, database: "\(suite.work)/http-baseline.sqlite")
        try baseline.prepare()
        // One warm-up each, then alternately.
        try fetches.run()
        _ = try baseline.run()
        var fetching = Samples(), curlAndRecording = Samples()
        for index in 0..<suite.repetitions(11) {
            if index % 2 == 0 {
                fetching.append(try fetches.run().wall)
                curlAndRecording.append(try baseline.run())
            } else {
                curlAndRecording.append(try baseline.run())
                fetching.append(try fetches.run().wall)
            }
        }
        suite.report.comparisons.append(Comparison(
            name: "100 HTTP fetches in a row, each recorded (local server, keep-alive)", subject: "fetch-history",
            subjectMedian: fetching.median,
            baseline: "`curl -s` of the same 100 URLs, then 100 fetches recorded through SQLite's C API (start, end: 2 transactions each)",
            baselineMedian: curlAndRecording.median, unit: .milliseconds, target: .timeRatioAtMost(2, stated: "≤ 2×"),
            repetitions: fetching.values.count
        ))
        Suite.removeDatabase(baseline.database)

        log("HTTP: CPU while a fetch waits 3 s for its answer")
        let slow = "http://127.0.0.1:\(server.port)/slow"
        var ours = Samples(), theirs = Samples()
        for _ in 0..<suite.repetitions(3) {
            ours.append(try ChildProcess([suite.cli, "fetch", "-d", database, "--source", slow, "--timeout", "10s"]).run().cpu)
            theirs.append(try ChildProcess(["curl", "-s", "-o", "/dev/null", slow]).run().cpu)
        }
        suite.report.comparisons.append(Comparison(
            name: "CPU (user + sys) of an HTTP fetch waiting 3 s", subject: "fetch-history", subjectMedian: ours.median,
            baseline: "50 ms budget", baselineMedian: 0.050, unit: .milliseconds,
            target: .timeRatioAtMost(1, stated: "≤ 50 ms"), repetitions: ours.values.count
        ))
        suite.report.absolute.append((
            name: "CPU of `curl -s` waiting for the same 3 s answer", value: String(format: "%.1f ms", theirs.median * 1e3)
        ))
        Suite.removeDatabase(database)
    }
}

/// The baseline of the 100 fetches: what fetch-history does, by the
/// shortest means — `curl` fetches the URLs, then the store's SQL records
/// that many fetches (`RecordingEngine.raw`: a session, then for each fetch
/// an INSERT and an UPDATE in transactions of their own) into a database
/// with the project's schema, as `fetch` records into one that exists.
struct CurlAndRecording {
    var url: String
    var count: Int
    var database: String

    /// Makes the database, with the project's schema: not timed, as
    /// `fetch`'s database exists after its warm-up.
    func prepare() throws {
        try freshDatabase(database)
    }

    /// Runs both, one after the other, and returns their wall time in seconds.
    func run() throws -> Double {
        // New ids every run (time-ordered, as the store's), so that each run adds its own rows.
        let fetches = RecordedFetch.generated(count: count).map { fetch in
            var fetch = fetch
            fetch.id = BenchmarkIDs.timeOrdered()
            return fetch
        }
        let curl = ChildProcess(["curl", "-s", "-o", "/dev/null"] + Array(repeating: url, count: count))
        let clock = ContinuousClock()
        let start = clock.now
        try curl.run()
        _ = try RecordingEngine.raw.record(fetches, into: database)
        return (clock.now - start).seconds
    }
}

/// An HTTP/1.1 server on 127.0.0.1 that answers `42` to any GET, at once,
/// or after 3 s for `/slow`; connections are kept alive, each on a thread
/// of its own.
final class LocalNumberServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        guard listener >= 0 else { throw BenchmarkError("cannot open a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            throw BenchmarkError("cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                Thread.detachNewThread { Self.serve(connection) }
            }
        }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Answers each request on `connection` until the client closes it.
    private static func serve(_ connection: Int32) {
        defer { close(connection) }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while true {
            guard let headerEnd = pending.firstRange(of: end) else {
                let count = read(connection, &chunk, chunk.count)
                guard count > 0 else { return }
                pending += chunk[..<count]
                continue
            }
            let head = String(decoding: pending[..<headerEnd.lowerBound], as: UTF8.self)
            pending.removeSubrange(..<headerEnd.upperBound)
            if head.hasPrefix("GET /slow") { sleep(3) }
            let response = Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n42".utf8)
            guard write(connection, response, response.count) == response.count else { return }
        }
    }
}
