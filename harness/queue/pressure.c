#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "engine/session.h"
#include "queue/pressure.h"

/* The read of the queue table (%s) that takes the snapshot the backend's snapshot_begin began. */
static const char snapshot_read_sql[] = "SELECT count(*) FROM %s";

/* Orders two instants for qsort. */
static int cmp_instant(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int pressure_open(struct pressure *p, struct run_shared *s, char *err, size_t errlen)
{
	const struct pressure_plan *plan = &s->cfg->pressure;

	memset(p, 0, sizeof(*p));
	p->s = s;
	p->n_vacuums = plan->vacuum.n_at;
	memcpy(p->vacuum_at_s, plan->vacuum.at_s, p->n_vacuums * sizeof(p->vacuum_at_s[0]));
	qsort(p->vacuum_at_s, p->n_vacuums, sizeof(p->vacuum_at_s[0]), cmp_instant);
	atomic_init(&p->quit, false);
	atomic_init(&p->saw_stop, false);
	if (plan->snapshot_s > 0 &&
	    session_open(s->db, s->server_target, &s->cfg->db_opts, &p->saw_stop, &p->holder, err, errlen) < 0)
		return -1;
	if (p->n_vacuums &&
	    session_open(s->db, s->server_target, &s->cfg->db_opts, &p->saw_stop, &p->vacuumer, err, errlen) < 0)
		return -1;
	return 0;
}

/* Marks p failed for the first reason why: what was tried and the server's message on conn. */
static void fail(struct pressure *p, const char *what, struct db_conn *conn)
{
	if (p->failed)
		return;
	p->failed = true;
	snprintf(p->failure, sizeof(p->failure), "%s: %s", what, p->s->db->error_message(conn));
}

/* Orders two phases by the instant they began, for qsort. */
static int cmp_phase(const void *a, const void *b)
{
	int64_t x = ((const struct phase_record *)a)->at_ns, y = ((const struct phase_record *)b)->at_ns;

	return (x > y) - (x < y);
}

/* Notes a phase of kind that began at from_ns (absolute) and lasted until now. */
static void note_phase(struct pressure *p, enum phase_kind kind, int64_t from_ns)
{
	if (p->n_phases == PRESSURE_MAX_PHASES)
		return;
	p->phases[p->n_phases++] = (struct phase_record){
		.kind = kind, .at_ns = from_ns - p->s->gate.start_ns, .duration_ns = clock_now_ns() - from_ns,
	};
}

/* Opens the snapshot on p's holder: BEGIN and a read of the queue table. 0, or -1 with p failed. */
static int hold_snapshot(struct pressure *p)
{
	const struct backend_ops *db = p->s->db;
	char sql[256];

	snprintf(sql, sizeof(sql), snapshot_read_sql, p->s->jobs_table);
	if (db->exec(p->holder, db->sql->snapshot_begin) < 0 || db->exec(p->holder, sql) < 0) {
		fail(p, "holding a snapshot", p->holder);
		db->exec(p->holder, "ROLLBACK");
		return -1;
	}
	return 0;
}

/* VACUUMs the queue table on p's vacuumer and notes the phase. */
static void vacuum(struct pressure *p)
{
	char sql[200];
	int64_t from = clock_now_ns();

	snprintf(sql, sizeof(sql), p->s->db->sql->vacuum, p->s->jobs_table);
	if (p->s->db->exec(p->vacuumer, sql) < 0) {
		fail(p, "vacuuming the queue table", p->vacuumer);
		return;
	}
	note_phase(p, PHASE_VACUUM, from);
}

/* What happens next in the pressure thread. */
enum pressure_event {
	EVENT_NONE,		/* nothing more */
	EVENT_SNAPSHOT,		/* the snapshot begins or ends */
	EVENT_VACUUM,		/* the next vacuum */
};

/*
 * The next event and its instant (absolute) in *at. At one instant the snapshot's begin or
 * end comes before a vacuum: a snapshot held from 1 s to 2 s with a vacuum at 2 s is
 * released, then vacuumed after, as the vacuum is meant to clean up after it.
 */
static enum pressure_event next_event(const struct pressure *p, int stage, size_t next_vacuum, int64_t *at)
{
	const struct pressure_plan *plan = &p->s->cfg->pressure;
	int64_t start = p->s->gate.start_ns, vacuum_at;
	enum pressure_event event = EVENT_NONE;

	*at = INT64_MAX;
	if (p->holder && stage < 2) {
		*at = start + (int64_t)((stage == 0 ? plan->snapshot_at_s : plan->snapshot_at_s + plan->snapshot_s) * 1e9);
		event = EVENT_SNAPSHOT;
	}
	if (next_vacuum < p->n_vacuums) {
		vacuum_at = start + (int64_t)(p->vacuum_at_s[next_vacuum] * 1e9);
		if (vacuum_at < *at) {
			*at = vacuum_at;
			event = EVENT_VACUUM;
		}
	}
	return event;
}

/*
 * The thread: from the start gate, each event at its instant, in time order; at the end
 * a snapshot still held is released.
 */
static void *pressure_main(void *arg)
{
	struct pressure *p = arg;
	int stage = 0;			/* the snapshot: 0 to come, 1 held, 2 over */
	size_t next_vacuum = 0;
	int64_t held_from = 0, at;
	enum pressure_event event;

	run_wait_gate(&p->s->gate);
	while ((event = next_event(p, stage, next_vacuum, &at)) != EVENT_NONE && run_sleep_until(&p->s->gate, at, &p->quit)) {
		if (event == EVENT_VACUUM) {
			vacuum(p);
			next_vacuum++;
		} else if (stage == 0) {
			held_from = clock_now_ns();
			stage = hold_snapshot(p) == 0 ? 1 : 2;
		} else {
			p->s->db->exec(p->holder, "COMMIT");
			note_phase(p, PHASE_SNAPSHOT, held_from);
			stage = 2;
		}
	}
	if (stage == 1) {
		p->s->db->exec(p->holder, "COMMIT");
		note_phase(p, PHASE_SNAPSHOT, held_from);
	}
	qsort(p->phases, p->n_phases, sizeof(p->phases[0]), cmp_phase);
	atomic_store(&p->saw_stop, true);
	return NULL;
}

int pressure_start(struct pressure *p)
{
	if (!p->holder && !p->vacuumer)
		return 0;
	if (pthread_create(&p->thread, NULL, pressure_main, p) != 0)
		return -1;
	p->started = true;
	return 0;
}

void pressure_join(struct pressure *p)
{
	if (!p->started)
		return;
	atomic_store(&p->quit, true);
	pthread_join(p->thread, NULL);
	p->started = false;
}

void pressure_close(struct pressure *p)
{
	struct db_conn **conns[] = { &p->holder, &p->vacuumer };

	for (size_t i = 0; i < sizeof(conns) / sizeof(conns[0]); i++)
		session_close(p->s->db, conns[i], false);
}
