import Dispatch
import Foundation
import LoopbackServers
import Synchronization

/// The `fetch-history` binary run on a real pseudo-terminal: its standard
/// output and standard error are both the terminal's slave side, so
/// `isatty` is true for them (no seam to fake it), and everything the child
/// writes reaches the master side in the order it was written, as a user's
/// screen gets it.
///
/// ```swift
/// let child = try await TerminalProcess.start(["fetch", "--count", "3"], environment: sandbox.environment())
/// let ok = await child.waitForTranscript { $0.contains("[1/3]") }
/// let result = try await child.wait()
/// TerminalScreen(result.transcript).lines   // what the user sees
/// ```
final class TerminalProcess: @unchecked Sendable {
    // Unchecked: `process` is set up before `start` returns and only read
    // after; the transcript is behind a mutex.

    struct Result: CustomStringConvertible {
        var status: Int32
        var wasSignalled: Bool
        /// Every byte the child wrote to the terminal (stdout and stderr), in order.
        var transcript: String

        var description: String {
            "\(wasSignalled ? "signal" : "status") \(status); transcript: \(transcript.debugDescription)"
        }
    }

    private let process = Process()
    private let bytes = Mutex(Data())
    /// The tests waiting for the transcript to show something, each woken
    /// (true) when a read makes its condition hold, or (false) when the
    /// child's terminal ends or its limit passes: no task spins on a shared
    /// thread while it waits (three that did, at once, held a loaded test
    /// run's others up for longer than a fetch lasts).
    private let waiters = Mutex<[UUID: TranscriptWaiter]>([:])
    /// Whether the terminal has ended (the child's last byte read).
    private let hasEnded = Mutex(false)
    private let exited = DispatchGroup()
    private let drained = DispatchGroup()

    private init() {}

    /// Opens a pseudo-terminal and launches the binary on it.
    static func start(_ arguments: [String], environment: [String: String], workingDirectory: URL) async throws -> TerminalProcess {
        let child = TerminalProcess()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue(label: "TerminalProcess.launch").async {
                continuation.resume(with: Swift.Result {
                    try child.launch(arguments, environment: environment, workingDirectory: workingDirectory)
                })
            }
        }
        return child
    }

    private func launch(_ arguments: [String], environment: [String: String], workingDirectory: URL) throws {
        // Both ends close-on-exec, made under the launch lock, so no other
        // test's child inherits them (Process dup2s the slave onto 1 and 2).
        let (master, slave) = try ChildLaunch.lock.withLock { _ -> (Int32, Int32) in
            // posix_openpt, grantpt, unlockpt and ptsname are not in Swift's
            // Glibc module (they need _XOPEN_SOURCE); their Linux core is
            // /dev/ptmx and two ioctls (constants from <asm-generic/ioctls.h>).
            let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            guard master >= 0 else { throw SandboxError("open /dev/ptmx: \(String(cString: strerror(errno)))") }
            let TIOCSPTLCK: UInt = 0x4004_5431, TIOCGPTN: UInt = 0x8004_5430
            var unlock: Int32 = 0
            var number: UInt32 = 0
            guard ioctl(master, TIOCSPTLCK, &unlock) == 0, ioctl(master, TIOCGPTN, &number) == 0 else {
                close(master)
                throw SandboxError("unlocking the pseudo-terminal: \(String(cString: strerror(errno)))")
            }
            let name = "/dev/pts/\(number)"
            ChildLaunch.closeOnExec(master)
            let slave = open(name, O_RDWR | O_NOCTTY)
            guard slave >= 0 else { throw SandboxError("open \(name): \(String(cString: strerror(errno)))") }
            ChildLaunch.closeOnExec(slave)
            return (master, slave)
        }
        let slaveHandle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.executableURL = FetchHistoryProcess.binary
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = workingDirectory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = slaveHandle
        process.standardError = slaveHandle
        exited.enter()
        process.terminationHandler = { [exited] _ in exited.leave() }
        try ChildLaunch.run(process)
        // Only the child holds the slave now: when it exits, reading the
        // master ends (EIO) after the last byte.
        try? slaveHandle.close()

        drained.enter()
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                bytes.withLock { $0.append(contentsOf: buffer[0..<count]) }
                wakeWaiters(ended: false)
            }
            close(master)
            hasEnded.withLock { $0 = true }
            drained.leave()
            wakeWaiters(ended: true)
        }.start()
    }

    var transcript: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Waits until the transcript satisfies `condition`; false if the
    /// child's terminal ended first or `limit` passed.
    func waitForTranscript(limit: Duration = FetchHistoryProcess.defaultTimeLimit, _ condition: @escaping @Sendable (String) -> Bool) async -> Bool {
        let id = UUID()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            waiters.withLock { $0[id] = TranscriptWaiter(condition: condition, continuation: continuation) }
            wakeWaiters(ended: hasEnded.withLock { $0 })
            let (seconds, attoseconds) = limit.components
            DispatchQueue.global().asyncAfter(deadline: .now() + Double(seconds) + Double(attoseconds) / 1e18) { [self] in
                let timedOut = waiters.withLock { $0.removeValue(forKey: id) }
                timedOut?.continuation.resume(returning: condition(transcript))
            }
        }
    }

    /// Resumes the waiters whose condition now holds, or all of them once the terminal has ended.
    private func wakeWaiters(ended: Bool) {
        let text = transcript
        let ready = waiters.withLock { waiters in
            let ready = waiters.filter { ended || $0.value.condition(text) }
            for id in ready.keys { waiters.removeValue(forKey: id) }
            return ready.values.map { ($0.continuation, $0.condition(text)) }
        }
        for (continuation, holds) in ready { continuation.resume(returning: holds) }
    }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the child to exit and the terminal to be read to its end.
    func wait(limit: Duration = .seconds(60)) async throws -> Result {
        guard await FetchHistoryProcess.wait(for: exited, limit: limit) else {
            kill(process.processIdentifier, SIGKILL)
            throw SandboxError("the child on the terminal did not exit within \(limit); transcript: \(transcript.debugDescription)")
        }
        guard await FetchHistoryProcess.wait(for: drained, limit: .seconds(10)) else {
            throw SandboxError("the terminal did not end after the child exited; transcript: \(transcript.debugDescription)")
        }
        return Result(status: process.terminationStatus, wasSignalled: process.terminationReason == .uncaughtSignal, transcript: transcript)
    }

    deinit {
        if process.processIdentifier > 0, process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// What a terminal shows after receiving `transcript`: carriage return,
/// line feed, and "erase to end of line" (`ESC [ K`) applied; any other
/// escape sequence dropped. Enough to tell whether a progress line was left
/// behind or ran into an output line.
struct TerminalScreen {
    /// Every line, the one the cursor ended on last (empty when nothing is left on it).
    private(set) var lines: [String] = [""]

    init(_ transcript: String) {
        var rows: [[Character]] = [[]]
        var column = 0
        var characters = Array(transcript)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\r": column = 0
            case "\n", "\r\n":
                rows.append([])
                column = 0
            case "\u{1B}":
                // CSI: ESC [ parameters final-byte.
                guard characters.first == "[" else { continue }
                characters.removeFirst()
                var final: Character = " "
                while let next = characters.popFirst() {
                    if let ascii = next.asciiValue, (0x40...0x7E).contains(ascii) { final = next; break }
                }
                if final == "K" { rows[rows.count - 1].removeSubrange(min(column, rows[rows.count - 1].count)...) }
            default:
                var row = rows[rows.count - 1]
                while row.count < column { row.append(" ") }
                if column < row.count { row[column] = character } else { row.append(character) }
                rows[rows.count - 1] = row
                column += 1
            }
        }
        lines = rows.map { String($0) }
    }
}

/// A test waiting for the transcript to satisfy `condition`.
private struct TranscriptWaiter {
    var condition: @Sendable (String) -> Bool
    var continuation: CheckedContinuation<Bool, Never>
}
