import Dispatch
import FetchHistory
import FetchHistoryTesting
import Foundation
import LoopbackServers
import Synchronization
import Testing

/// The reliability suite (issue 6): every guarantee is proved against the
/// built binary on temporary files, and each prints one summary line with
/// its figures. The guarantees run one at a time (`.serialized`): several of
/// them start many processes at once, and running them together with each
/// other on two cores would measure the machine, not the product.
@Suite("Reliability", .serialized)
struct ReliabilityTests {}

enum Reliability {
    /// Prints one `reliability: …` line, shown in `swift test`'s output.
    static func summary(_ line: String) {
        print("reliability: \(line)")
    }

    /// The seed of every random choice in the suite: `RELIABILITY_SEED` when
    /// set (to repeat a run), else a new one, printed once.
    static let seed: UInt64 = {
        let seed = ProcessInfo.processInfo.environment["RELIABILITY_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64.max)
        print("reliability: seed \(seed) (RELIABILITY_SEED=\(seed) repeats this run's random choices)")
        return seed
    }()

    /// A generator for one test: the suite's seed mixed with the test's name,
    /// so each test's choices do not depend on which other tests ran.
    static func random(for test: String) -> SplitMix64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in test.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return SplitMix64(seed: seed ^ hash)
    }

    /// An integer setting from the environment, for longer local runs
    /// (`RELIABILITY_KILLS=500 swift test --filter Reliability`).
    static func setting(_ name: String, default value: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? value
    }
}

// MARK: - Reading the database directly

/// Reads a database with the FetchHistory library's own `Database`, opened
/// read-only (no sqlite3 CLI needed), on a thread of its own: SQLite's calls
/// block (on another process's lock, on WAL recovery), and no thread of the
/// cooperative pool may.
enum SQLiteProbe {
    /// `PRAGMA integrity_check`: "ok" for a sound database, else SQLite's
    /// list of problems (or why it could not be opened).
    static func integrityCheck(_ path: String) async -> String {
        await runOnDedicatedThread {
            do {
                let database = try Database(path: path, access: .readOnly)
                var problems: [String] = []
                try database.forEachRow("PRAGMA integrity_check") { problems.append($0.optionalText(0) ?? "?") }
                return problems.joined(separator: "; ")
            } catch {
                return "cannot check: \(error)"
            }
        }
    }

    /// The integer the query answers, read-only.
    static func integer(_ path: String, _ sql: String) async throws -> Int64 {
        try await runOnDedicatedThread {
            let database = try Database(path: path, access: .readOnly)
            return try database.scalarInt64(sql)
        }
    }

    /// Runs `sql` on a read-write connection (to make fixtures: another
    /// application's database, a newer schema version).
    static func execute(_ path: String, _ sql: [String]) async throws {
        try await runOnDedicatedThread {
            let database = try Database(path: path, access: .create)
            for statement in sql { try database.execute(statement) }
        }
    }

}

// MARK: - Files

/// A file's bytes and its SQLite companions, to prove a command left it as it was.
struct FileSnapshot: Equatable, CustomStringConvertible {
    var bytes: Data?
    /// The size of `-wal`, `-shm` and `-journal`, for those that exist.
    var companions: [String: Int]

    init(_ path: String) {
        bytes = FileManager.default.contents(atPath: path)
        var companions: [String: Int] = [:]
        for suffix in ["-wal", "-shm", "-journal"] {
            if let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix) {
                companions[suffix] = (attributes[.size] as? NSNumber)?.intValue ?? -1
            }
        }
        self.companions = companions
    }

    /// A companion holding data: a `-wal` or `-journal` that is not empty
    /// (a `-shm` is only an index of the `-wal`, never data).
    var companionsWithData: [String] {
        companions.filter { $0.key != "-shm" && $0.value > 0 }.keys.sorted()
    }

    var description: String {
        "\(bytes.map { "\($0.count) bytes, fnv1a \(String(fnv1a($0), radix: 16))" } ?? "no file"), companions \(companions)"
    }
}

/// `12.3 s`.
func seconds(_ duration: Duration) -> String {
    let (whole, attoseconds) = duration.components
    return String(format: "%.1f s", Double(whole) + Double(attoseconds) / 1e18)
}

/// A short fingerprint for messages (the bytes themselves are compared).
func fnv1a(_ data: Data) -> UInt64 {
    data.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
}

/// Standard output's complete lines: those ending with a newline. A child
/// killed mid-write may leave a partial last line, which is not counted.
func completeLines(_ data: Data) -> [String] {
    var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines.removeLast()  // the part after the last newline: "" or a partial line
    return lines
}

/// The value of `"key":"…"` in a line of export JSON (ids, outcomes: no escapes).
func jsonField(_ key: String, in line: String) -> String? {
    guard let start = line.range(of: "\"\(key)\":\"") else { return nil }
    let rest = line[start.upperBound...]
    guard let end = rest.firstIndex(of: "\"") else { return nil }
    return String(rest[..<end])
}

// MARK: - Running several at once

/// Runs `body` for each element, at most `width` at a time, and returns the
/// results in the elements' order.
func boundedMap<Element: Sendable, Result: Sendable>(
    _ elements: [Element], width: Int, _ body: @escaping @Sendable (Element) async throws -> Result
) async throws -> [Result] {
    try await withThrowingTaskGroup(of: (Int, Result).self) { group in
        var results = [Result?](repeating: nil, count: elements.count)
        var next = 0
        for _ in 0..<min(width, elements.count) {
            let index = next
            group.addTask { (index, try await body(elements[index])) }
            next += 1
        }
        while let (index, result) = try await group.next() {
            results[index] = result
            if next < elements.count {
                let index = next
                group.addTask { (index, try await body(elements[index])) }
                next += 1
            }
        }
        return results.map { $0! }
    }
}

// MARK: - Other programs

/// Runs a program other than fetch-history (`mount`, `umount`, `sh`) to its
/// end, the way `FetchHistoryProcess` runs the binary: the spawn under its
/// launch lock, with close-on-exec pipes, outputs read on threads of their
/// own, and the wait through a continuation, so no pool thread blocks.
enum ExternalCommand {
    struct Result: CustomStringConvertible {
        var command: [String]
        var status: Int32
        var wasSignalled: Bool
        var standardOutput: String
        var standardError: String

        var succeeded: Bool { status == 0 && !wasSignalled }

        var description: String {
            "\(command.joined(separator: " ")) → \(wasSignalled ? "signal" : "status") \(status)\n--- stdout:\n\(standardOutput)\n--- stderr:\n\(standardError)"
        }
    }

    private static let launchQueue = DispatchQueue(label: "FetchHistoryCLITests.Reliability.launch")

    /// What the reading threads collected.
    private final class Captured: Sendable {
        let output = Mutex(Data())
        let errors = Mutex(Data())
    }

    static func run(_ executable: String, _ arguments: [String], limit: Duration = .seconds(60)) async throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"]
        let exited = DispatchGroup()
        let drained = DispatchGroup()
        let captured = Captured()

        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            launchQueue.async {
                continuation.resume(with: Swift.Result {
                    let (outputPipe, errorPipe, nullInput) = try ChildLaunch.lock.withLock { _ in
                        try (pipeEnds(), pipeEnds(), FileHandle(fileDescriptor: open("/dev/null", O_RDONLY | O_CLOEXEC), closeOnDealloc: true))
                    }
                    process.standardOutput = outputPipe.write
                    process.standardError = errorPipe.write
                    process.standardInput = nullInput
                    exited.enter()
                    process.terminationHandler = { _ in exited.leave() }
                    try ChildLaunch.run(process)
                    try? outputPipe.write.close()
                    try? errorPipe.write.close()
                    try? nullInput.close()
                    for (handle, isOutput) in [(outputPipe.read, true), (errorPipe.read, false)] {
                        drained.enter()
                        Thread {
                            let data = handle.readUntilEnd()
                            if isOutput { captured.output.withLock { $0 = data } } else { captured.errors.withLock { $0 = data } }
                            try? handle.close()
                            drained.leave()
                        }.start()
                    }
                })
            }
        }
        guard await FetchHistoryProcess.wait(for: exited, limit: limit) else {
            kill(process.processIdentifier, SIGKILL)
            _ = await FetchHistoryProcess.wait(for: exited, limit: .seconds(10))
            throw SandboxError("\(executable) \(arguments.joined(separator: " ")) did not exit within \(limit); killed")
        }
        _ = await FetchHistoryProcess.wait(for: drained, limit: .seconds(10))
        return Result(
            command: [executable] + arguments, status: process.terminationStatus,
            wasSignalled: process.terminationReason == .uncaughtSignal,
            standardOutput: String(decoding: captured.output.withLock { $0 }, as: UTF8.self),
            standardError: String(decoding: captured.errors.withLock { $0 }, as: UTF8.self)
        )
    }

    /// Call under the launch lock.
    private static func pipeEnds() throws -> (read: FileHandle, write: FileHandle) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw SandboxError("pipe: \(String(cString: strerror(errno)))") }
        descriptors.forEach(ChildLaunch.closeOnExec)
        return (
            FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true),
            FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
        )
    }

}
