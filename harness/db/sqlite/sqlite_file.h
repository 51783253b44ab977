/*
 * A user's SQLite file (--db sqlite:PATH) as a run found it, put back when the run ends:
 * its journal mode (a run switches it to WAL, which the file keeps for good) and the
 * absence of sqlite_stat1 (ANALYZE of the queue table creates that table). The run's own
 * tables are the run's to drop; these two are what else a run changes in the file. One
 * thing cannot be put back: the internal table sqlite_sequence, which SQLite creates with
 * the first AUTOINCREMENT table (the ticket lines') and never lets anyone drop; it is
 * left empty, and said so.
 */
#ifndef CLAIMBENCH_SQLITE_FILE_H
#define CLAIMBENCH_SQLITE_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* What the file was before the run. */
struct sqlite_file {
	char journal[16];	/* its journal mode ("delete", "wal", ...): "delete" for a file not there yet */
	bool had_stats;		/* it held a table sqlite_stat1 */
	bool had_sequence;	/* it held a table sqlite_sequence */
};

/*
 * Reads what path is before a run (leaving it as it is; a missing file is not created)
 * into f. 0, or -1 with err.
 */
int sqlite_file_note(const char *path, struct sqlite_file *f, char *err, size_t errlen);

/*
 * Puts path back as f says, once every connection of the run is closed: drops
 * sqlite_stat1 when the file had none and it holds no statistics of any table (nobody
 * else has used it), and sets the journal mode back. 0 when the file is as it was; 1
 * when it is but for a new sqlite_sequence (err says so); -1 with err saying what stays
 * changed (another connection holding the file open keeps it in WAL mode).
 */
int sqlite_file_restore(const char *path, const struct sqlite_file *f, char *err, size_t errlen);

#endif
