import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the system says about a process: the facts `ProcessIdentity` pins a
/// recorder with. POSIX calls work everywhere; the boot id and a process's
/// start time come from Linux's `/proc`, and are nil elsewhere (a port to
/// Apple platforms would read them with `sysctl` here, and only here).
enum ProcessProbe {
    static var currentProcessID: Int32 { getpid() }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    }

    /// Whether a process with this id exists (it may belong to another user).
    static func exists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// The boot's id, different after every reboot.
    static func bootID() -> String? {
        #if os(Linux)
        (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .filter { !$0.isWhitespace }
        #else
        nil
        #endif
    }

    /// When the process started, in clock ticks since boot: with the boot id,
    /// it tells a process from a later one given the same id.
    static func startTicks(of pid: Int32) -> Int64? {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let commandEnd = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)" come fields 3, 4, …; the start time is field 22.
        let fields = stat[stat.index(after: commandEnd)...].split(separator: " ")
        return fields.count > 19 ? Int64(fields[19]) : nil
        #else
        nil
        #endif
    }
}
