/*
 * advisory (que, GoodJob): the claim is a session-level advisory lock keyed on the job,
 * not a row lock and not a status change. One statement walks the first K new jobs in
 * order and stops at the first whose pg_try_advisory_lock succeeds (que's lock_job
 * walk); the jobs other workers hold are passed over, their try failing at once. The
 * row stays 'new' while the job is worked on, outside any transaction; the claim only
 * writes who holds it and the attempt (GoodJob's locked_by_id), and completion marks it
 * done or failed, then unlocks.
 *
 * The walk's snapshot is taken before its lock: the job it locks may have been finished
 * and unlocked by another worker in between. So the claim's write checks that the job is
 * still new under the lock (que checks again too); when it is not, the lock goes back and
 * the walk starts again, a lost race counted as a retry. When all K candidates are held
 * by others the claim gives up (a give-up) and the worker waits the empty wait. K is by
 * default the run's worker count, at least 16 (--candidates auto): in flip mode each other
 * worker holds at most one job's lock, so K of at least the workers always finds a free one
 * while K new jobs remain, where a K below the workers made most claims of a crowded run give
 * up (29,149 to 58,234 give-ups at 50 workers and K 16, silently: issue 34).
 *
 * A worker that crashes or loses its connection loses its locks with its session: the job,
 * still new, is claimed again at once, with no lease and no reaper (the crash-recovery that
 * que and GoodJob are built on). --lease-ms, --reaper-ms and --fence change nothing here:
 * the session is the lease, and the completion always checks holder and attempt.
 *
 * Not on SQLite (it has no advisory locks). The lock's key is the pair (the queue table's
 * oid, the job id): the end-of-run check counts the pairs of the run's table that the
 * stopped workers still hold in pg_locks, which should be none (a leak otherwise). On
 * MariaDB the lock is GET_LOCK(name, 0)'s, named by the queue table and the job id (a
 * session may hold many, and takes one again as PostgreSQL does, once more to release),
 * and the check asks IS_USED_LOCK of each job's name.
 *
 * --advisory-walk inline puts the try in the scan's own WHERE instead, the form that leaked
 * in the field (que#298): how many rows it runs on is the planner's choice. A lock the walk
 * took on a job it did not return stays with the session; the holder takes it again on a
 * later walk (the locks count), claims the job and unlocks once, so that the job's lock
 * outlives it and the end-of-run check counts it.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "plugin/strategy.h"
#include "queue/worker.h"

enum {
	SLOT_LOCK_FIRST = SLOT_STRATEGY,	/* ($1 queue, $2 K) the candidates seen, and the first locked (0: none) */
	SLOT_LOCK_INLINE,			/* the same, the lock's try in the scan's own WHERE (--advisory-walk inline) */
	SLOT_TAKE,				/* ($1 id, $2 worker) the locked job is still new: note the claim */
	SLOT_DONE,				/* ($1 id, $2 worker, $3 attempt) mark the claim's job done */
	SLOT_FAILED,				/* ($1 id, $2 worker, $3 attempt) mark the claim's job failed */
	SLOT_UNLOCK,				/* ($1 id) release the job's lock */
};

/* The advisory lock of job $1 in the run: the queue table's oid and the job id. */
#define JOB_LOCK_KEY "'{jobs}'::regclass::oid::integer, $1::integer"

/* MariaDB's name of the user lock of job COLUMN in the run: the queue table's quoted name and the id. */
#define JOB_LOCK_NAME(column) "CONCAT('{jobs}:', " column ")"

/* How the walk's statement calls pg_try_advisory_lock: the values of --advisory-walk. */
enum advisory_walk {
	WALK_MATERIALIZED,	/* on the rows of a materialized list of K candidates: until the first success */
	WALK_INLINE,		/* in the scan's WHERE: on as many rows as the plan filters (que#298's leak) */
};

static const char *const advisory_walk_names[] = { "materialized", "inline", NULL };

/* Its settings: how far down the line a claim looks for a job nobody holds, and how. */
struct advisory_config {
	int candidates;		/* new jobs each claim's walk tries to lock, in order (K); 0: auto */
	int walk;		/* an enum advisory_walk */
};

/* The fewest candidates --candidates auto walks, whatever the workers. */
#define CANDIDATES_AUTO_MIN 16

/* The most candidates --candidates takes. */
#define CANDIDATES_MAX 10000

/* --candidates: auto (NULL too, stored as 0) or a whole number from 1 to CANDIDATES_MAX. */
static int parse_candidates(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct advisory_config *c = base;
	long k;

	if (!text || strcmp(text, "auto") == 0) {
		c->candidates = 0;
		return 0;
	}
	if (parse_long(o->name, text, 1, CANDIDATES_MAX, &k, err, errlen) < 0)
		return -1;
	c->candidates = (int)k;
	return 0;
}

/* --candidates as text: auto or the number. */
static void format_candidates(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct advisory_config *c = base;

	(void)o;
	if (c->candidates)
		snprintf(buf, len, "%d", c->candidates);
	else
		snprintf(buf, len, "auto");
}

/* The candidates a claim of a run of workers walks under c: --candidates, or auto's. */
static int candidates_of(const struct advisory_config *c, int workers)
{
	if (c->candidates)
		return c->candidates;
	return workers > CANDIDATES_AUTO_MIN ? workers : CANDIDATES_AUTO_MIN;
}

static const struct option_def advisory_options[] = {
	{ .name = "candidates", .type = OPTION_CUSTOM, .place = OPTION_IN_STRATEGY, .flags = OPTION_SWEEP,
	  .parse = parse_candidates, .format = format_candidates, .def = "auto", .arg = "K",
	  .help = "new jobs each advisory claim tries to lock, in order, before it gives up; auto: the run's "
		  "workers, at least 16 (fewer candidates than workers make a crowded run's claims give up)" },
	{ .name = "advisory-walk", .type = OPTION_WORD, .place = OPTION_IN_STRATEGY, .flags = OPTION_SWEEP,
	  .offset = offsetof(struct advisory_config, walk), .words = advisory_walk_names, .def = "materialized",
	  .help = "where the advisory claim tries its locks: on a materialized candidate list, or inline in the "
		  "scan (which, planned as a sequential scan and a sort, locks every new job: que#298's leak)" },
	{ .name = NULL },
};

/* A statement written the same on PostgreSQL and MariaDB (its UPDATE's RETURNING the driver's, db/mariadb_sql.h). */
#define ON_BOTH(text) { [DIALECT_POSTGRESQL] = (text), [DIALECT_MARIADB] = (text) }

static const struct strategy_statement advisory_statements[] = {
	{ SLOT_LOCK_FIRST, 2, { [DIALECT_POSTGRESQL] =
		"WITH candidates AS MATERIALIZED (SELECT id FROM {jobs} WHERE queue = $1 AND status = 'new' "
		"ORDER BY id LIMIT $2) "
		"SELECT (SELECT count(*) FROM candidates), coalesce((SELECT id FROM candidates "
		"WHERE pg_try_advisory_lock('{jobs}'::regclass::oid::integer, id::integer) LIMIT 1), 0)",
	  [DIALECT_MARIADB] =
		"SELECT (SELECT count(*) FROM (SELECT id FROM {jobs} WHERE queue = $1 AND status = 'new' "
		"ORDER BY id LIMIT $2) seen), coalesce((SELECT id FROM (SELECT id FROM {jobs} WHERE queue = $1 "
		"AND status = 'new' ORDER BY id LIMIT $2) candidates WHERE GET_LOCK(" JOB_LOCK_NAME("id") ", 0) = 1 "
		"LIMIT 1), 0)" } },
	/*
	 * The try is one more condition of the scan: an index scan in id order runs it until
	 * the first success, a sequential scan under a sort on every new job of the queue, and
	 * the locks of the jobs it does not return stay taken (the first K only tell a give-up
	 * from an empty queue).
	 */
	{ SLOT_LOCK_INLINE, 2, { [DIALECT_POSTGRESQL] =
		"SELECT (SELECT count(*) FROM (SELECT FROM {jobs} WHERE queue = $1 AND status = 'new' LIMIT $2) seen), "
		"coalesce((SELECT id FROM {jobs} WHERE queue = $1 AND status = 'new' "
		"AND pg_try_advisory_lock('{jobs}'::regclass::oid::integer, id::integer) ORDER BY id LIMIT 1), 0)",
	  [DIALECT_MARIADB] =
		"SELECT (SELECT count(*) FROM (SELECT id FROM {jobs} WHERE queue = $1 AND status = 'new' LIMIT $2) seen), "
		"coalesce((SELECT id FROM {jobs} WHERE queue = $1 AND status = 'new' "
		"AND GET_LOCK(" JOB_LOCK_NAME("id") ", 0) = 1 ORDER BY id LIMIT 1), 0)" } },
	{ SLOT_TAKE, 2, ON_BOTH("UPDATE {jobs} SET claimed_by = $2, claimed_at = {now}, attempts = attempts + 1 "
				"WHERE id = $1 AND status = 'new' RETURNING attempts") },
	{ SLOT_DONE, 3, ON_BOTH("UPDATE {jobs} SET status = 'done', done_at = {now} "
				"WHERE id = $1 AND status = 'new' AND claimed_by = $2 AND attempts = $3 RETURNING id") },
	{ SLOT_FAILED, 3, ON_BOTH("UPDATE {jobs} SET status = 'error', done_at = {now} "
				  "WHERE id = $1 AND status = 'new' AND claimed_by = $2 AND attempts = $3 RETURNING id") },
	{ SLOT_UNLOCK, 1, { [DIALECT_POSTGRESQL] = "SELECT pg_advisory_unlock(" JOB_LOCK_KEY ")::integer",
			    [DIALECT_MARIADB] = "SELECT RELEASE_LOCK(" JOB_LOCK_NAME("$1") ")" } },
	/* giving back the job in hand when the run stops: its lock, if this worker claimed it */
	{ SLOT_FREE, 2, { [DIALECT_POSTGRESQL] =
		"SELECT pg_advisory_unlock(" JOB_LOCK_KEY ")::integer FROM {jobs} WHERE id = $1 AND claimed_by = $2",
			  [DIALECT_MARIADB] =
		"SELECT RELEASE_LOCK(" JOB_LOCK_NAME("id") ") FROM {jobs} WHERE id = $1 AND claimed_by = $2" } },
};

/* Releases w's lock on job id; a lock its lost session took along needs nothing. */
static void unlock_job(struct worker *w, const char *id)
{
	const char *params[] = { id };

	worker_exec(w, SLOT_UNLOCK, 1, params, NULL, 0);
}

/*
 * Notes w's claim of job id, which it has just locked, if the job is still new.
 * 1 taken, 0 finished meanwhile (the lock released), -1 on an error (the lock released).
 */
static int take_locked(struct worker *w, int64_t job_id)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job_id), w->identity_text };
	int64_t attempt = 0;
	int rows = worker_exec(w, SLOT_TAKE, 2, params, &attempt, 1);

	if (rows == 1) {
		worker_note_attempt(w, attempt);
		return 1;
	}
	unlock_job(w, id);
	return rows < 0 ? -1 : 0;
}

/*
 * Locks the first free job of the first K new ones (the inline walk: of all) and notes the
 * claim, walking again after a lost race. The job returned is the one its completion unlocks.
 */
static enum claim_result advisory_claim(struct worker *w, int64_t *job_id)
{
	const struct advisory_config *p = w->shared->strategy_config;
	char k[24];
	const char *walk_params[] = { w->queue, worker_id_text(k, candidates_of(p, w->shared->workers)) };
	int walk_slot = p->walk == WALK_INLINE ? SLOT_LOCK_INLINE : SLOT_LOCK_FIRST;
	int64_t walked[2];	/* the candidates seen, and the one locked (0: none) */

	for (;;) {
		int taken;

		if (worker_exec(w, walk_slot, 2, walk_params, walked, 2) != 1)
			return CLAIM_ERROR;
		if (walked[0] == 0)
			return CLAIM_EMPTY;
		if (walked[1] == 0) {
			w->stats.give_ups++;
			return CLAIM_BUSY;
		}
		taken = take_locked(w, walked[1]);
		if (taken != 0) {
			*job_id = walked[1];
			return taken > 0 ? CLAIM_OK : CLAIM_ERROR;
		}
		w->stats.retries++;
		if (run_stopping(&w->shared->gate))
			return CLAIM_BUSY;
	}
}

/* Marks the job done or failed if this claim still holds it, then releases its lock. */
static int advisory_finish(struct worker *w, int64_t job_id, int slot)
{
	char id[24];
	const char *params[] = { worker_id_text(id, job_id), w->identity_text, w->attempt_text };
	int rows = worker_exec(w, slot == SLOT_COMPLETE ? SLOT_DONE : SLOT_FAILED, 3, params, NULL, 0);

	if (rows < 0 && worker_lost_connection(w))
		return -1;
	unlock_job(w, id);
	return rows == 1 ? 0 : rows == 0 ? 1 : -1;
}

const struct strategy_ops strategy_advisory = {
	.name = "advisory",
	.order = 80,
	.summary = "pg_try_advisory_lock (MariaDB: GET_LOCK) on the first free of K new jobs, held to completion "
		   "(que, GoodJob)",
	.session_needs = SESSION_NEEDS_PREPARED | SESSION_NEEDS_ADVISORY,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_MARIADB),
	.needs_caps = {
		[DIALECT_POSTGRESQL] = CAP_ADVISORY_LOCKS,
		[DIALECT_SQLITE] = CAP_ADVISORY_LOCKS,
		[DIALECT_MARIADB] = CAP_ADVISORY_LOCKS,
	},
	.modes = MODE_BIT(MODE_FLIP),
	.default_mode = MODE_FLIP,
	.claim_in_session = true,
	.statements = advisory_statements,
	.n_statements = sizeof(advisory_statements) / sizeof(advisory_statements[0]),
	.leftover_sql = { [DIALECT_POSTGRESQL] =
		"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 "
		"AND classid = '{jobs}'::regclass::oid "
		"AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
			  [DIALECT_MARIADB] =
		"SELECT count(*) FROM {jobs} WHERE IS_USED_LOCK(" JOB_LOCK_NAME("id") ") IS NOT NULL" },
	.leftover_what = "advisory locks",
	.options = advisory_options,
	.config_size = sizeof(struct advisory_config),
	.claim = advisory_claim,
	.finish = advisory_finish,
};
