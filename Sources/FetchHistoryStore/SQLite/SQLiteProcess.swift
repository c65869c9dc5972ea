import CSQLite

/// SQLite's settings for a whole process, which only a program that owns
/// its process may choose (an app embedding the library may use SQLite
/// elsewhere, as it likes): the command-line tool chooses them at start,
/// before anything opens a database.
package enum SQLiteProcess {
    /// Turns off SQLite's memory statistics (`SQLITE_CONFIG_MEMSTATUS`),
    /// which nothing here reads: while they are on, every allocation SQLite
    /// makes takes a process-wide mutex to count itself, 3.6% of the
    /// instructions of an import's inserting thread (callgrind, 100,000
    /// fetches). SQLite takes it only before its first use; later it
    /// refuses, and nothing changes.
    package static func stopCountingMemory() {
        _ = csqlite_config_no_memory_statistics()
    }
}
