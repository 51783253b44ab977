/*
 * The report's output folder, written safely even by root: claimbench writes only into a
 * folder it made (which it marks) or that was empty, never into a folder another user may
 * write into nor one whose parent another user may change, and creates every file afresh
 * with O_EXCL and O_NOFOLLOW, so that a symbolic link planted in the folder is refused and
 * its target never written. The folder is opened once, its checks are made on what was
 * opened (fstat), and every file is then reached through that descriptor (openat,
 * unlinkat, fstatat; gnuplot by fchdir), never by the folder's path again: the folder
 * renamed and a link or another folder put in its place meanwhile changes nothing.
 */
#ifndef CLAIMBENCH_OUT_DIR_H
#define CLAIMBENCH_OUT_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The file that marks a folder as one claimbench report made: a line that says so, then
 * the name of each file the last report wrote there, a line each (while a report is being
 * written, the earlier report's names, an empty line, then the new report's).
 */
#define OUT_DIR_MARK ".claimbench-report"

/* The report's folder, open. */
struct out_dir {
	int fd;			/* the folder (O_DIRECTORY, close-on-exec): every file is reached through it */
	const char *path;	/* the path it was opened by: for messages only, never opened again */
	bool listing;		/* each file created is added to the mark's list (out_dir_claim sets it) */
};

/*
 * Makes path (its parent must exist) the report's folder and opens it into *d (d->path is
 * path, which must outlive d): creates it, with mode 0755 at most, or takes an existing one
 * that holds the mark (a regular file: claimbench made it), or one that holds nothing, or
 * with force any other, and marks it afresh, listing what is created (the names an earlier
 * report listed carried over, for out_dir_finish). Refuses a symbolic link, a folder of another user's
 * or one that group or others may write into, a non-empty folder without the mark unless
 * force, and a folder whose parent is not the user's or root's or that group or others may
 * write into unless it is sticky (as /tmp is: no one else may then rename or remove what
 * the user has in it). 0 (d open: out_dir_close it); 1 with err when refused; -1 with err
 * on a system error.
 */
int out_dir_claim(const char *path, bool force, struct out_dir *d, char *err, size_t errlen);

/*
 * Once the report is written whole: removes from d the files an earlier report listed that
 * this one did not write (only those names, only regular files, never through a link), and
 * leaves the mark listing this report's files alone. A report that fails before this
 * leaves the earlier files, still listed for the next. 0, or -1 with err.
 */
int out_dir_finish(struct out_dir *d, char *err, size_t errlen);

/* Closes d's folder. */
void out_dir_close(struct out_dir *d);

/*
 * Creates name afresh in d for writing, mode 0644 at most: a regular file there
 * (claimbench's own, from an earlier report) is removed first; a symbolic link or anything
 * else there is refused, its target untouched; name is added to the mark's list when d is
 * listing. An open descriptor (close-on-exec), or -1 with err.
 */
int out_dir_create(const struct out_dir *d, const char *name, char *err, size_t errlen);

/* out_dir_create, as a stream open for writing. NULL with err. */
FILE *out_dir_fopen(const struct out_dir *d, const char *name, char *err, size_t errlen);

/* The regular file name in d (never through a link), as a stream open for reading. NULL with err. */
FILE *out_dir_read(const struct out_dir *d, const char *name, char *err, size_t errlen);

#endif
