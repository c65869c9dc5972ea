import Dispatch
import Foundation
import LoopbackServers
import Synchronization
import Testing

/// What one run of the `fetch-history` binary did.
struct CLIResult: Sendable, CustomStringConvertible {
    var arguments: [String]
    /// The exit status, or the signal number when `wasSignalled`.
    var status: Int32
    var wasSignalled: Bool
    var standardOutputData: Data
    var standardErrorData: Data
    /// When the child was launched and when it exited, as the test process
    /// saw them: its own lifetime, whatever the test's scheduling did after.
    var launchedAt: ContinuousClock.Instant
    var exitedAt: ContinuousClock.Instant
    /// Who still held standard output open a second after the child exited, if anyone.
    var lateOutputHolders: String?

    /// From launch to exit.
    var lifetime: Duration { exitedAt - launchedAt }

    var standardOutput: String { String(decoding: standardOutputData, as: UTF8.self) }
    var standardError: String { String(decoding: standardErrorData, as: UTF8.self) }

    /// Standard output split into lines, without the final empty line.
    var lines: [String] {
        var lines = standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    var description: String {
        "fetch-history \(arguments.joined(separator: " ")) → \(wasSignalled ? "signal" : "status") \(status) "
            + "after \(lifetime)"
            + (lateOutputHolders.map { "\n--- stdout still held open after the exit by:\n\($0)" } ?? "")
            + "\n--- stdout:\n\(standardOutput.prefix(2000))\n--- stderr:\n\(standardError.prefix(2000))"
    }
}

/// The binary did not exit in time; it was killed.
struct CLITimedOut: Error, CustomStringConvertible {
    var arguments: [String]
    var limit: Duration
    var description: String { "fetch-history \(arguments.joined(separator: " ")) did not exit within \(limit); killed" }
}

/// One child process running the `fetch-history` binary, launched with
/// Foundation's `Process` (not a shell, so SIGINT is not ignored), its
/// output read on threads of its own so a big output cannot deadlock it.
///
/// Nothing here blocks a thread of Swift's cooperative pool (two threads on
/// a two-core machine, shared by every test running in parallel): launches
/// run on a serial queue of their own, reads on dedicated threads, waits
/// through continuations.
final class FetchHistoryProcess: @unchecked Sendable {
    // Unchecked: `process` and the pipes are set up in `start` (on the
    // launch queue, before anything else can see them) and then only read;
    // everything that changes later is behind a mutex.

    static let binary = URL(fileURLWithPath: CommandLine.arguments[0])
        .deletingLastPathComponent().appending(path: "fetch-history")

    /// The bound on any single run: a hung child fails its test instead of the suite.
    static let defaultTimeLimit: Duration = .seconds(60)

    /// Writing to a child that exited must fail with EPIPE, not kill the test process.
    private static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Launches happen one at a time, here.
    private static let launchQueue = DispatchQueue(label: "FetchHistoryCLITests.launch")

    enum StandardOutput {
        /// Read to the end into `CLIResult.standardOutputData`.
        case capture
        /// Left to the test: read `standardOutputHandle` and close it when done.
        case manual
    }

    let arguments: [String]
    private let process = Process()
    /// Left when the child has exited.
    private let exited = DispatchGroup()
    /// Left when the captured outputs have ended.
    private let drained = DispatchGroup()
    private let output = Mutex(Data())
    private let errors = Mutex(Data())
    private let times = Mutex<(launched: ContinuousClock.Instant?, exited: ContinuousClock.Instant?)>((nil, nil))
    private let lateHolders = Mutex<String?>(nil)
    /// The pipe inode of the child's standard output, to name who holds it open.
    private var outputInode: UInt64 = 0
    /// In `.manual` mode: the read end of the child's standard output.
    private(set) var standardOutputHandle: FileHandle?

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Launches the binary and returns once it runs.
    static func start(
        arguments: [String], environment: [String: String], workingDirectory: URL, standardInput: Data? = nil,
        standardOutput: StandardOutput = .capture, executable: URL = binary
    ) async throws -> FetchHistoryProcess {
        _ = ignoreSIGPIPE
        let child = FetchHistoryProcess(
            executable: executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory
        )
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            launchQueue.async {
                continuation.resume(with: Result { try child.launch(standardInput: standardInput, standardOutput: standardOutput) })
            }
        }
        return child
    }

    /// A test that ends early (a failed `#require`) leaves no child behind.
    deinit {
        if process.processIdentifier > 0, process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    private init(executable: URL, arguments: [String], environment: [String: String], workingDirectory: URL) {
        self.arguments = arguments
        process.executableURL = executable
        process.currentDirectoryURL = workingDirectory
        process.arguments = arguments
        process.environment = environment
    }

    /// Runs on `launchQueue`.
    private func launch(standardInput: Data?, standardOutput: StandardOutput) throws {
        typealias Ends = (read: FileHandle, write: FileHandle)
        let (outputPipe, errorPipe, inputPipe) = try ChildLaunch.lock.withLock { _ -> (Ends, Ends, Ends) in
            try (Self.makePipe(), Self.makePipe(), Self.makePipe())
        }
        // Process dup2s each onto 0, 1 and 2 in the child, which clears close-on-exec there.
        process.standardOutput = outputPipe.write
        process.standardError = errorPipe.write
        process.standardInput = inputPipe.read
        standardOutputHandle = standardOutput == .manual ? outputPipe.read : nil
        var status = stat()
        if fstat(outputPipe.read.fileDescriptor, &status) == 0 { outputInode = UInt64(status.st_ino) }

        exited.enter()
        process.terminationHandler = { [exited] _ in
            self.times.withLock { $0.exited = ContinuousClock.now }
            exited.leave()
        }
        try ChildLaunch.run(process) {
            times.withLock { $0.launched = ContinuousClock.now }
        }
        // The child has its copies; the parent's would keep the pipes from ever ending.
        try? outputPipe.write.close()
        try? errorPipe.write.close()
        try? inputPipe.read.close()

        if standardOutput == .capture {
            Self.drain(outputPipe.read, group: drained) { data in self.output.withLock { $0.append(data) } }
        }
        Self.drain(errorPipe.read, group: drained) { data in self.errors.withLock { $0.append(data) } }
        let inputHandle = inputPipe.write
        if let standardInput {
            Thread {
                try? inputHandle.write(contentsOf: standardInput)
                try? inputHandle.close()
            }.start()
        } else {
            try? inputHandle.close()
        }
    }

    /// A pipe whose two ends are close-on-exec. Call under `ChildLaunch.lock`.
    private static func makePipe() throws -> (read: FileHandle, write: FileHandle) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            throw SandboxError("pipe: \(String(cString: strerror(errno)))")
        }
        descriptors.forEach(ChildLaunch.closeOnExec)
        return (
            FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true),
            FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
        )
    }

    /// Reads `handle` to its end on a thread of its own, handing over each
    /// chunk as it comes, so a test can follow the child's progress.
    private static func drain(_ handle: FileHandle, group: DispatchGroup, store: @escaping @Sendable (Data) -> Void) {
        group.enter()
        Thread {
            while case let chunk = handle.nextChunk(), !chunk.isEmpty { store(chunk) }
            try? handle.close()
            group.leave()
        }.start()
    }

    /// What the child has printed so far (captured output only).
    var printedText: String {
        output.withLock { String(decoding: $0, as: UTF8.self) }
    }

    /// Complete lines the child has printed so far (captured output only).
    var printedLineCount: Int {
        output.withLock { data in data.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 } }
    }

    /// Yields until the child has printed `count` lines; false if it exited
    /// first or `limit` passed. Each fetch line is printed after the fetch is
    /// recorded, so this follows the child's own progress.
    func waitForPrintedLines(_ count: Int, limit: Duration = FetchHistoryProcess.defaultTimeLimit) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while printedLineCount < count {
            guard isRunning, ContinuousClock.now < deadline else { return false }
            await Task.yield()
        }
        return true
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the child to exit and its output to end, at most `limit`;
    /// past it the child is killed and `CLITimedOut` thrown.
    func wait(limit: Duration = FetchHistoryProcess.defaultTimeLimit) async throws -> CLIResult {
        let deadline = ContinuousClock.now + limit
        guard await Self.wait(for: exited, limit: limit) else {
            kill(process.processIdentifier, SIGKILL)
            _ = await Self.wait(for: exited, limit: .seconds(10))
            throw CLITimedOut(arguments: arguments, limit: limit)
        }
        // The outputs end when the last copy of their write ends closes: at
        // the child's exit, unless something else holds a copy. Say who.
        if await !Self.wait(for: drained, limit: .seconds(1)) {
            lateHolders.withLock { $0 = Self.holders(ofPipe: outputInode) }
            guard await Self.wait(for: drained, limit: max(deadline - ContinuousClock.now, .seconds(1))) else {
                throw CLITimedOut(arguments: arguments, limit: limit)
            }
        }
        let (launched, exited) = times.withLock { $0 }
        return CLIResult(
            arguments: arguments,
            status: process.terminationStatus,
            wasSignalled: process.terminationReason == .uncaughtSignal,
            standardOutputData: output.withLock { $0 },
            standardErrorData: errors.withLock { $0 },
            launchedAt: launched ?? .now,
            exitedAt: exited ?? .now,
            lateOutputHolders: lateHolders.withLock { $0 }
        )
    }

    /// Whether `group` finished within `limit`, without blocking a thread of
    /// the cooperative pool.
    static func wait(for group: DispatchGroup, limit: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let once = Mutex<CheckedContinuation<Bool, Never>?>(continuation)
            let resume: @Sendable (Bool) -> Void = { value in
                once.withLock { pending in
                    pending?.resume(returning: value)
                    pending = nil
                }
            }
            group.notify(queue: .global()) { resume(true) }
            let (seconds, attoseconds) = limit.components
            let interval = Double(seconds) + Double(attoseconds) / 1e18
            DispatchQueue.global().asyncAfter(deadline: .now() + interval) { resume(false) }
        }
    }

    /// The processes holding the pipe with `inode` open, as `pid fds command` lines.
    static func holders(ofPipe inode: UInt64) -> String {
        let target = "pipe:[\(inode)]"
        var lines: [String] = []
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in processes where pid.allSatisfy(\.isNumber) {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            let held = descriptors.filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == target
            }
            guard !held.isEmpty else { continue }
            let commandLine = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            let command = String(decoding: commandLine.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            lines.append("\(pid) fds \(held.sorted()) \(command.prefix(200))")
        }
        return lines.isEmpty ? "(no process found)" : lines.joined(separator: "\n")
    }
}

/// Reads `handle` up to and including the first newline, on a thread of its
/// own, then closes it: what `| head -1` does to a writer.
func readFirstLineAndClose(_ handle: FileHandle) async -> String {
    await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
        Thread {
            var line = Data()
            while true {
                let chunk = handle.nextChunk()
                if chunk.isEmpty { break }
                if let newline = chunk.firstIndex(of: UInt8(ascii: "\n")) {
                    line.append(chunk[chunk.startIndex..<newline])
                    break
                }
                line.append(chunk)
            }
            try? handle.close()
            continuation.resume(returning: String(decoding: line, as: UTF8.self))
        }.start()
    }
}
