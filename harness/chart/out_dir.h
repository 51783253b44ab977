/*
 * The report's output folder, written safely even by root: claimbench writes only into a
 * folder it made (which it marks) or that was empty, never into a folder another user may
 * write into, and creates every file afresh with O_EXCL and O_NOFOLLOW, so that a symbolic
 * link planted in the folder is refused and its target never written.
 */
#ifndef CLAIMBENCH_OUT_DIR_H
#define CLAIMBENCH_OUT_DIR_H

#include <stddef.h>
#include <stdio.h>

/* The file that marks a folder as one claimbench report made. */
#define OUT_DIR_MARK ".claimbench-report"

/*
 * Makes dir (its parent must exist) the report's folder: creates it, with mode 0755 at
 * most, or takes an existing one that holds the mark (a regular file: claimbench made it),
 * or holds nothing but regular files named as a report's (an earlier claimbench's report,
 * made before the mark) or nothing at all, and marks it. Refuses a symbolic link, a folder
 * of another user's or one that group or others may write into, and any other folder.
 * 0; 1 with err when refused; -1 with err on a system error.
 */
int out_dir_claim(const char *dir, char *err, size_t errlen);

/*
 * Creates dir/name afresh for writing, mode 0644 at most: a regular file there (claimbench's
 * own, from an earlier report) is removed first; a symbolic link or anything else there is
 * refused, its target untouched. An open descriptor (close-on-exec), or -1 with err.
 */
int out_dir_create(const char *dir, const char *name, char *err, size_t errlen);

/* out_dir_create, as a stream open for writing. NULL with err. */
FILE *out_dir_fopen(const char *dir, const char *name, char *err, size_t errlen);

#endif
