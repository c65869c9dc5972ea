import FetchHistory
import FoundationEssentials
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Waits, without using the processor, until the history's files change,
/// Ctrl-C is pressed, or the reader of standard output goes away: what
/// `list --follow` sleeps on between the fetches it prints.
///
/// Why inotify rather than polling `PRAGMA data_version` on a timer: the
/// kernel wakes the follower when a writer writes the database or its
/// write-ahead log, so it prints a fetch as soon as it is committed and, idle,
/// it never runs at all (a timer costs a wake-up per tick, and a delay
/// between a fetch and its line). The folder is watched, not the files:
/// SQLite creates and deletes `-wal` and `-journal` as it goes. An event
/// only says "look again"; what changed is read from the database itself
/// (`fetchesEnded(after:matching:)`), so spurious or merged events are
/// harmless.
///
/// One thing inotify cannot see: SQLite writes a commit's pages to the WAL
/// file (an event), then makes them visible by updating the WAL index in
/// shared memory (no event: it is a memory map). Woken by the first, a
/// reader can still miss the commit. So after each event the watch also
/// says "look again" every 50 ms, ten times, then less and less often (100
/// ms doubling to 3.2 s: a loaded machine can hold a writer between its two
/// steps for seconds), about 7 s in all, and so it does after starting, for
/// a commit whose pages were written just before the watch began; then it
/// sleeps for good. A commit is seen at most 50 ms after it becomes visible
/// in the first half second, and an idle follower still never runs.
///
/// Ctrl-C (SIGINT) and SIGTERM are turned into a byte on a pipe the wait
/// also watches (`SignalPipe`), so they end the wait, and never a row
/// half-printed: the follower ends its output (a `json` array is closed) and
/// exits 0.
///
/// A history on a server announces its changes itself (`ChangeAnnouncer`:
/// PostgreSQL's LISTEN/NOTIFY); then each announcement is a byte on a pipe
/// the wait watches in place of inotify, and there are no looks to take.
final class HistoryWatch {
    /// Why the follower cannot wait for new fetches.
    enum Failure: Error {
        /// The pipe that turns Ctrl-C into an event could not be made.
        case cannotTrapSignals(SystemError)
        /// inotify could not watch the folder of the history at `path`.
        case cannotWatch(path: String, SystemError)
        /// poll failed.
        case cannotWait(SystemError)
        /// inotify's events could not be read.
        case cannotReadChanges(SystemError)
    }

    enum Event {
        /// Something wrote to the database's files.
        case changed
        /// Ctrl-C or SIGTERM.
        case interrupted
        /// Standard output is a pipe whose reader has gone.
        case outputClosed
    }

    /// inotify's descriptor, or the read end of the pipe announcements come on.
    private let changes: Int32
    /// The read end of the pipe the signal handler writes to.
    private let signals: Int32
    /// The names whose changes count: the database and SQLite's files
    /// beside it; nil when the history announces its changes.
    private let names: Set<[UInt8]>?
    /// What writes announcements to the pipe, stopped with the watch.
    private var announcements: Task<Void, Never>?

    /// Starts watching the folder of the database at `path`, and turns
    /// SIGINT and SIGTERM into `.interrupted`. Without `takingFirstLooks`,
    /// only change events wake it at first: how a test checks that a
    /// writer's events are seen (every test writes within the ~7 s of looks
    /// a follower otherwise takes when it starts, which would hide them).
    init(databasePath path: String, takingFirstLooks: Bool = true) throws {
        looksTaken = takingFirstLooks ? 0 : Self.looksAfterChange.count
        signals = try Self.trapSignals()
        let (folder, name) = path.folderAndName
        names = Set(["", "-wal", "-journal"].map { Array((name + $0).utf8) })
        changes = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard changes >= 0,
              inotify_add_watch(changes, folder.isEmpty ? "." : folder, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)) >= 0
        else {
            throw Failure.cannotWatch(path: path, .ofLastCall)
        }
    }

    /// Starts listening to `announcer`, and turns SIGINT and SIGTERM into
    /// `.interrupted`. A read made after this returns misses no change.
    init(announcedBy announcer: any ChangeAnnouncer) async throws {
        looksTaken = Self.looksAfterChange.count
        signals = try Self.trapSignals()
        names = nil
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Failure.cannotTrapSignals(.ofLastCall) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // Announcements pile up as one byte or many: either says "look again".
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        changes = ends[0]
        let announce = ends[1]
        announcements = try await announcer.announceChanges {
            var byte: UInt8 = 1
            _ = write(announce, &byte, 1)
        }
    }

    deinit {
        announcements?.cancel()
    }

    /// The read end of a pipe SIGINT and SIGTERM write a byte to.
    private static func trapSignals() throws -> Int32 {
        guard let signals = SignalPipe.open(for: [SIGINT, SIGTERM]) else {
            throw Failure.cannotTrapSignals(.ofLastCall)
        }
        return signals
    }

    /// The pauses, in ms, between the looks that follow a change event.
    private static let looksAfterChange: [Int32] = Array(repeating: 50, count: 10) + [100, 200, 400, 800, 1_600, 3_200]
    /// How many of them have been taken since the last change event; at the
    /// start, as if after one, unless told otherwise.
    private var looksTaken: Int

    /// Sleeps until the next event. Several at once: Ctrl-C first, then a
    /// closed output, then changes.
    func next() throws -> Event {
        while true {
            var descriptors = [
                pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                pollfd(fd: STDOUT_FILENO, events: 0, revents: 0),
                pollfd(fd: changes, events: Int16(POLLIN), revents: 0),
            ]
            // No timeout once the looks after a change are done: then only
            // the kernel wakes this process.
            let pause = looksTaken < Self.looksAfterChange.count ? Self.looksAfterChange[looksTaken] : -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), pause)
            if ready < 0 {
                if errno == EINTR { continue }
                throw Failure.cannotWait(.ofLastCall)
            }
            if ready == 0 {
                looksTaken += 1
                return .changed
            }
            if descriptors[0].revents != 0 { return .interrupted }
            // With no events asked for, poll still reports these: a pipe's
            // reader closed (POLLERR) or a terminal hung up (POLLHUP).
            if descriptors[1].revents & Int16(POLLERR | POLLHUP) != 0 { return .outputClosed }
            if descriptors[2].revents != 0, try concernsHistory() {
                looksTaken = 0
                return .changed
            }
        }
    }

    /// Reads every pending inotify event; true when one names the database
    /// or its journal. Other files in the folder only wake us up. Every
    /// announcement concerns the history.
    private func concernsHistory() throws -> Bool {
        var found = names == nil
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(changes, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { return found }
                throw Failure.cannotReadChanges(.ofLastCall)
            }
            if count == 0 { return found }
            // Announcements are bytes that say nothing more: drained, not parsed.
            if names == nil { continue }
            // Each event: wd, mask, cookie, len (4 bytes each, native order),
            // then `len` bytes of name padded with NULs (inotify(7)).
            var offset = 0
            while offset + 16 <= count {
                let length = Int(Self.uint32(buffer, at: offset + 12))
                let name = buffer[(offset + 16)..<min(offset + 16 + length, count)].prefix { $0 != 0 }
                // An overflowed queue (IN_Q_OVERFLOW) names nothing: look anyway.
                if length == 0 || names?.contains(Array(name)) == true { found = true }
                offset += 16 + length
            }
        }
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) })
    }
}
