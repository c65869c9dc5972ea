import CSQLite
import FetchHistoryModel
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the store checks about a database file before SQLite touches it:
/// SQLite itself would create a missing file 0644, write into a read-only
/// file as root, and only find out much later that a file is not a database;
/// and the files SQLite keeps beside it, which a reader must not leave
/// behind. POSIX calls only: file modes, owners, `open(2)` and `read(2)`.
enum DatabaseFile {
    /// Refuses a path that is a folder, a file that does not start with
    /// SQLite's header ("SQLite format 3\0"), a missing file unless it may be
    /// created, and a read-only file opened for writing. Creates a missing
    /// file with mode 0600 when `access` allows (SQLite gives its `-wal` and
    /// `-shm` the database file's mode). An empty file is accepted: SQLite
    /// treats it as a new database.
    static func check(_ path: String, for access: Database.Access) throws(OpenFailure) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            guard errno == ENOENT else { throw .sqlite(SQLiteError(code: SQLITE_CANTOPEN, message: String(cString: strerror(errno)))) }
            guard access == .create else { throw .missing }
            // The owner's write bit, not access(2): root may write anywhere,
            // but a folder its owner made read-only says "not here".
            var folderInfo = stat()
            if stat(folder(of: path), &folderInfo) == 0, folderInfo.st_mode & S_IWUSR == 0 { throw .folderNotWritable }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                close(descriptor)
            } else if errno != EEXIST {
                throw .sqlite(SQLiteError(code: SQLITE_CANTOPEN, message: String(cString: strerror(errno))))
            }
            return
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw .isDirectory }
        if access != .readOnly, info.st_mode & S_IWUSR == 0 { throw .readOnly }
        guard info.st_size > 0 else { return }
        guard try startsWithSQLiteHeader(path) else { throw .notADatabase }
    }

    private static func startsWithSQLiteHeader(_ path: String) throws(OpenFailure) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .sqlite(SQLiteError(code: SQLITE_CANTOPEN, message: String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 16)
        let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 16) }
        return count == 16 && header == Array("SQLite format 3\0".utf8)
    }

    // MARK: - Side files

    /// The files SQLite keeps beside a WAL database while a connection has
    /// it open (`-wal`, `-shm`), by inode: nil where there is none.
    struct SideFiles: Equatable {
        var log: UInt64?
        var index: UInt64?

        /// Both there: a writer has the history open, or left them.
        var areBoth: Bool { log != nil && index != nil }
    }

    static func sideFiles(of path: String) -> SideFiles {
        SideFiles(log: inode(path + "-wal"), index: inode(path + "-shm"))
    }

    /// Whether files this process creates beside `path` stay usable by the
    /// database's owner: it is the owner, or root (SQLite gives what it
    /// creates as root the database file's owner). Another user's `-wal`
    /// and `-shm` would be theirs, and the owner's next write would fail
    /// with "attempt to write a readonly database".
    static func ownsSideFiles(of path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return true }
        let user = geteuid()
        return user == 0 || user == info.st_uid
    }

    /// Removes the side files of `path` that this process made since
    /// `before` was taken: owned by it, and not there then. A reader that is
    /// not the owner opens a history only through side files that exist;
    /// should the writer have closed (and deleted them) in between, SQLite
    /// makes new ones, which would stop the owner's next write.
    static func removeSideFiles(of path: String, madeSince before: SideFiles) {
        let now = sideFiles(of: path)
        for (suffix, then, current) in [("-wal", before.log, now.log), ("-shm", before.index, now.index)] {
            guard let current, current != then else { continue }
            var info = stat()
            if lstat(path + suffix, &info) == 0, info.st_uid == geteuid(), UInt64(info.st_ino) == current {
                unlink(path + suffix)
            }
        }
    }

    /// What changes when a file is written: its inode, size and time of
    /// last change; nil when it cannot be read.
    struct Signature: Equatable {
        var inode: UInt64
        var size: Int64
        var changedAt: (seconds: Int, nanoseconds: Int)

        static func == (a: Self, b: Self) -> Bool {
            a.inode == b.inode && a.size == b.size && a.changedAt == b.changedAt
        }
    }

    static func signature(of path: String) -> Signature? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let changedAt = info.st_mtimespec
        #else
        let changedAt = info.st_mtim
        #endif
        return Signature(
            inode: UInt64(info.st_ino), size: Int64(info.st_size), changedAt: (Int(changedAt.tv_sec), Int(changedAt.tv_nsec))
        )
    }

    // MARK: - Building a history beside its place

    /// Whether any file SQLite keeps beside `path` while a connection has it
    /// open (or left by one that did not close) is there.
    static func hasSideFiles(_ path: String) -> Bool {
        ["-wal", "-shm", "-journal"].contains { inode(path + $0) != nil }
    }

    /// Whether this process's user owns `path` (a file made to replace it
    /// would be this user's).
    static func isOwnedByThisUser(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_uid == geteuid()
    }

    /// Removes `path` and whatever SQLite may have left beside it.
    static func remove(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }

    /// Renames `building` over `path` in one step, and syncs the folder so
    /// that the rename outlives a power cut.
    static func moveIntoPlace(_ building: String, over path: String) throws(HistoryError) {
        guard rename(building, path) == 0 else {
            throw .cannotReplace(path: path, building: building, reason: String(cString: strerror(errno)))
        }
        let folder = open(folder(of: path), O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    private static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
