/*
 * Ctrl-C, SIGTERM and SIGHUP. They are blocked in every thread and taken by one thread of
 * their own, so that nothing is measured or lost in a handler: the first signal notes the
 * stop and cancels the statement of every watched connection, so that a thread blocked in
 * the database (on another session's lock, say) returns at once. Signals within
 * SIGNALS_SAME_STOP_MS of the first are the same stop (GNU timeout, a terminal's Ctrl-C
 * and kill(1) of a process group signal both the process and its group); a signal after
 * that ends the process at once, and the throwaway server's watchdog removes what it
 * leaves behind.
 */
#ifndef CLAIMBENCH_SIGNALS_H
#define CLAIMBENCH_SIGNALS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "db/backend.h"

/* Signals this close to the first one (ms) are one stop request; a later one ends the process at once. */
#define SIGNALS_SAME_STOP_MS 1000

/*
 * Blocks SIGINT, SIGTERM and SIGHUP, starts the thread that takes them, and ignores
 * SIGPIPE (a closed output pipe then fails the write instead of killing the process).
 * Call it before any other thread starts, so that every thread inherits the blocked
 * signals. 0, or -1 with err.
 */
int signals_install(char *err, size_t errlen);

/* True once SIGINT, SIGTERM or SIGHUP has arrived. */
bool signals_interrupted(void);

/*
 * Has a first signal cancel the statement of conn, a connection of driver db, and so does
 * signals_cancel_again until *stopped (the thread that owns conn has seen the stop) is set;
 * stopped NULL: only the first signal cancels it. 0, or -1 when out of memory.
 */
int signals_watch(const struct backend_ops *db, struct db_conn *conn, const atomic_bool *stopped);

/*
 * Cancels again the statements of the watched connections whose threads have not yet seen
 * the stop: one may have begun a statement (and be blocked in it) after the first cancel.
 */
void signals_cancel_again(void);

/* Forgets conn, which is about to be closed; nothing is cancelled on it after this returns. */
void signals_unwatch(struct db_conn *conn);

#endif
