import Foundation
import Testing

/// Running the built binary as another user of this machine, as a second
/// person sharing it would: `runuser`, which only root may use. CI runs as
/// root, so there these tests always run; elsewhere they need root.
enum OtherUser {
    /// Reads what it is given: the usual unprivileged account.
    static let reader = "nobody"
    /// Owns a history in the tests where the owner must not be root (root
    /// may write what it does not own, and would hide the failure).
    static let owner = "daemon"

    static let runuser = "/usr/sbin/runuser"

    static var isAvailable: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: runuser)
    }

    /// On CI a missing `runuser` or root fails the test rather than skip it.
    static var mustRun: Bool {
        isAvailable || ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } == true
    }

    static let skipReason: Comment = "running as another user needs root and runuser (CI runs as root)"

    /// The program `runuser` started for `process`, once it has.
    static func program(startedBy process: FetchHistoryProcess) async throws -> pid_t {
        let deadline = ContinuousClock.now + FetchHistoryProcess.defaultTimeLimit
        while ContinuousClock.now < deadline {
            let children = (try? String(contentsOfFile: "/proc/\(process.pid)/task/\(process.pid)/children", encoding: .utf8)) ?? ""
            if let child = children.split(separator: " ").first.flatMap({ pid_t($0) }) { return child }
            guard process.isRunning else { break }
            await Task.yield()
        }
        throw SandboxError("runuser \(process.pid) started no program")
    }

    /// The numeric id of `user`.
    static func id(_ user: String) throws -> (uid: uid_t, gid: gid_t) {
        guard let entry = getpwnam(user) else { throw SandboxError("no user \(user) on this machine") }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }
}

extension Sandbox {
    /// Runs the binary as `user`, with the sandbox's environment. The
    /// sandbox's folder is opened to them first (its mode follows the test
    /// process's umask), as a folder people share would be.
    func run(as user: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> CLIResult {
        chmod(root.path, 0o755)
        return try await run(
            ["-u", user, "-m", "--", FetchHistoryProcess.binary.path] + arguments, environment: environment,
            executable: URL(fileURLWithPath: OtherUser.runuser)
        )
    }

    /// Starts the binary as `user` and returns at once. `runuser` stands
    /// between: SIGTERM sent to it reaches the program.
    func start(as user: String, _ arguments: [String]) async throws -> FetchHistoryProcess {
        chmod(root.path, 0o755)
        return try await FetchHistoryProcess.start(
            arguments: ["-u", user, "-m", "--", FetchHistoryProcess.binary.path] + arguments, environment: environment(),
            workingDirectory: root, executable: URL(fileURLWithPath: OtherUser.runuser)
        )
    }

    /// The names in `folder` (a path in the sandbox), sorted, each with its
    /// owner's uid: what a command left there.
    func entries(of folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { name in
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else { throw SandboxError("cannot stat \(name)") }
            return "\(name) uid \(info.st_uid)"
        }
    }
}
