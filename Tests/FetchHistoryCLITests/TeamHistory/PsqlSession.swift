import Dispatch
import Foundation
import LoopbackServers
import Synchronization

/// One psql process on a test server's socket, kept open: the test sends
/// it statements one at a time, so a transaction it began stays open (its
/// transaction id taken, its rows not yet committed) while the test does
/// other things, as a push's transaction is between its INSERT and its
/// COMMIT.
///
/// Launched as `FetchHistoryProcess` launches the binary: under its launch
/// lock, with close-on-exec pipes, the output read on threads of its own,
/// every wait a yield, never a blocked pool thread or a sleep.
final class PsqlSession: @unchecked Sendable {
    // Unchecked: `process` and `input` are set before anyone else sees the
    // session and only read afterwards; what changes is behind a mutex.

    private let process = Process()
    private var input: FileHandle?
    private let output = Mutex(Data())
    private let errors = Mutex(Data())
    private let exited = DispatchGroup()

    private static let launchQueue = DispatchQueue(label: "FetchHistoryCLITests.PsqlSession.launch")

    /// Opens a session on `database` as the superuser, through the socket.
    static func open(on server: TestPostgresServer, database: String) async throws -> PsqlSession {
        let session = PsqlSession()
        session.process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        session.process.arguments = [
            "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", server.folder, "-p", String(server.port),
            "-U", TestPostgresServer.superuser, "-d", database,
        ]
        session.process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            launchQueue.async { continuation.resume(with: Result { try session.launch() }) }
        }
        return session
    }

    /// A session left open by a failed test does not outlive it.
    deinit {
        if process.processIdentifier > 0, process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    private func launch() throws {
        typealias Ends = (read: FileHandle, write: FileHandle)
        let (inputPipe, outputPipe, errorPipe) = try ChildLaunch.lock.withLock { _ -> (Ends, Ends, Ends) in
            try (Self.makePipe(), Self.makePipe(), Self.makePipe())
        }
        process.standardInput = inputPipe.read
        process.standardOutput = outputPipe.write
        process.standardError = errorPipe.write
        exited.enter()
        process.terminationHandler = { [exited] _ in exited.leave() }
        try ChildLaunch.run(process)
        try? inputPipe.read.close()
        try? outputPipe.write.close()
        try? errorPipe.write.close()
        input = inputPipe.write
        Self.drain(outputPipe.read) { chunk in self.output.withLock { $0.append(chunk) } }
        Self.drain(errorPipe.read) { chunk in self.errors.withLock { $0.append(chunk) } }
    }

    /// Reads `handle` to its end on a thread of its own, handing over each chunk as it comes.
    private static func drain(_ handle: FileHandle, store: @escaping @Sendable (Data) -> Void) {
        Thread {
            while case let chunk = handle.nextChunk(), !chunk.isEmpty { store(chunk) }
            try? handle.close()
        }.start()
    }

    /// Call under the launch lock.
    private static func makePipe() throws -> (read: FileHandle, write: FileHandle) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw SandboxError("pipe: \(String(cString: strerror(errno)))") }
        descriptors.forEach(ChildLaunch.closeOnExec)
        return (
            FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true),
            FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
        )
    }

    /// Sends `sql` (one or more statements), then a `SELECT` of `marker`,
    /// and returns once psql printed the marker: every statement before it
    /// has then run. Throws if psql stops first (ON_ERROR_STOP: a failed
    /// statement ends it) or `limit` passes.
    func run(_ sql: String, marker: String, limit: Duration = FetchHistoryProcess.defaultTimeLimit) async throws {
        guard let input else { throw SandboxError("psql is not running") }
        try input.write(contentsOf: Data("\(sql)\nSELECT '\(marker)';\n".utf8))
        let deadline = ContinuousClock.now + limit
        while !printedLines.contains(marker) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw SandboxError("psql did not print \(marker) within \(limit) (running: \(process.isRunning)); it said:\n\(said)")
            }
            await Task.yield()
        }
    }

    /// The first line psql printed that starts with `prefix`, if any.
    func printedLine(startingWith prefix: String) -> String? {
        printedLines.first { $0.hasPrefix(prefix) }
    }

    private var printedLines: [String] {
        String(decoding: output.withLock { $0 }, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private var said: String {
        String(decoding: output.withLock { $0 }, as: UTF8.self) + String(decoding: errors.withLock { $0 }, as: UTF8.self)
    }

    /// Ends psql (an open transaction rolls back) and waits for it to exit.
    func close() async {
        try? input?.close()
        if await !FetchHistoryProcess.wait(for: exited, limit: .seconds(10)) {
            kill(process.processIdentifier, SIGKILL)
            _ = await FetchHistoryProcess.wait(for: exited, limit: .seconds(10))
        }
    }
}
