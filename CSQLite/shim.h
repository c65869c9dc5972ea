#ifndef FETCH_HISTORY_CSQLITE_SHIM_H
#define FETCH_HISTORY_CSQLITE_SHIM_H

#include <sqlite3.h>

// Swift cannot call C variadic functions, so each variadic call the project
// needs gets a fixed-arity wrapper here.

/// `sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, NULL)`: forbids
/// writes that could corrupt the file (e.g. `PRAGMA writable_schema`).
static inline int csqlite_db_config_defensive(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}

/// SQLITE_TRANSIENT is a cast macro Swift does not import.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// `sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0)`: see `SQLiteProcess`.
static inline int csqlite_config_no_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
