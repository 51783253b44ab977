/*
 * Removing what a claimbench process made outside the database: a throwaway cluster's
 * server and directory, a temporary SQLite file's directory. Each step runs as the user
 * who owns what it touches (db/run_as.h), so it cannot be turned against anything else.
 * The process itself, its watchdog and `claimbench cleanup` all remove things this way.
 */
#ifndef CLAIMBENCH_LEFTOVERS_H
#define CLAIMBENCH_LEFTOVERS_H

#include <stddef.h>
#include <sys/types.h>

#include "db/run_as.h"

/* The name of the owner note a claimbench process writes into the directories it makes. */
#define LEFTOVERS_OWNER_FILE "claimbench.owner"

/*
 * The name of the note, in a throwaway's directory, of the program this process last
 * started there (mariadb-install-db, mariadbd): its pid, written as it is forked, before the
 * program writes any pid file of its own. The program runs in a session (and so a process
 * group) of its own, named by that pid.
 */
#define LEFTOVERS_STARTED_FILE "started.pid"

/* Writes pid into dir/LEFTOVERS_STARTED_FILE, replacing what it held. 0, or -1. */
int leftovers_note_started(const char *dir, pid_t pid);

/* Writes this process's owner note (db/ownership.h) into dir/LEFTOVERS_OWNER_FILE. 0, or -1 with err. */
int leftovers_mark(const char *dir, char *err, size_t errlen);

/*
 * Stops, in immediate mode (SIGQUIT), the PostgreSQL server whose data directory is
 * data_dir, if one runs there, acting as as; waits up to 10 s for it to go. A stale
 * postmaster.pid's pid, now another process's, is left alone. Then kills (SIGKILL) the
 * process group of the program the note LEFTOVERS_STARTED_FILE beside data_dir names, if
 * that program still runs with data_dir among its arguments (a server not yet writing its
 * pid file, an install still running). 0 when neither runs any more, -1 when one still
 * does or may (its process cannot be seen).
 */
int leftovers_stop_server(const char *data_dir, const struct run_as *as);

/*
 * leftovers_stop_server on dir/data, the data directory of a throwaway server's directory
 * dir: a watchdog_stop_fn (db/watchdog.h). 0, or -1 as leftovers_stop_server.
 */
int leftovers_stop_server_in(const char *dir, const struct run_as *as);

/*
 * Ends, with signal sig, the process whose pid the first line of pid_file names, if that
 * process works in work_dir (its current directory: a pid file's stale pid, now another
 * process's, is left alone), acting as as; waits up to 10 s for it to go. 0 when no such
 * process runs any more, -1 when one still does or may (its process cannot be seen).
 */
int leftovers_stop_process(const char *pid_file, const char *work_dir, int sig, const struct run_as *as);

/*
 * Whether a PostgreSQL server runs in data_dir: 1 yes, 0 no (no postmaster.pid, or the pid
 * it names is gone or works elsewhere), -1 nobody can tell (its process cannot be seen).
 */
int leftovers_server_runs(const char *data_dir);

/*
 * Removes path (a file, or a directory and all below it, links not followed) acting as as;
 * the directory path itself, once as has emptied it, by this process when as may not (its
 * parent is this process's user's). 0, or -1.
 */
int leftovers_remove(const char *path, const struct run_as *as);

#endif
