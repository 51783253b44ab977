/*
 * Running a throwaway server's programs (PostgreSQL's initdb and pg_ctl, MariaDB's
 * mariadb-install-db and mariadbd): found on $PATH, run in a session of their own as the
 * server's user in its directory, their output in a log there, and the line of that log
 * that explains a failure. Shared by db/postgresql/tmp_postgres.c and db/mariadb/tmp_mariadb.c.
 */
#ifndef CLAIMBENCH_SERVER_PROGRAMS_H
#define CLAIMBENCH_SERVER_PROGRAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "db/run_as.h"

/* Whether path is an executable regular file. */
bool server_program_executable(const char *path);

/* Copies into out (PATH_MAX bytes) the first executable called name in a $PATH directory; false if none. */
bool server_program_in_path(const char *name, char *out);

/*
 * Runs argv (argv[0] an absolute path) with stdout and stderr to out_fd, or appended to
 * the log file log_path when that is not NULL, and waits for it. With as and dir, it runs
 * as as in dir; without, as ourselves here. 0 when it exits with status 0; else -1 with a
 * reason in err.
 */
int server_program_run(char *const argv[], int out_fd, const char *log_path, const struct run_as *as,
		       const char *dir, char *err, size_t errlen);

/*
 * Starts argv as run does, its output appended to log_path, and does not wait for it:
 * *pid is the child, a server that stays. 0 once it was executed, or -1 with a reason in
 * err (the child then reaped).
 */
int server_program_spawn(char *const argv[], const char *log_path, const struct run_as *as, const char *dir,
			 pid_t *pid, char *err, size_t errlen);

/*
 * server_program_run and server_program_spawn that also note the child's pid in note_dir
 * as it is forked (db/leftovers.h's LEFTOVERS_STARTED_FILE), so that a watchdog or cleanup
 * can stop it and its process group before it writes a pid file of its own; a note that
 * cannot be written fails the start (the child killed and reaped).
 */
int server_program_run_noted(char *const argv[], int out_fd, const char *log_path, const struct run_as *as,
			     const char *dir, const char *note_dir, char *err, size_t errlen);
int server_program_spawn_noted(char *const argv[], const char *log_path, const struct run_as *as, const char *dir,
			       const char *note_dir, pid_t *pid, char *err, size_t errlen);

/*
 * Copies into line a line of the log dir/name that explains a failure: the last one
 * reporting an error, else the last non-empty one. False when there is none.
 */
bool server_log_reason(const char *dir, const char *name, char *line, size_t linelen);

/*
 * Copies into line the first line of the log dir/name that holds marker (MariaDB's
 * "[ERROR]": the cause, where the last one is its "Aborting"), read from byte from on (where
 * the start that failed began writing to a log its earlier starts wrote too; from the
 * start when the log is shorter); else what server_log_reason finds. False when the log
 * has no line.
 */
bool server_log_first(const char *dir, const char *name, off_t from, const char *marker, char *line, size_t linelen);

/*
 * Creates a directory prefix-XXXXXX under $TMPDIR (or /tmp) into dir (PATH_MAX bytes) with
 * this process's owner note, given to as's user: absolute, plain (letters, digits and
 * /._-, for the programs' options) and short enough for a Unix socket dir/socket_name.
 * 0, or -1 with a reason in err; *made tells whether dir exists (to be removed).
 */
int server_make_dir(char *dir, const char *prefix, const char *socket_name, const struct run_as *as, bool *made,
		    char *err, size_t errlen);

#endif
