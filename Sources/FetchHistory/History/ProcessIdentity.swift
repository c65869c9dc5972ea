import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Who recorded a session: enough to tell, later and from another process,
/// whether that recorder is still alive.
///
/// A process id alone is not enough: ids are reused, and they mean nothing
/// after a reboot. On Linux the boot id and the process's start time (clock
/// ticks since boot, from `/proc/PID/stat`) pin the id to one process.
public struct ProcessIdentity: Hashable, Sendable {
    public var host: String
    public var processID: Int32
    /// `/proc/sys/kernel/random/boot_id`, where the system has it.
    public var bootID: String?
    /// Field 22 of `/proc/PID/stat`, where the system has it.
    public var startTicks: Int64?

    public init(host: String, processID: Int32, bootID: String? = nil, startTicks: Int64? = nil) {
        self.host = host
        self.processID = processID
        self.bootID = bootID
        self.startTicks = startTicks
    }

    /// This process.
    public static let current: ProcessIdentity = {
        let pid = getpid()
        return ProcessIdentity(
            host: hostName(), processID: pid, bootID: currentBootID(), startTicks: startTicks(of: pid)
        )
    }()

    /// Whether the process is still running. A process on another host cannot
    /// be checked from here, so it counts as alive: a fetch is only called
    /// interrupted when its death is certain. Process id 0 marks a session
    /// with no recorder at all (an imported one): never alive.
    public var isAlive: Bool {
        guard processID > 0 else { return false }
        let current = Self.current
        guard host == current.host else { return true }
        if let bootID, let currentBoot = current.bootID, bootID != currentBoot { return false }
        guard kill(processID, 0) == 0 || errno == EPERM else { return false }
        if let startTicks, let now = Self.startTicks(of: processID), now != startTicks { return false }
        return true
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    }

    private static func currentBootID() -> String? {
        (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .filter { !$0.isWhitespace }
    }

    private static func startTicks(of pid: Int32) -> Int64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let commandEnd = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)" come fields 3, 4, …; the start time is field 22.
        let fields = stat[stat.index(after: commandEnd)...].split(separator: " ")
        return fields.count > 19 ? Int64(fields[19]) : nil
    }
}
