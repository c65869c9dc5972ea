import Foundation
import Testing

/// A generated history with several hosts, sources and problems over four
/// days, each fetch labelled with the problem the tests expect it to have,
/// so that what `stats --by problem` says is checked against labels written
/// by hand, not against the tool's own masking.
///
/// Per day: six succeeded fetches over three sources and hosts; HTTP 503
/// from the users API on two hosts; a timeout from the health probe; and
/// now and then a user not found (once with a 200), a refused connection
/// with its address, a failure whose error says "timed out", a cancel and
/// an interrupted fetch. HTTP 500 appears on the last day only: new there.
enum ProblemHistory {
    static let users = "https://api.example/users"
    static let health = "https://api.example/health"
    static let quiet = "https://api.example/quiet"
    static let hosts = ["ci-1", "ci-2", "probe-3"]
    static let days = 4

    struct Fetch {
        var record: ExportRecord
        /// The problem the tests expect; nil for a succeeded fetch.
        var problem: String?
    }

    /// Every fetch, oldest first.
    static let fetches: [Fetch] = {
        var fetches: [Fetch] = []
        var number = 0
        for day in 0..<days {
            let start = Fixtures.day0 + Int64(day) * Fixtures.day
            var slot = 0
            func add(
                _ outcome: String, _ source: String, _ host: String, problem: String?, duration: Int64 = 80, error: String = "",
                status: Int? = nil
            ) {
                number += 1
                slot += 1
                let session = Ids.session(day * hosts.count + (hosts.firstIndex(of: host) ?? 0) + 1)
                let record = ExportRecord.make(
                    outcome, id: Ids.fetch(number), session: session, source: source, at: start + Int64(slot) * 420_000,
                    duration: duration, value: slot, error: error, status: status, bytes: status == nil ? nil : 12, host: host
                )
                fetches.append(Fetch(record: record, problem: problem))
            }
            for index in 0..<6 {
                add("succeeded", ["random", users, health][index % 3], hosts[index % 3], problem: nil,
                    duration: 100 + Int64(index) * 37 + Int64(day) * 11, status: index % 3 == 0 ? nil : 200)
            }
            add("succeeded", quiet, "ci-2", problem: nil, duration: 2_000 + Int64(day), status: 200)
            let http503Hosts = [["ci-1", "ci-1"], ["ci-1", "ci-2"], ["ci-2", "ci-1"], ["ci-1"]][day]
            for host in http503Hosts { add("failed", users, host, problem: "HTTP 503", error: "HTTP 503", status: 503) }
            add("timed-out", health, "probe-3", problem: "timed out", duration: 1_000)
            switch day {
            case 0:
                add("failed", health, "probe-3", problem: "connection refused by <ip>", error: "connection refused by 10.0.0.7:8080")
            case 1:
                add("failed", users, "ci-1", problem: "user <n> not found", error: "user 17 not found")
                add("failed", users, "ci-1", problem: "timed out", error: "timed out")
                add("cancelled", "random", "ci-2", problem: "cancelled", duration: 30)
            case 2:
                add("failed", users, "ci-1", problem: "user <n> not found", error: "user 42 not found")
                add("failed", users, "ci-2", problem: "user <n> not found", error: "user 8 not found", status: 200)
                add("failed", health, "probe-3", problem: "connection refused by <ip>", error: "connection refused by 10.0.0.9:8081")
                add("interrupted", "random", "ci-2", problem: "interrupted")
            default:
                add("failed", users, "ci-1", problem: "user <n> not found", error: "user 7 not found")
                add("timed-out", "random", "ci-1", problem: "timed out", duration: 1_000)
                add("failed", health, "probe-3", problem: "HTTP 500", error: "HTTP 500", status: 500)
                add("failed", health, "probe-3", problem: "HTTP 500", error: "HTTP 500", status: 500)
            }
        }
        return fetches
    }()

    static var records: [ExportRecord] { fetches.map(\.record) }

    /// When day `day` (0 to 3) starts.
    static func day(_ day: Int) -> Int64 {
        Fixtures.day0 + Int64(day) * Fixtures.day
    }

    /// What `stats --by problem` should say of one problem's fetches.
    struct Group: Equatable, CustomStringConvertible {
        var key: String
        var total: Int
        var share: Double
        var sources: Int
        var hosts: Int
        var firstSeen: String
        var lastSeen: String
        var example: String

        var description: String {
            "\(key): \(total) share \(share) sources \(sources) hosts \(hosts) \(firstSeen)…\(lastSeen) e.g. \(example)"
        }

        static func == (lhs: Group, rhs: Group) -> Bool {
            lhs.key == rhs.key && lhs.total == rhs.total && abs(lhs.share - rhs.share) < 1e-6 && lhs.sources == rhs.sources
                && lhs.hosts == rhs.hosts && lhs.firstSeen == rhs.firstSeen && lhs.lastSeen == rhs.lastSeen && lhs.example == rhs.example
        }

        /// A group of the JSON `stats` printed.
        init(json group: [String: Any]) throws {
            key = try #require(group["key"] as? String)
            total = try #require(group["total"] as? Int)
            share = try #require(group["share"] as? Double)
            sources = try #require(group["sources"] as? Int)
            hosts = try #require(group["hosts"] as? Int)
            firstSeen = try #require(group["firstSeen"] as? String)
            lastSeen = try #require(group["lastSeen"] as? String)
            example = try #require(group["example"] as? String)
        }

        init(key: String, _ fetches: [Fetch], of total: Int) {
            self.key = key
            self.total = fetches.count
            share = Double(fetches.count) / Double(total)
            sources = Set(fetches.map(\.record.source)).count
            hosts = Set(fetches.compactMap(\.record.host)).count
            firstSeen = ISO.format(fetches.map(\.record.startedAt).min()!)
            lastSeen = ISO.format(fetches.map(\.record.startedAt).max()!)
            example = fetches.max { ($0.record.startedAt, $0.record.id) < ($1.record.startedAt, $1.record.id) }!.record.id
        }
    }

    /// The problems of `fetches` as `stats --by problem` should give them:
    /// most frequent first, ties by key.
    static func groups(_ fetches: [Fetch]) -> [Group] {
        let failing = fetches.filter { $0.problem != nil }
        return Dictionary(grouping: failing, by: { $0.problem! })
            .map { Group(key: $0.key, $0.value, of: failing.count) }
            .sorted { ($0.total, $1.key) > ($1.total, $0.key) }
    }
}
