/*
 * The stepping driver of `claimbench explore`: a struct backend_ops that forwards every
 * call to the real driver, but stops each statement a worker's connection sends (a step)
 * at the scheduler (explore/scheduler.h) until it is granted, and notes what it returned.
 * It sits below the strategies and the worker code, which run unchanged.
 */
#ifndef CLAIMBENCH_STEP_DRIVER_H
#define CLAIMBENCH_STEP_DRIVER_H

#include "db/backend.h"
#include "explore/scheduler.h"

/*
 * The stepping driver over real, whose steps s schedules. One at a time: it holds the
 * last call's real and s until step_driver_stop.
 */
const struct backend_ops *step_driver_start(const struct backend_ops *real, struct scheduler *s);

/* Forgets the driver's real driver and scheduler. */
void step_driver_stop(void);

/*
 * Says which worker seat the next connection made through the driver is (-1: none, a
 * connection of the harness's, whose statements are not steps).
 */
void step_driver_seat_next(int seat);

/*
 * In statements' texts as events show them, writes the table called name (quoted, as in
 * the SQL) as shown instead ("{jobs}"); up to 2 such names, NULL to forget them.
 */
void step_driver_shorten(int which, const char *name, const char *shown);

/*
 * Drops seat's connection as a crashed process's would (the real driver's abandon): no
 * COMMIT, no ROLLBACK; its statements fail from then on as on a lost connection.
 */
void step_driver_abandon(int seat);

/* The real connection under conn, a connection of the stepping driver, for the harness's own looks. */
struct db_conn *step_driver_real_conn(struct db_conn *conn);

#endif
