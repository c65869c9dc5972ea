
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
        let pid = ProcessProbe.currentProcessID
        return ProcessIdentity(
            host: ProcessProbe.hostName(), processID: pid, bootID: ProcessProbe.bootID(),
            startTicks: ProcessProbe.startTicks(of: pid)
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
        guard ProcessProbe.exists(processID) else { return false }
        if let startTicks, let now = ProcessProbe.startTicks(of: processID), now != startTicks { return false }
        return true
    }
}
