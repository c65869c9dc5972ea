import FetchHistoryModel
import FoundationEssentials

/// Fetches as JUnit XML, the test report every CI system shows: a
/// `<testsuite>` per session (or per source), a `<testcase>` per fetch.
///
/// | Outcome | Test case |
/// |---|---|
/// | succeeded | passed |
/// | failed, timed-out | `<failure type="failed">` with the error, `<failure type="timed-out">` |
/// | cancelled | `<skipped message="cancelled (user)">` |
/// | interrupted | `<error type="interrupted">`: the recording process died |
/// | running | `<skipped message="still running">` |
///
/// A case is named by its source and start (`random at 2025-03-01T10:00:00.000Z`),
/// its `classname` is its suite's name, and its `system-out` holds the rest
/// of the fetch (id, session, host, value, HTTP status and bytes), so a CI
/// page shows what was fetched. A suite cannot be written before it is
/// complete (its counts come first), so each suite's cases are kept as text
/// until `xml()`: memory grows with the report, not with the history read.
///
/// ```swift
/// var report = JUnitReport(suites: .session)
/// for fetch in fetches { report.add(fetch) }
/// try report.xml().write(to: url, atomically: true, encoding: .utf8)
/// ```
public struct JUnitReport: Sendable {
    /// What one `<testsuite>` holds.
    public enum Suites: String, CaseIterable, Sendable {
        /// The fetches of one session (one run of a program), in the order they started.
        case session
        /// The fetches of one source (`random`, or a URL).
        case source
    }

    public let suites: Suites
    private var order: [String] = []
    private var suiteByName: [String: Suite] = [:]

    public init(suites: Suites = .session) {
        self.suites = suites
    }

    /// Adds one fetch to its suite; suites keep the order their first fetch came in.
    public mutating func add(_ fetch: Fetch) {
        let name = suiteName(of: fetch)
        if suiteByName[name] == nil {
            order.append(name)
            suiteByName[name] = Suite(name: name, first: fetch, suites: suites)
        }
        suiteByName[name]!.add(fetch)
    }

    /// A test case that is no fetch but a check made over them (`--threshold
    /// p95<500ms`), in the suite named `suite`, after the fetches' suites:
    /// it passes, or fails with `failure`. Its `classname` is the suite's.
    public mutating func addCheck(suite: String, name: String, failure: String?) {
        if suiteByName[suite] == nil {
            order.append(suite)
            suiteByName[suite] = Suite(name: suite)
        }
        suiteByName[suite]!.addCheck(name: name, failure: failure)
    }

    /// The whole document, an XML declaration first.
    public func xml() -> String {
        var counts = Counts()
        for name in order { counts.add(suiteByName[name]!.counts) }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // No skipped count here: Jenkins' junit-10.xsd allows none on <testsuites>, each suite has its own.
        out += "<testsuites name=\"fetch-history\"\(counts.attributes(skipped: false))"
        guard !order.isEmpty else { return out + "/>\n" }
        out += ">\n"
        for name in order { out += suiteByName[name]!.xml }
        return out + "</testsuites>\n"
    }

    private func suiteName(of fetch: Fetch) -> String {
        switch suites {
        case .session: "session \(fetch.sessionID.uuidString.lowercased())"
        case .source: fetch.source
        }
    }

    /// What a `<testsuite>` and `<testsuites>` count.
    private struct Counts: Sendable {
        var tests = 0, failures = 0, errors = 0, skipped = 0
        var milliseconds: Int64 = 0

        mutating func add(_ other: Counts) {
            tests += other.tests
            failures += other.failures
            errors += other.errors
            skipped += other.skipped
            add(milliseconds: other.milliseconds)
        }

        /// Adds a duration; an imported history may hold any, and a sum past Int64 stays at its largest.
        mutating func add(milliseconds more: Int64) {
            let (sum, overflow) = milliseconds.addingReportingOverflow(more)
            milliseconds = overflow ? .max : sum
        }

        func attributes(skipped withSkipped: Bool = true) -> String {
            " tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\"" + (withSkipped ? " skipped=\"\(skipped)\"" : "")
                + " time=\"\(JUnitReport.seconds(milliseconds))\""
        }
    }

    private struct Suite: Sendable {
        let name: String
        /// When its first fetch started; nil for a suite of checks.
        let startedAt: Timestamp?
        /// The session's host; for a suite of a source, hosts may differ and none is named.
        let host: String?
        var counts = Counts()
        var cases = ""

        init(name: String, first: Fetch, suites: Suites) {
            self.name = name
            startedAt = first.startedAt
            host = suites == .session && !first.host.isEmpty ? first.host : nil
        }

        /// A suite of checks, which started at no one moment.
        init(name: String) {
            self.name = name
            startedAt = nil
            host = nil
        }

        mutating func addCheck(name caseName: String, failure: String?) {
            counts.tests += 1
            cases += "    <testcase name=\"\(attribute(caseName))\" classname=\"\(attribute(name))\" time=\"0.000\""
            guard let failure else {
                cases += "/>\n"
                return
            }
            counts.failures += 1
            cases += ">\n      <failure type=\"threshold\" message=\"\(attribute(failure))\">\(text(failure))</failure>\n    </testcase>\n"
        }

        mutating func add(_ fetch: Fetch) {
            counts.tests += 1
            if let milliseconds = fetch.durationMilliseconds { counts.add(milliseconds: milliseconds) }
            var attributes = "name=\"\(attribute("\(fetch.source) at \(fetch.startedAt.iso8601)"))\""
            attributes += " classname=\"\(attribute(name))\""
            if let milliseconds = fetch.durationMilliseconds { attributes += " time=\"\(JUnitReport.seconds(milliseconds))\"" }
            cases += "    <testcase \(attributes)>\n"
            switch fetch.outcome {
            case .succeeded: break
            case .failed(let message):
                counts.failures += 1
                cases += "      <failure type=\"failed\" message=\"\(attribute(message))\">\(text(failureText(of: fetch, message)))</failure>\n"
            case .timedOut:
                counts.failures += 1
                let message = fetch.script?.timeoutMilliseconds.map { "timed out after \(JUnitReport.seconds($0))s" } ?? "timed out"
                cases += "      <failure type=\"timed-out\" message=\"\(message)\">\(message)</failure>\n"
            case .cancelled(let reason):
                counts.skipped += 1
                cases += "      <skipped message=\"cancelled (\(reason.rawValue))\"/>\n"
            case .interrupted:
                counts.errors += 1
                let message = "interrupted: the process recording it ended before the fetch did"
                cases += "      <error type=\"interrupted\" message=\"\(message)\"/>\n"
            case nil:
                counts.skipped += 1
                cases += "      <skipped message=\"still running\"/>\n"
            }
            cases += "      <system-out>\(text(details(of: fetch)))</system-out>\n"
            cases += "    </testcase>\n"
        }

        var xml: String {
            var out = "  <testsuite name=\"\(attribute(name))\"\(counts.attributes())"
            if let startedAt { out += " timestamp=\"\(startedAt.iso8601)\"" }
            if let host { out += " hostname=\"\(attribute(host))\"" }
            out += ">\n"
            return out + cases + "  </testsuite>\n"
        }

        /// A failure's text: its message, then the answer's body when one was kept.
        private func failureText(of fetch: Fetch, _ message: String) -> String {
            guard let body = fetch.response?.body else { return message }
            let type = body.contentType.map { ", Content-Type: \($0)" } ?? ""
            let cut = body.isTruncated ? ", truncated" : ""
            return "\(message)\n\nresponse body (\(body.text.utf8.count) bytes\(type)\(cut)):\n\(body.text)"
        }

        /// The fetch's own fields, one `name: value` line each, for its `system-out`.
        private func details(of fetch: Fetch) -> String {
            var lines = [
                "id: \(fetch.id.uuidString.lowercased())",
                "session: \(fetch.sessionID.uuidString.lowercased())",
                "source: \(fetch.source)",
                "outcome: \(fetch.status.rawValue)",
            ]
            if !fetch.host.isEmpty { lines.append("host: \(fetch.host)") }
            lines.append("started: \(fetch.startedAt.iso8601)")
            if let endedAt = fetch.endedAt { lines.append("ended: \(endedAt.iso8601)") }
            if let value = fetch.value { lines.append("value: \(value.json)") }
            if let error = fetch.errorMessage { lines.append("error: \(error)") }
            if let response = fetch.response { lines.append("http: \(response.status), \(response.bytes) bytes") }
            return lines.joined(separator: "\n") + "\n"
        }

        private func attribute(_ text: String) -> String { XMLText.escaped(text, inAttribute: true) }
        private func text(_ text: String) -> String { XMLText.escaped(text, inAttribute: false) }
    }

    /// Milliseconds as seconds with three decimals, the unit of JUnit's `time`.
    static func seconds(_ milliseconds: Int64) -> String {
        let milliseconds = max(0, milliseconds)
        let whole = milliseconds / 1000, fraction = milliseconds % 1000
        let digits = String(fraction)
        return "\(whole).\(String(repeating: "0", count: 3 - digits.count))\(digits)"
    }
}
