/*
 * batch (graphile-worker's batched get_jobs, PgQueuer's dequeue with batch_size): one
 * statement claims up to N jobs, FOR UPDATE SKIP LOCKED LIMIT N under an UPDATE that flips
 * them active for the worker, who works them in turn and completes them all in one
 * statement (done or error per job, unnest of the ids and their attempts). flip commits
 * the claim (the jobs wait their turn active, under the lease, which the heartbeat extends
 * for every job of the batch, worked or waiting); hold keeps the claim's
 * transaction, and its N row locks, open across the batch's work until the completion
 * commits. PostgreSQL only: the claim needs FOR UPDATE SKIP LOCKED.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "plugin/strategy.h"
#include "queue/worker.h"

enum {
	SLOT_CLAIM = SLOT_STRATEGY,	/* ($1 queue, $2 worker, $3 N) flip up to N claimable jobs active: id, attempts */
	SLOT_FINISH_NONE,		/* ($1 ids, $2 attempts, $3 failed ids) the completion under --fence none */
	SLOT_FINISH_OWNER,		/* ($1 .. $3, $4 worker) under --fence owner */
	SLOT_FINISH_ATTEMPT,		/* ($1 .. $3, $4 worker) under --fence attempt */
};

/* Its settings. */
struct batch_config {
	int batch;		/* the most jobs one claim takes (N) */
};

static const struct option_def batch_options[] = {
	{ .name = "batch", .type = OPTION_INT, .place = OPTION_IN_STRATEGY, .flags = OPTION_SWEEP,
	  .offset = offsetof(struct batch_config, batch), .min = 1, .max = 10000, .def = "10", .arg = "N",
	  .help = "jobs each batch claim takes at most (FOR UPDATE SKIP LOCKED LIMIT N)" },
	{ .name = NULL },
};

/* The completion's head: each job of the batch done, or error when it is among the failed ids. */
#define FINISH_HEAD                                                                                      \
	"UPDATE {jobs} AS j SET status = CASE WHEN j.id = ANY($3::bigint[]) THEN 'error' ELSE 'done' END, " \
	"done_at = {now} FROM unnest($1::bigint[], $2::integer[]) AS b(id, attempt) WHERE j.id = b.id"

/* An SQL array literal parameter, {1,2,3}, as the JSON array [1,2,3] MariaDB's JSON_TABLE reads. */
#define MARIADB_JSON_ARRAY(param) "REPLACE(REPLACE(" param ", '{', '['), '}', ']')"

/*
 * MariaDB's claim, inside the transaction batch_claim begins: the ids picked FOR UPDATE SKIP
 * LOCKED gathered in a session variable as a JSON array, their rows marked active through
 * JSON_TABLE (a join on the primary key: only the picked rows are touched), then selected.
 */
#define MARIADB_CLAIM                                                                                    \
	"SET @claimbench_batch = NULL; "                                                                  \
	"SELECT JSON_ARRAYAGG(id) INTO @claimbench_batch FROM (SELECT id FROM {jobs} WHERE queue = $1 "   \
	"AND {claimable} ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED) AS picked; "                        \
	"UPDATE {jobs} AS j JOIN JSON_TABLE(@claimbench_batch, '$[*]' COLUMNS (id bigint PATH '$')) AS b " \
	"ON j.id = b.id SET j.status = 'active', j.claimed_by = $2, j.claimed_at = {now}, "               \
	"j.lease_until = {lease_until}, j.attempts = j.attempts + 1; "                                    \
	"SELECT j.id, j.attempts FROM JSON_TABLE(@claimbench_batch, '$[*]' COLUMNS (id bigint PATH '$')) " \
	"AS b JOIN {jobs} AS j ON j.id = b.id"

/*
 * MariaDB's completion head: the batch's ids and attempts paired by their place, each row
 * the UPDATE matches appending its id to a session variable (the status's CASE evaluates
 * it first), so that MARIADB_FINISH_TAIL returns exactly the rows completed.
 */
#define MARIADB_FINISH_HEAD                                                                              \
	"SET @claimbench_done = NULL; "                                                                   \
	"UPDATE {jobs} AS j JOIN JSON_TABLE(" MARIADB_JSON_ARRAY("$1") ", '$[*]' COLUMNS (n FOR ORDINALITY, " \
	"id bigint PATH '$')) AS b ON j.id = b.id JOIN JSON_TABLE(" MARIADB_JSON_ARRAY("$2") ", '$[*]' "  \
	"COLUMNS (n FOR ORDINALITY, attempt integer PATH '$')) AS a ON a.n = b.n "                        \
	"SET j.status = CASE WHEN (@claimbench_done := CONCAT_WS(',', @claimbench_done, j.id)) IS NULL "   \
	"THEN j.status WHEN FIND_IN_SET(j.id, TRIM(BOTH '}' FROM TRIM(BOTH '{' FROM $3))) > 0 "            \
	"THEN 'error' ELSE 'done' END, j.done_at = {now} WHERE TRUE"

/* The rows MARIADB_FINISH_HEAD's UPDATE completed, one id each. */
#define MARIADB_FINISH_TAIL                                                                              \
	"; SELECT d.id FROM JSON_TABLE(CONCAT('[', COALESCE(@claimbench_done, ''), ']'), '$[*]' "          \
	"COLUMNS (id bigint PATH '$')) AS d"

static const struct strategy_statement batch_statements[] = {
	{ SLOT_CLAIM, 3, { [DIALECT_POSTGRESQL] =
		"WITH picked AS MATERIALIZED (SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} "
		"ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED) "
		"UPDATE {jobs} AS j SET status = 'active', claimed_by = $2, claimed_at = {now}, "
		"lease_until = {lease_until}, attempts = j.attempts + 1 FROM picked WHERE j.id = picked.id "
		"RETURNING j.id, j.attempts",
			    [DIALECT_MARIADB] = MARIADB_CLAIM } },
	{ SLOT_FINISH_NONE, 3, { [DIALECT_POSTGRESQL] = FINISH_HEAD " RETURNING j.id",
				 [DIALECT_MARIADB] = MARIADB_FINISH_HEAD MARIADB_FINISH_TAIL } },
	{ SLOT_FINISH_OWNER, 4, { [DIALECT_POSTGRESQL] =
		FINISH_HEAD " AND j.status = 'active' AND j.claimed_by = $4 RETURNING j.id",
				  [DIALECT_MARIADB] =
		MARIADB_FINISH_HEAD " AND j.status = 'active' AND j.claimed_by = $4" MARIADB_FINISH_TAIL } },
	{ SLOT_FINISH_ATTEMPT, 4, { [DIALECT_POSTGRESQL] =
		FINISH_HEAD " AND j.status = 'active' AND j.claimed_by = $4 AND j.attempts = b.attempt RETURNING j.id",
				    [DIALECT_MARIADB] =
		MARIADB_FINISH_HEAD " AND j.status = 'active' AND j.claimed_by = $4 AND j.attempts = a.attempt"
		MARIADB_FINISH_TAIL } },
	/*
	 * the leases of the whole batch, the jobs worked (awaiting the one completion), the one
	 * in hand and those after it: every job the worker holds in the job in hand's queue
	 */
	{ SLOT_HEARTBEAT, 2, { [DIALECT_POSTGRESQL] =
		"UPDATE {jobs} SET lease_until = {lease_until} WHERE status = 'active' AND claimed_by = $2 "
		"AND queue = (SELECT queue FROM {jobs} WHERE id = $1)",
			       [DIALECT_MARIADB] =
		"UPDATE {jobs} SET lease_until = {lease_until} WHERE status = 'active' AND claimed_by = $2 "
		"AND queue = (SELECT queue FROM (SELECT queue FROM {jobs} WHERE id = $1) AS held)" } },
};

/* Longest decimal integer with its comma. */
#define NUMBER_TEXT 21

/* One worker's parameter texts for the completion, sized for its largest batch. */
struct batch_data {
	char *ids;		/* {id,...} of the batch's jobs */
	char *attempts;		/* {attempt,...}, in the same order */
	char *failed;		/* {id,...} of those that fail */
	int64_t *returned;	/* rows a statement returned: the claim's (id, attempts) pairs, the completion's ids */
};

/* The batch size its settings ask for (--batch): the most jobs one claim takes. */
static int batch_max(const void *config)
{
	return ((const struct batch_config *)config)->batch;
}

static void batch_worker_cleanup(struct worker *w);

/* Sizes w's parameter texts and row buffer for its largest batch. 0, or -1 with err (nothing left allocated). */
static int batch_worker_init(struct worker *w, char *err, size_t errlen)
{
	size_t text = (size_t)w->batch_max * NUMBER_TEXT + 3;
	struct batch_data *d = calloc(1, sizeof(*d));

	if (!d)
		goto fail;
	w->strategy_data = d;
	d->ids = malloc(text);
	d->attempts = malloc(text);
	d->failed = malloc(text);
	d->returned = calloc(2 * (size_t)w->batch_max, sizeof(*d->returned));
	if (d->ids && d->attempts && d->failed && d->returned)
		return 0;
fail:
	batch_worker_cleanup(w);
	snprintf(err, errlen, "out of memory for the batch");
	return -1;
}

/* Frees what batch_worker_init allocated for w, if anything. */
static void batch_worker_cleanup(struct worker *w)
{
	struct batch_data *d = w->strategy_data;

	if (!d)
		return;
	free(d->ids);
	free(d->attempts);
	free(d->failed);
	free(d->returned);
	free(d);
	w->strategy_data = NULL;
}

/* qsort order of batch jobs: by id. */
static int by_id(const void *a, const void *b)
{
	int64_t x = ((const struct batch_job *)a)->id, y = ((const struct batch_job *)b)->id;

	return (x > y) - (x < y);
}

/*
 * Claims up to max jobs in one statement: committed in flip mode, inside an open transaction
 * in hold mode. MariaDB's claim is several statements, which a transaction keeps the picked
 * rows locked across in flip mode too (committed once they are marked).
 */
static enum claim_result batch_claim(struct worker *w, struct batch_job *jobs, int max, int *n)
{
	/* Per dialect, whether its claim is several statements that one transaction must hold in flip mode too. */
	static const bool several_statements[DIALECT_COUNT] = { [DIALECT_MARIADB] = true };
	struct batch_data *d = w->strategy_data;
	bool hold = w->shared->mode == MODE_HOLD;
	bool txn = hold || several_statements[w->shared->db->dialect];
	char limit[24];
	const char *params[] = { w->queue, w->identity_text, worker_id_text(limit, max) };
	int64_t *rows = d->returned;
	int got;

	if (txn && worker_begin(w) < 0)
		return CLAIM_ERROR;
	got = worker_exec_rows(w, SLOT_CLAIM, 3, params, rows, 2, max);
	if (got < 0) {
		if (txn)
			worker_rollback(w);
		return CLAIM_ERROR;
	}
	if (txn && (got == 0 || !hold) && worker_commit(w) < 0)
		return CLAIM_ERROR;
	if (got == 0)
		return CLAIM_EMPTY;
	for (int i = 0; i < got; i++)
		jobs[i] = (struct batch_job){ .id = rows[2 * i], .attempt = rows[2 * i + 1] };
	qsort(jobs, (size_t)got, sizeof(*jobs), by_id);
	*n = got;
	return CLAIM_OK;
}

/*
 * Writes, as an SQL array literal into buf, the ids (or the attempts) of the first n jobs
 * (only those that fail, when failed_only) and returns buf.
 */
static const char *array_text(char *buf, const struct batch_job *jobs, int n, bool attempts, bool failed_only)
{
	char *at = buf;

	*at++ = '{';
	for (int i = 0; i < n; i++) {
		if (failed_only && !jobs[i].fails)
			continue;
		at += sprintf(at, "%s%lld", at > buf + 1 ? "," : "", (long long)(attempts ? jobs[i].attempt : jobs[i].id));
	}
	*at++ = '}';
	*at = '\0';
	return buf;
}

/* The index of the job id in jobs[0..n), sorted by id, or -1. */
static int find_job(const struct batch_job *jobs, int n, int64_t id)
{
	struct batch_job key = { .id = id };
	const struct batch_job *hit = bsearch(&key, jobs, (size_t)n, sizeof(*jobs), by_id);

	return hit ? (int)(hit - jobs) : -1;
}

/* Completes the batch's n jobs in one statement with the run's fence, committing in hold mode. */
static int batch_finish(struct worker *w, struct batch_job *jobs, int n)
{
	static const int finish_slot[] = {
		[FENCE_NONE] = SLOT_FINISH_NONE,
		[FENCE_OWNER] = SLOT_FINISH_OWNER,
		[FENCE_ATTEMPT] = SLOT_FINISH_ATTEMPT,
	};
	struct batch_data *d = w->strategy_data;
	int fence = w->shared->cfg->recovery.fence;
	const char *params[] = { array_text(d->ids, jobs, n, false, false), array_text(d->attempts, jobs, n, true, false),
				 array_text(d->failed, jobs, n, false, true), w->identity_text };
	int rows = worker_exec_rows(w, finish_slot[fence], fence == FENCE_NONE ? 3 : 4, params, d->returned, 1, n);

	if (rows < 0) {
		if (w->shared->mode == MODE_HOLD)
			worker_rollback(w);
		return -1;
	}
	if (w->shared->mode == MODE_HOLD && worker_commit(w) < 0)
		return -1;
	for (int i = 0; i < rows && i < n; i++) {
		int k = find_job(jobs, n, d->returned[i]);

		if (k >= 0)
			jobs[k].completed = true;
	}
	return 0;
}

const struct strategy_ops strategy_batch = {
	.name = "batch",
	.order = 130,
	.summary = "FOR UPDATE SKIP LOCKED LIMIT N claims N jobs at once, one completion for all (graphile-worker, PgQueuer)",
	.session_needs = SESSION_NEEDS_PREPARED,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_MARIADB),
	.needs_caps = {
		[DIALECT_POSTGRESQL] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
		[DIALECT_SQLITE] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
		[DIALECT_MARIADB] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED,
	},
	.modes = MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP),
	.default_mode = MODE_FLIP,
	.statements = batch_statements,
	.n_statements = sizeof(batch_statements) / sizeof(batch_statements[0]),
	.options = batch_options,
	.config_size = sizeof(struct batch_config),
	.worker_init = batch_worker_init,
	.worker_cleanup = batch_worker_cleanup,
	.batch_max = batch_max,
	.claim_batch = batch_claim,
	.finish_batch = batch_finish,
};
