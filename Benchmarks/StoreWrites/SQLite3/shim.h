// The system's SQLite for LayoutCommits, which writes its own tables (the project's CSQLite is not
// a product, so another package cannot import it).
#include <sqlite3.h>

static inline sqlite3_destructor_type sqlite3_transient(void) { return SQLITE_TRANSIENT; }
