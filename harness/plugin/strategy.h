/*
 * The strategy interface, one struct per strategy (like fio's ioengines): what it
 * is, where it runs, its SQL per dialect, its own options and per-worker state, and the
 * claim hook the worker loop calls. SQL templates name the run's tables as {jobs} and
 * {tickets}. A strategy is one file, strategies/NAME.c, defining "const struct strategy_ops
 * strategy_NAME": the build finds it there (scripts/gen-plugins) and the registry lists it;
 * those a scenario file defines in SQL are built by strategies/sql_defined.c (plugin/sql_strategy.h).
 */
#ifndef CLAIMBENCH_STRATEGY_H
#define CLAIMBENCH_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/backend.h"
#include "model/config.h"
#include "model/option.h"

struct worker;

/* What a claim attempt returned. */
enum claim_result {
	CLAIM_OK,	/* a job is in hand (in hold mode, inside an open transaction) */
	CLAIM_EMPTY,	/* no job could be claimed */
	CLAIM_BUSY,	/* gave up: the jobs were locked for every try */
	CLAIM_ERROR,	/* a database error; the worker's transaction was rolled back */
};

/* Statement slots the harness prepares on every worker connection. */
enum harness_slot {
	SLOT_COUNT_UNFINISHED,	/* ($1 queue) jobs not yet finished: new, and with leases active too */
	SLOT_MARK_ACTIVE,	/* ($1 id, $2 worker) flip a claimed job to active, no status check, RETURNING attempts */
	SLOT_COMPLETE,		/* ($1 id[, $2 worker[, $3 attempt]]) mark the claim's active job done, RETURNING id */
	SLOT_FAIL,		/* ($1 id[, $2 worker[, $3 attempt]]) mark the claim's active job error, RETURNING id */
	SLOT_FREE,		/* ($1 id, $2 worker) give the worker's active job back to state new (seed 000's free) */
	SLOT_HEARTBEAT,		/* ($1 id, $2 worker) extend the lease of the worker's active job */
	SLOT_FINISHED_BY,	/* ($1 id, $2 worker, $3 attempt) 1 done, 2 error by that claim, else 0; no row: not its */
	SLOT_BEGIN,		/* () begins a claim transaction: the strategy's begin_sql, or BEGIN */
	SLOT_COMMIT,		/* () COMMIT */
	SLOT_ROLLBACK,		/* () ROLLBACK */
	SLOT_STRATEGY,		/* first slot free for the strategy's own statements */
};

/* One job of a batch claim: what the claim took, and what the batch's completion made of it. */
struct batch_job {
	int64_t id;		/* the job */
	int64_t attempt;	/* its claim's attempt number, which the completion checks under --fence attempt */
	bool fails;		/* the run's --fail-rate marks it: the completion marks it error, not done */
	bool completed;		/* set by finish_batch: the completion (done or error) took hold of it and committed */
};

/* One statement of a strategy, prepared on each worker connection. */
struct strategy_statement {
	int slot;				/* slot number, SLOT_STRATEGY or above */
	int nparams;				/* parameters $1..$nparams */
	const char *sql[DIALECT_COUNT];		/* template per dialect; NULL where not offered */
};

/* What the harness reads from the result of a statement a scenario file wrote. */
struct result_contract {
	int columns;		/* result columns it reads; a statement returning fewer is refused before the run */
	int integers;		/* of them, the first ones it reads as integers; a column of another type is refused */
	const char *returns;	/* what they are, for that refusal ("the job's id first ...") */
};

/*
 * What a strategy's claims rely on a database session to keep from one transaction to the
 * next (strategy_ops.session_needs). A pooler in transaction mode (--pooler transaction)
 * gives a client a server connection for one transaction only: docs/pooler.md says what
 * claimbench does with each need there.
 */
#define SESSION_NEEDS_PREPARED (1u << 0)	/* named prepared statements (the harness prepares each statement
						 * once per connection): run adapted, sent unnamed */
#define SESSION_NEEDS_ADVISORY (1u << 1)	/* a session-level advisory lock held across transactions:
						 * run as written, the duplicates counted */
#define SESSION_NEEDS_LISTEN (1u << 2)		/* LISTEN, whose notifications reach the listening session:
						 * run as written, wake-ups lost to the fallback poll */
#define SESSION_NEEDS_STATE (1u << 3)		/* other state a later transaction reads (a SET, a temporary
						 * table, a WITH HOLD cursor): refused */

struct strategy_ops {
	const char *name;				/* as typed on the command line */
	int order;					/* its place in `list` and `all`: lower first, ties by name */
	const char *summary;				/* one line for `claimbench list` */
	unsigned dialects;				/* DIALECT_BIT()s it has SQL for */
	/*
	 * Per dialect, the backend capabilities its SQL there relies on (for-update needs row
	 * locks on PostgreSQL, not on SQLite, where it takes the database write lock instead);
	 * for a dialect it has no SQL for, what such SQL would need: the reason it is refused.
	 */
	unsigned needs_caps[DIALECT_COUNT];
	/*
	 * Per dialect it has no SQL for though the backend has every capability it needs, why
	 * not, for the refusal (the dialect lacks a statement it needs). NULL: "it has no SQL for it".
	 */
	const char *no_sql_reason[DIALECT_COUNT];
	unsigned modes;					/* MODE_BIT()s it supports */
	enum claim_mode default_mode;			/* mode used when none is asked for */
	unsigned session_needs;				/* SESSION_NEEDS_* bits: what its claims need a session to keep */
	bool claim_in_session;				/* its claim is a lock of the holder's session in every mode
							 * (advisory): a crash gives the job back, as hold mode's does */
	/*
	 * Its statements. One in a harness slot (below SLOT_STRATEGY), with the harness's
	 * parameters, replaces the harness's own there: where the claim moves the job's row
	 * out of {jobs}, giving it back or asking whether it was finished looks where the row
	 * went. SLOT_COMPLETE and SLOT_FAIL, whose parameters the fence decides, cannot be
	 * replaced: a strategy that completes its own way has a finish hook.
	 */
	const struct strategy_statement *statements;
	size_t n_statements;				/* entries in statements */
	/*
	 * Per entry of statements, where its SQL was written ("FILE:LINE: claim of strategy
	 * NAME"), which an error preparing it names. NULL: built in, named by its slot.
	 */
	const char *const *origins;
	/* Per entry of statements when origins is set, what the harness reads from its result. */
	const struct result_contract *contracts;
	const char *setup_sql[DIALECT_COUNT];		/* DDL run once per run before the workers start, in one
							 * transaction, or NULL: creates {tickets} and marks it
							 * with {mark:tickets} (sql_template.h), nothing else */
	const char *begin_sql[DIALECT_COUNT];		/* how its claim transactions begin (SLOT_BEGIN); NULL: "BEGIN" */
	/*
	 * Per dialect, a statement run on each worker connection once its statements are
	 * prepared: again after a lost connection and for a crashed worker's replacement, always
	 * before the next claim (LISTEN). NULL: none.
	 */
	const char *connect_sql[DIALECT_COUNT];
	/*
	 * Per dialect, how a producer inserts one arrival ($1 id, $2 queue, $3 payload) in one
	 * statement, doing nothing when the job is there already, where the strategy wants more
	 * done in the insert's transaction (a notification). NULL: the harness's INSERT.
	 */
	const char *insert_sql[DIALECT_COUNT];
	/*
	 * Per dialect, the end-of-run audit's query where the claim takes rows out of {jobs}:
	 * (id, status as the number of an enum job_status, claimed_by or -1) of every job, in
	 * whichever table holds it. NULL: the harness's, which reads {jobs} alone.
	 */
	const char *final_state_sql[DIALECT_COUNT];
	/*
	 * Per dialect, a query counting what the run's workers must not still hold once they
	 * have stopped (the advisory locks of jobs they finished), read before they disconnect.
	 * NULL: nothing to count.
	 */
	const char *leftover_sql[DIALECT_COUNT];
	const char *leftover_what;			/* what leftover_sql counts, for the message ("advisory locks") */
	/*
	 * Its own options, NULL-name terminated (NULL: none): rows placed OPTION_IN_STRATEGY whose
	 * offsets are in its settings struct of config_size bytes, which the worker reads as
	 * w->shared->strategy_config. Two strategies may share an option name when both rows
	 * take the same values; a value given for it then sets both.
	 */
	const struct option_def *options;
	size_t config_size;				/* bytes of its settings struct, at most STRATEGY_CONFIG_MAX */
	/*
	 * Sets up w->strategy_data, the strategy's own state for one worker process: after the
	 * worker has connected and before the start gate, and anew for a crashed worker's
	 * replacement. It outlives a lost connection, as the process it stands for would. 0, or
	 * -1 with err. NULL: no state.
	 */
	int (*worker_init)(struct worker *w, char *err, size_t errlen);
	/* Releases what worker_init set up; called once for each time it succeeded. NULL: nothing to do. */
	void (*worker_cleanup)(struct worker *w);

	/*
	 * Claims one job into *job_id. Counts its own retries and give-ups in the worker's stats.
	 * NULL for a strategy whose claims take batches (claim_batch).
	 */
	enum claim_result (*claim)(struct worker *w, int64_t *job_id);
	/*
	 * Waits for new work after an empty claim (and the --empty-retries), in place of
	 * sleeping the poll interval (--empty-wait-ms): returns when work may have come, the
	 * run is stopping or its time is up. 0, or -1 with the error counted on w's connection.
	 * NULL: sleep the poll interval.
	 */
	int (*idle_wait)(struct worker *w);
	/*
	 * Marks job_id done (slot SLOT_COMPLETE) or failed (SLOT_FAIL), committing in hold mode.
	 * 0, or -1 when that did not commit. NULL: worker_finish.
	 */
	int (*finish)(struct worker *w, int64_t job_id, int slot);
	/*
	 * A strategy whose claims take several jobs at once fills these three instead of claim
	 * and finish. batch_max: from its settings (w->shared->strategy_config), the most jobs
	 * one claim takes, at least 1; the harness sizes w->batch for it before worker_init.
	 */
	int (*batch_max)(const void *config);
	/*
	 * Claims up to max jobs into jobs[0..*n), sorted by id, each with its attempt number; in
	 * hold mode inside a transaction left open. CLAIM_OK only with *n >= 1.
	 */
	enum claim_result (*claim_batch)(struct worker *w, struct batch_job *jobs, int max, int *n);
	/*
	 * Completes jobs[0..n) of the claim in one statement, each done or, when it fails,
	 * error, checked as the run's --fence asks, and commits in hold mode; sets completed on
	 * each job the statement took hold of (the others were fenced). 0 when it committed,
	 * -1 when it did not (no job is then completed).
	 */
	int (*finish_batch)(struct worker *w, struct batch_job *jobs, int n);
};

/*
 * Every strategy claimbench knows, by order then name: the order `list` and `all` use.
 * scripts/gen-plugins lists them in that order (read from each file's .order and .name).
 */
extern const struct strategy_ops *const strategy_registry[];
extern const size_t strategy_registry_len;

/* The strategy called name, or NULL. */
const struct strategy_ops *strategy_find(const char *name);

/*
 * The registry index of st: its settings slot in run_config.strategy_configs. 0 for a
 * strategy a scenario defines, which has no settings of its own.
 */
size_t strategy_index(const struct strategy_ops *st);

/* st's settings in cfg, the struct its option rows point into. */
const void *strategy_config(const struct run_config *cfg, const struct strategy_ops *st);

/* True when st has SQL for db's dialect and db has every capability that SQL relies on. */
bool strategy_runs_on(const struct strategy_ops *st, const struct backend_ops *db);

#endif
