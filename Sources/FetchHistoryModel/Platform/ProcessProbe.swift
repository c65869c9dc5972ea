import FoundationEssentials
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the system says about a process: the facts `ProcessIdentity` pins a
/// recorder with. POSIX calls work everywhere; the boot id and a process's
/// start time come from Linux's `/proc`, and on Apple's systems from
/// `sysctl(3)` (`kern.bootsessionuuid`, and `KERN_PROC_PID`'s
/// `kinfo_proc`). Only this file asks.
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
        #elseif canImport(Darwin)
        // sysctlbyname(3): the size first, then the text.
        var size = 0
        guard sysctlbyname("kern.bootsessionuuid", nil, &size, nil, 0) == 0, size > 0 else { return nil }
        var text = [CChar](repeating: 0, count: size)
        guard sysctlbyname("kern.bootsessionuuid", &text, &size, nil, 0) == 0 else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
        #else
        nil
        #endif
    }

    /// When the process started — on Linux in clock ticks since boot, on
    /// Apple's systems in microseconds since 1970: with the boot id, it
    /// tells a process from a later one given the same id.
    static func startTicks(of pid: Int32) -> Int64? {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let commandEnd = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)" come fields 3, 4, …; the start time is field 22.
        let fields = stat[stat.index(after: commandEnd)...].split(separator: " ")
        return fields.count > 19 ? Int64(fields[19]) : nil
        #elseif canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
        guard sysctl(&name, UInt32(name.count), &info, &size, nil, 0) == 0, size > 0 else { return nil }
        // `p_starttime` is a macro for this field, which Swift does not import.
        let start = info.kp_proc.p_un.__p_starttime
        return Int64(start.tv_sec) * 1_000_000 + Int64(start.tv_usec)
        #else
        nil
        #endif
    }
}
