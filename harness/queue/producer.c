/*
 * The producer thread: connect, prepare the INSERT, wait at the barrier, then insert on
 * schedule; a lost connection is made anew and the insert tried again.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "engine/session.h"
#include "engine/sql_template.h"
#include "queue/producer.h"
#include "queue/reconnect.h"

/* The statement slot of the INSERT on a producer's connection. */
#define SLOT_INSERT 0

/* Longest sleep between looks at the stop flag while waiting for an instant. */
#define PRODUCER_NAP_NS 10000000

/* Pause after a failed insert before trying the same job again. */
#define PRODUCER_RETRY_NS 5000000

/*
 * Connects p (a struct producer) and prepares its INSERT: the strategy's insert_sql if it
 * has one (notify's sends a notification with it), else the backend's insert_job, which does
 * nothing when the job is there already: an insert that committed but whose answer a lost
 * connection swallowed is tried again. 0, or -1 with err (nothing left open).
 */
static int connect_producer(void *arg, char *err, size_t errlen)
{
	struct producer *p = arg;
	const struct run_shared *s = p->shared;
	const char *tmpl = s->strategy->insert_sql[s->db->dialect];

	if (session_open(s->db, s->target, &s->cfg->db_opts, &p->finished, &p->conn, err, errlen) < 0)
		return -1;
	if (s->created_audit && s->db->name_session(p->conn, -1) < 0) {
		snprintf(err, errlen, "naming the session for the audit: %s", s->db->error_message(p->conn));
		goto fail;
	}
	if (statement_prepare(s->db, p->conn, &s->names, SLOT_INSERT, tmpl ? tmpl : s->db->sql->insert_job, 3,
			      "preparing the INSERT", err, errlen) < 0)
		goto fail;
	return 0;
fail:
	session_close(s->db, &p->conn, false);
	return -1;
}

int producer_open(struct producer *p, struct run_shared *shared, int index, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->index = index;
	p->shared = shared;
	atomic_init(&p->finished, false);
	live_counters_init(&p->live);
	if (ledger_init(&p->ledger, 0, 0, 64) < 0) {
		snprintf(err, errlen, "out of memory for the ledger");
		return -1;
	}
	if (connect_producer(p, err, errlen) < 0) {
		ledger_free(&p->ledger);
		return -1;
	}
	return 0;
}

void producer_close(struct producer *p)
{
	session_close(p->shared->db, &p->conn, false);
	ledger_free(&p->ledger);
}

int64_t producer_due_ns(long k, double rate)
{
	return (int64_t)((double)k * 1e9 / rate);
}

/* Stops p with reason; the run will be marked incomplete. */
static void producer_abort(struct producer *p, const char *reason)
{
	p->aborted = true;
	snprintf(p->abort_reason, sizeof(p->abort_reason), "producer %d: %.200s", p->index, reason);
}

/* Sleeps until the absolute instant at_ns, waking early when a stop is requested. false when stopped. */
static bool wait_until(const struct run_shared *s, int64_t at_ns)
{
	for (;;) {
		int64_t now = clock_now_ns();

		if (run_stopping(&s->gate))
			return false;
		if (now >= at_ns)
			return true;
		clock_sleep_until_ns(at_ns - now > PRODUCER_NAP_NS ? now + PRODUCER_NAP_NS : at_ns);
	}
}

/* Notes how late an insert was issued: late_ns after its scheduled instant. */
static void note_lateness(struct producer *p, int64_t late_ns)
{
	if (late_ns > p->stats.late_max_ns)
		p->stats.late_max_ns = late_ns;
	if (late_ns > PRODUCER_LATE_NS)
		p->stats.late++;
}

/*
 * Inserts job id (autocommit) and, once committed, notes its enqueue time. 0, or -1 with
 * the error counted by kind and its instant in p's ledger (*oom set when that could not grow).
 */
static int insert_job(struct producer *p, int64_t id, bool *oom)
{
	struct run_shared *s = p->shared;
	char id_text[24], payload[40];
	const char *params[] = { worker_id_text(id_text, id), run_config_queue_of_job(s->cfg, id), payload };
	int64_t now;

	snprintf(payload, sizeof(payload), "job %" PRId64, id);
	if (s->db->exec_rows(p->conn, SLOT_INSERT, 3, params, NULL, 0, 0) >= 0) {
		s->enqueued_ns[id - 1] = instants_clock(&s->instants) - s->gate.start_ns;
		p->stats.inserted++;
		live_add(&p->live.inserted, 1);
		return 0;
	}
	if (run_stopping(&s->gate))
		return -1;
	now = clock_now_ns();
	session_count_error(s->db, p->conn, p->stats.errors);
	live_add(&p->live.errors, 1);
	*oom = ledger_add_error(&p->ledger, now - s->gate.start_ns) < 0;
	return -1;
}

/* The thread: from the start barrier, its arrivals on schedule until they are done or a stop. */
static void *producer_main(void *arg)
{
	struct producer *p = arg;
	struct run_shared *s = p->shared;
	int consecutive_errors = 0;
	bool retry = false, oom = false;
	long k = p->index;

	run_wait_gate(&s->gate);
	while (k < s->arrivals) {
		int64_t due = s->gate.start_ns + (s->cfg->timeline.n ? timeline_due_ns(&s->cfg->timeline, s->cfg->arrival_rate, k)
								      : producer_due_ns(k, s->cfg->arrival_rate));

		if (s->gate.deadline_ns && due >= s->gate.deadline_ns)
			break;
		if (!wait_until(s, due))
			break;
		if (!retry)
			note_lateness(p, clock_now_ns() - due);
		if (insert_job(p, s->backlog + 1 + k, &oom) == 0) {
			consecutive_errors = 0;
			retry = false;
			k += s->cfg->producers;
			continue;
		}
		if (oom) {
			producer_abort(p, "out of memory for the ledger");
			break;
		}
		if (s->db->error_kind(p->conn) == ERR_CONNECTION_LOST) {
			char why[sizeof(p->abort_reason)];

			session_close(p->shared->db, &p->conn, false);
			if (run_reconnect(s, connect_producer, p, why, sizeof(why)) < 0) {
				if (*why)
					producer_abort(p, why);
				break;
			}
			p->stats.reconnects++;
			retry = true;
			continue;
		}
		if (++consecutive_errors >= WORKER_MAX_CONSECUTIVE_ERRORS) {
			char reason[sizeof(p->abort_reason)];

			snprintf(reason, sizeof(reason), "%d errors in a row, the last: %s", consecutive_errors,
				 s->db->error_message(p->conn));
			producer_abort(p, reason);
			break;
		}
		retry = true;
		if (!wait_until(s, clock_now_ns() + PRODUCER_RETRY_NS))
			break;
	}
	atomic_fetch_sub_explicit(&s->producers_running, 1, memory_order_release);
	atomic_store(&p->finished, true);
	return NULL;
}

int producer_start(struct producer *p)
{
	return pthread_create(&p->thread, NULL, producer_main, p) == 0 ? 0 : -1;
}
