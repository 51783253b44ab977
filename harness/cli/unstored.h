/*
 * Where results the result store refused are kept, so that nothing measured is lost: a new
 * file claimbench-unstored-XXXXXX.json under $TMPDIR (or /tmp). `run` and `ab` write their
 * report there (keep_unstored, run_steps.h), `explore` the explores it could not store.
 */
#ifndef CLAIMBENCH_UNSTORED_H
#define CLAIMBENCH_UNSTORED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Creates the file, its name in path (len bytes). The file open for writing, or NULL after
 * saying on stderr that the results are only in the output.
 */
FILE *unstored_open(char *path, size_t len);

/* Closes f, the file at path. Whether it was written; when not, says so on stderr. */
bool unstored_close(FILE *f, const char *path);

#endif
