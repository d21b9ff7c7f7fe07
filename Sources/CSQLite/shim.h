// The system's SQLite (Debian: libsqlite3-dev, whose libsqlite3.a the fully static `touchschool`
// links), with what its header gives as macros that Swift cannot import.
#include <sqlite3.h>

// SQLITE_TRANSIENT: SQLite copies a bound text or blob before the call returns, so Swift's
// temporary buffers may go away after it.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
