#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the commands do to the process they run in: how it ends, which
/// signals it ignores, which program it becomes.
enum ThisProcess {
    /// Ends the process with `status`, at once: nothing else runs.
    static func exit(_ status: Int32) -> Never {
        terminate(status)
    }

    /// A closed pipe (`export | head`) becomes EPIPE on write, which the
    /// output stream turns into a quiet end, instead of SIGPIPE killing
    /// the process.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Unblocks SIGINT and SIGTERM on the calling thread, the main one, at
    /// the start. A mask is inherited: a launcher's worker thread often
    /// blocks every signal, and then neither the default action nor a trap
    /// (`SignalPipe`, whose handler runs on any thread that takes the
    /// signal) would ever see one. Dispatch's own threads keep them blocked.
    static func unblockTrappableSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// The folder of the running program's file (Linux's /proc/self/exe),
    /// else of the path it was started as; "." when that has no folder.
    static var executableFolder: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = count > 0
            ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// Replaces this process with the program at `path`, given `arguments`
    /// after its own path (execv): returns only by throwing why the program
    /// could not be started.
    static func replace(withProgramAt path: String, arguments: [String]) throws(SystemError) -> Never {
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(path, argv)
        throw SystemError.ofLastCall
    }
}

/// `exit(3)`, named apart from `ThisProcess.exit`, which calls it.
private func terminate(_ status: Int32) -> Never {
    exit(status)
}
