import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one run of a child process cost.
struct ProcessCost {
    /// From just before `posix_spawn` to `waitpid` returning, in seconds.
    var wall: Double
    /// The peak resident set in KiB, when it was measured.
    var peakKiB: Int?
    /// User and system CPU time in seconds: on a loaded machine, steadier
    /// than the wall time.
    var cpu: Double = 0
}

/// Runs a command as a whole process and measures it, the way a user's
/// shell would pay for it: start-up, work and exit.
///
/// Standard input is `/dev/null`; standard output goes to `output`
/// (`/dev/null` unless given); standard error is kept in a file and shown
/// when the command fails.
struct ChildProcess {
    var arguments: [String]
    var output = "/dev/null"

    /// The environment, built once so it is not part of any measurement.
    private static let environment: [String] = ProcessInfo.processInfo.environment.map { "\($0)=\($1)" }
    private static let errorLog = NSTemporaryDirectory() + "fetch-history-bench-\(getpid()).stderr"

    init(_ arguments: [String], output: String = "/dev/null") {
        self.arguments = arguments
        self.output = output
    }

    /// Runs the command once; fails unless it exits 0.
    ///
    /// With `measuringMemory`, the command runs under GNU time (`%M`), which
    /// adds about a millisecond to the wall time. Not our own `wait4`: Linux
    /// carries the peak RSS of the process image an `exec` replaces into the
    /// new one, so a child spawned from this (large) harness would report at
    /// least the harness's size. GNU time forks from a small process.
    @discardableResult
    func run(measuringMemory: Bool = false) throws -> ProcessCost {
        guard measuringMemory else {
            let (wall, cpu) = try spawn(arguments)
            return ProcessCost(wall: wall, peakKiB: nil, cpu: cpu)
        }
        let report = NSTemporaryDirectory() + "fetch-history-bench-\(getpid()).time"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let (wall, cpu) = try spawn([Self.gnuTime, "-f", "%M", "-o", report] + arguments)
        let text = try String(contentsOfFile: report, encoding: .utf8)
        guard let kibibytes = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
        else { throw BenchmarkError("cannot read GNU time's report: \(text)") }
        return ProcessCost(wall: wall, peakKiB: kibibytes, cpu: cpu)
    }

    /// Spawns `arguments`, waits, and returns the wall time and the CPU time
    /// (the child's and its waited-for children's) in seconds.
    private func spawn(_ arguments: [String]) throws -> (wall: Double, cpu: Double) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, Self.errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = Self.environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }

        var pid: pid_t = 0
        var status: Int32 = 0
        let clock = ContinuousClock()
        let start = clock.now
        let code = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard code == 0 else {
            throw BenchmarkError("cannot start \(arguments[0]): \(String(cString: strerror(code)))")
        }
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchmarkError("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let wall = (clock.now - start).seconds
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        // WIFEXITED / WEXITSTATUS are macros Swift does not import.
        let exited = status & 0x7F == 0
        let exitCode = (status >> 8) & 0xFF
        guard exited, exitCode == 0 else {
            let log = (try? String(contentsOfFile: Self.errorLog, encoding: .utf8)) ?? ""
            throw BenchmarkError(
                "\(arguments.joined(separator: " ")) failed (status \(status)): \(log.prefix(2_000))"
            )
        }
        return (wall, cpu)
    }

    static let gnuTime = "/usr/bin/time"
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
