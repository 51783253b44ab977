/*
 * notify (River, Oban): skip-locked's claim (FOR UPDATE SKIP LOCKED LIMIT 1, hold or flip),
 * but an idle worker is woken rather than polling. Each worker connection LISTENs on the
 * run's channel (the queue table's name, so that two runs on one server do not wake each
 * other) as soon as it is made, again after a reconnect and for a crashed worker's
 * replacement, always before its next claim. A producer inserts an arrival and calls
 * pg_notify in the same statement, so in the same transaction: the notification is
 * delivered at the commit, and only when the row went in (an insert tried again after a
 * lost answer notifies nobody). River and Oban notify from the inserting client like this;
 * graphile-worker and que use a trigger on the jobs table, which would need a function of
 * the run's own that dropping the table leaves behind. Nothing is made on the server:
 * LISTEN ends with its session.
 *
 * After an empty claim the worker waits on its connection's socket for a notification
 * instead of sleeping --empty-wait-ms (which still paces retries after lock contention),
 * waking every RUN_WAKE_NS to see the run stop and at the run's deadline, and claiming
 * again when notified or after --listen-fallback-ms without one: a notification missed
 * (sent while the worker was reconnecting) or a job given back without one (a lease run
 * out, a crashed worker's job) must not leave it idle for ever. Real libraries keep such
 * a poll (graphile-worker's pollInterval, 2 s by default, the default here too).
 *
 * The backlog loaded before the start notifies nobody: every worker claims before it
 * first waits. Once the producers of a drain run are done nothing notifies, yet a worker
 * must see the queue drained (or a job another worker gave back) to end: it then waits
 * the poll interval as skip-locked does. A drain run without arrivals is therefore
 * skip-locked; the difference shows only while jobs arrive. Every listener is woken by
 * every notification, so with W idle workers one arrival makes one claim and W-1 empty
 * ones: the thundering herd shows in the empty-claim counters. Notifications received
 * while a worker was busy wake it at once when it next waits: one more empty claim, never
 * a lost wake-up.
 */
#include <stddef.h>

#include "base/clock.h"
#include "queue/claim.h"
#include "plugin/strategy.h"
#include "queue/worker.h"

enum { SLOT_SELECT = SLOT_STRATEGY };

static const struct strategy_statement notify_statements[] = {
	{ SLOT_SELECT, 1, {
		[DIALECT_POSTGRESQL] = "SELECT id FROM {jobs} WHERE queue = $1 AND {claimable} "
				       "ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED",
	} },
};

/* Its settings: how long an idle worker waits for a notification before it claims anyway. */
struct notify_config {
	int fallback_ms;	/* the longest idle wait without a notification */
};

static const struct option_def notify_options[] = {
	{ .name = "listen-fallback-ms", .type = OPTION_INT, .place = OPTION_IN_STRATEGY,
	  .offset = offsetof(struct notify_config, fallback_ms), .min = 10, .max = 3600000, .def = "2000",
	  .arg = "MS", .help = "the longest a notify worker waits idle for a notification before it claims anyway" },
	{ .name = NULL },
};

static enum claim_result notify_claim(struct worker *w, int64_t *job_id)
{
	return claim_in_transaction(w, SLOT_SELECT, job_id);
}

/*
 * Whether the run of s is a drain run whose producers are done: no insert will notify any
 * more, and only polling can see the last jobs finished (or given back) by other workers.
 */
static bool drain_without_arrivals(const struct run_shared *s)
{
	return !s->gate.deadline_ns && atomic_load_explicit(&s->producers_running, memory_order_acquire) == 0;
}

/*
 * Waits for a notification, the fallback interval, the run's deadline or its stop; in a
 * drain run whose producers are done, the poll interval, as skip-locked would. 0, or -1
 * on an error.
 */
static int notify_idle_wait(struct worker *w)
{
	const struct run_shared *s = w->shared;
	const struct notify_config *c = s->strategy_config;
	int64_t start = clock_now_ns(), until = start + MS_TO_NS(c->fallback_ms);
	int64_t poll_until = start + MS_TO_NS(s->cfg->empty_wait_ms);

	if (s->gate.deadline_ns && s->gate.deadline_ns < until)
		until = s->gate.deadline_ns;
	while (!run_stopping(&s->gate)) {
		int64_t left;
		int rc;

		if (poll_until < until && drain_without_arrivals(s))
			until = poll_until;
		left = until - clock_now_ns();

		if (left <= 0)
			return 0;
		rc = worker_wait_notification(w, left < RUN_WAKE_NS ? left : RUN_WAKE_NS);
		if (rc != 0)
			return rc < 0 ? -1 : 0;
	}
	return 0;
}

const struct strategy_ops strategy_notify = {
	.name = "notify",
	.order = 120,
	.summary = "skip-locked's claim; idle workers LISTEN, producers NOTIFY on insert (River, Oban)",
	.session_needs = SESSION_NEEDS_PREPARED | SESSION_NEEDS_LISTEN,
	.dialects = DIALECT_BIT(DIALECT_POSTGRESQL),
	.needs_caps = {
		[DIALECT_POSTGRESQL] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED | CAP_LISTEN_NOTIFY,
		[DIALECT_SQLITE] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED | CAP_LISTEN_NOTIFY,
		[DIALECT_MARIADB] = CAP_ROW_LOCKS | CAP_SKIP_LOCKED | CAP_LISTEN_NOTIFY,
	},
	.modes = MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP),
	.default_mode = MODE_HOLD,
	.statements = notify_statements,
	.n_statements = sizeof(notify_statements) / sizeof(notify_statements[0]),
	.connect_sql = { [DIALECT_POSTGRESQL] = "LISTEN {jobs}" },
	.insert_sql = {
		[DIALECT_POSTGRESQL] = "WITH arrival AS (INSERT INTO {jobs} (id, queue, payload) VALUES ($1, $2, $3) "
				       "ON CONFLICT (id) DO NOTHING RETURNING id) "
				       "SELECT pg_notify({channel}, '') FROM arrival",
	},
	.options = notify_options,
	.config_size = sizeof(struct notify_config),
	.claim = notify_claim,
	.idle_wait = notify_idle_wait,
};
