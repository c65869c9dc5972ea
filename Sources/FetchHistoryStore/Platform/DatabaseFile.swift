import CSQLite
import FetchHistoryModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the store checks about a database file before SQLite touches it:
/// SQLite itself would create a missing file 0644, write into a read-only
/// file as root, and only find out much later that a file is not a database.
/// POSIX calls only: file modes, `open(2)` and `read(2)`.
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

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
