/*
 * The guard interface, one struct per guard (as strategy.h is for claiming): how the
 * workers of a guarded-resource workload (refresh, exclusive-use, resource; docs/guarded.md)
 * take the resource before they touch it. A guard is a lock taken a certain way, written
 * per dialect: the statement that begins its transaction, the one that takes the lock,
 * how that statement meets a lock another session holds, and the mode its grants hold.
 * The workloads' own statements (read the cache, refresh it, take a ticket) are the
 * harness's (guarded/guarded_tables.c). SQL names the run's tables {cache} and {control}.
 * A guard is one file, guards/NAME.c, defining "const struct guard_ops guard_NAME": the
 * build finds it there (scripts/gen-plugins) and guards/registry.c lists it.
 */
#ifndef CLAIMBENCH_GUARD_H
#define CLAIMBENCH_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#include "db/backend.h"
#include "measure/acquisitions.h"
#include "model/config.h"

/* How a guard's lock meets a lock another session holds. */
enum guard_wait {
	GUARD_WAITS,		/* waits until the lock is free (the connection's configured lock wait) */
	GUARD_WAIT_LIMIT,	/* waits up to --wait-limit-ms, then the acquisition times out: counted, not fatal */
	GUARD_RETRIES,		/* fails at once; the worker tries again after --retry-ms, counting each try */
	GUARD_REFUSES,		/* fails at once: the acquisition is refused and counted; the next try is a new one */
};

/* One way of taking the resource: a user's, or exclusive-use's refresher's. */
struct guard_lock {
	/* Per dialect, the statement that begins the lock's transaction; NULL: none, autocommit (the naive guard). */
	const char *begin_sql[DIALECT_COUNT];
	/* Per dialect, the statement that takes the lock once begun; NULL: the begin takes it, or nothing does. */
	const char *lock_sql[DIALECT_COUNT];
	/*
	 * Per dialect, what ends the lock's transaction and releases the lock, for a lock begun;
	 * NULL: COMMIT. A lock of the session's rather than the transaction's (MariaDB's GET_LOCK
	 * and LOCK TABLES, which COMMIT keeps) is released here.
	 */
	const char *release_sql[DIALECT_COUNT];
	enum guard_wait wait;	/* how it meets a held lock */
	enum acq_mode mode;	/* the mode its grants hold the resource in, for the figures' conflict rules */
};

/* The unit a dialect's form of a wait limit counts in, when coarser than a millisecond. */
struct guard_wait_unit {
	int ms;			/* the unit in ms (InnoDB's FOR UPDATE WAIT n: 1000); 0: any whole ms */
	const char *why;	/* why, for the refusal of a limit that is no multiple of it */
};

struct guard_ops {
	const char *name;			/* as typed after --guard */
	int order;				/* its place in `list guards`, `--guard all`: lower first, ties by name */
	const char *summary;			/* one line for `claimbench list guards` */
	unsigned workloads;			/* WORKLOAD_BIT()s of the workloads it guards */
	unsigned dialects;			/* DIALECT_BIT()s of the dialects it has a form in */
	unsigned needs_caps[DIALECT_COUNT];	/* per dialect, the backend capabilities its form relies on */
	const char *no_form[DIALECT_COUNT];	/* per dialect it has no form in, why not: the refusal's reason */
	struct guard_wait_unit wait_limit_unit[DIALECT_COUNT];	/* per dialect, what its wait limit counts in */
	struct guard_lock user;			/* how a check (refresh), a use (exclusive-use) or a request (resource) takes it */
	struct guard_lock writer;		/* how exclusive-use's refresher takes it */
	bool truncates;				/* exclusive-use's refresher empties the cache with TRUNCATE, not DELETE */
	bool ticket_line;			/* resource: a request takes a ticket in the line and polls until its turn */
};

/*
 * Every guard claimbench knows, by order then name: the order `list guards` and `--guard all`
 * use, in which scripts/gen-plugins lists them (read from each file's .order and .name).
 */
extern const struct guard_ops *const guard_registry[];
extern const size_t guard_registry_len;

/* The guard called name, or NULL. */
const struct guard_ops *guard_find(const char *name);

/* The registry index of g, a registered guard. */
size_t guard_index(const struct guard_ops *g);

/* True when g has a form in db's dialect and db has every capability that form relies on. */
bool guard_runs_on(const struct guard_ops *g, const struct backend_ops *db);

/* Why g cannot run on db, into buf ("SQLite has no advisory locks"); call when guard_runs_on is false. */
void guard_refusal(const struct guard_ops *g, const struct backend_ops *db, char *buf, size_t len);

/*
 * Whether g, able to run on db, cannot take a wait limit of wait_limit_ms there (db's form
 * counts its limit in a coarser unit, of which wait_limit_ms is no multiple): true with why
 * in buf; false when it can, or has no wait limit.
 */
bool guard_refuses_wait_limit(const struct guard_ops *g, const struct backend_ops *db, int wait_limit_ms, char *buf,
			      size_t len);

/* GET_LOCK's timeout in a MariaDB guard that waits for its lock: a year, for MariaDB refuses a negative one (forever). */
#define GUARD_MARIADB_GET_LOCK_WAIT_S "31536000"

#endif
