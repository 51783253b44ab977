#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "engine/session.h"
#include "model/timeline.h"
#include "queue/timeline_runner.h"

/* The runner's pause between looks at whether the monitor has struck a fault phase's first faults. */
#define FAULTS_STRUCK_POLL_NS 1000000

/* The runner's pause between looks at whether every reader has scanned once. */
#define READERS_READY_POLL_NS 1000000

/* A long-writer's pause between its writes. */
#define WRITER_EVERY_NS 10000000

/* Names r's phases (timeline_phase_name) and marks their kind-specific records unknown. */
static void name_phases(struct timeline_runner *r, const struct timeline *tl)
{
	for (size_t i = 0; i < tl->n; i++) {
		struct timeline_phase *p = &r->phases[i];

		memset(p, 0, sizeof(*p));
		p->kind = tl->steps[i].kind;
		p->arg = tl->steps[i].arg;
		timeline_phase_name(tl, i, p->name, sizeof(p->name));
		p->readers_seen = p->readers_repeatable = p->reader_scans = p->xid = TIMELINE_UNKNOWN;
		p->pool_held = p->pool_refused = p->pool_seen = TIMELINE_UNKNOWN;
		p->vacuums = p->autovacuums = p->writer_rows = TIMELINE_UNKNOWN;
	}
	r->n_phases = tl->n;
}

int timeline_open(struct timeline_runner *r, struct run_shared *s, char *err, size_t errlen)
{
	const struct timeline *tl = &s->cfg->timeline;
	const struct backend_timeline_sql *sql = s->db->sql->timeline;
	char name_sql[256];
	bool holds = false;

	memset(r, 0, sizeof(*r));
	r->s = s;
	atomic_init(&r->quit, false);
	atomic_init(&r->saw_stop, false);
	atomic_init(&r->readers_stop, false);
	atomic_init(&r->readers_ready, 0);
	atomic_init(&r->phase_now, 0);
	for (size_t i = 0; i < TIMELINE_MAX_PHASES; i++)
		atomic_init(&r->phase_faults[i], 0);
	atomic_init(&r->striking, 0);
	name_phases(r, tl);
	for (size_t i = 0; i < tl->n; i++) {
		holds |= timeline_is_pressure(tl->steps[i].kind) && tl->steps[i].kind != TIMELINE_LOAD &&
			 timeline_fault_kind(tl->steps[i].kind) < 0;
		if (tl->steps[i].kind == TIMELINE_ACTIVE_READERS && (int)tl->steps[i].arg > r->n_readers)
			r->n_readers = (int)tl->steps[i].arg;
		if (tl->steps[i].kind == TIMELINE_POOL_EXHAUSTION && (int)tl->steps[i].arg > r->pool_cap)
			r->pool_cap = (int)tl->steps[i].arg;
	}
	if (r->pool_cap && !(r->pool = calloc((size_t)r->pool_cap, sizeof(*r->pool)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (holds && !sql) {
		snprintf(err, errlen, "--phase: %s builds no pressure phase", s->db->name);
		return -1;
	}
	if (holds && session_open(s->db, s->server_target, &s->cfg->db_opts, &r->saw_stop, &r->holder, err, errlen) < 0)
		return -1;
	for (int i = 0; i < r->n_readers; i++) {
		struct timeline_reader *rd = &r->readers[i];

		rd->r = r;
		if (session_open(s->db, s->server_target, &s->cfg->db_opts, &r->saw_stop, &rd->conn, err, errlen) < 0)
			return -1;
		if (!sql->reader_name)
			continue;
		snprintf(name_sql, sizeof(name_sql), sql->reader_name, TIMELINE_READER_NAME, (int)getpid());
		if (s->db->exec(rd->conn, name_sql) < 0) {
			snprintf(err, errlen, "naming a reader's session: %s", s->db->error_message(rd->conn));
			return -1;
		}
	}
	return 0;
}

/* Marks r failed for the first reason why: what was tried and the server's message on conn. */
static void fail(struct timeline_runner *r, const char *what, struct db_conn *conn)
{
	if (r->failed)
		return;
	r->failed = true;
	snprintf(r->failure, sizeof(r->failure), "phase %s: %s", what, r->s->db->error_message(conn));
}

/* db_row_fn of one value: the first column into the int64_t at ctx. */
static int first_column(void *ctx, const int64_t *cols, int ncols)
{
	if (ncols > 0)
		*(int64_t *)ctx = cols[0];
	return 0;
}

/* db_row_fn of a reader's scan: notes whether its transaction is REPEATABLE READ (the second column). */
static int scan_row(void *ctx, const int64_t *cols, int ncols)
{
	struct timeline_reader *rd = ctx;

	rd->repeatable = ncols > 1 && cols[1] == 1;
	return 0;
}

/* A reader's thread: BEGIN REPEATABLE READ, scans of the queue table until told to stop, COMMIT. */
static void *reader_main(void *arg)
{
	struct timeline_reader *rd = arg;
	const struct run_shared *s = rd->r->s;
	char sql[256];
	bool told = false;

	snprintf(sql, sizeof(sql), s->db->sql->timeline->reader_scan, s->jobs_table);
	if (s->db->exec(rd->conn, s->db->sql->snapshot_begin) < 0)
		goto failed;
	while (!atomic_load(&rd->r->readers_stop) && !run_stopping(&s->gate)) {
		if (s->db->query(rd->conn, sql, scan_row, rd) < 0)
			goto failed;
		rd->scans++;
		if (!told) {
			atomic_fetch_add(&rd->r->readers_ready, 1);
			told = true;
		}
	}
	s->db->exec(rd->conn, "COMMIT");
	return NULL;
failed:
	rd->failed = true;
	snprintf(rd->failure, sizeof(rd->failure), "%s", s->db->error_message(rd->conn));
	s->db->exec(rd->conn, "ROLLBACK");
	if (!told)
		atomic_fetch_add(&rd->r->readers_ready, 1);
	return NULL;
}

/*
 * Starts n readers for phase p and waits until each has scanned once (or failed, or the
 * run stops), then counts their sessions in pg_stat_activity. The readers that started, in *started.
 */
static void start_readers(struct timeline_runner *r, struct timeline_phase *p, int n, int *started)
{
	char sql[512];

	atomic_store(&r->readers_stop, false);
	atomic_store(&r->readers_ready, 0);
	for (*started = 0; *started < n; (*started)++) {
		struct timeline_reader *rd = &r->readers[*started];

		rd->scans = 0;
		rd->repeatable = rd->failed = false;
		if (pthread_create(&rd->thread, NULL, reader_main, rd) != 0)
			break;
	}
	while (atomic_load(&r->readers_ready) < *started &&
	       run_sleep_until(&r->s->gate, clock_now_ns() + READERS_READY_POLL_NS, &r->quit))
		;
	if (r->s->db->sql->timeline->readers_seen) {
		snprintf(sql, sizeof(sql), r->s->db->sql->timeline->readers_seen, TIMELINE_READER_NAME, (int)getpid());
		if (r->s->db->query(r->holder, sql, first_column, &p->readers_seen) < 0)
			fail(r, "active-readers: counting the readers' sessions", r->holder);
	}
	if (*started < n && !r->failed) {
		r->failed = true;
		snprintf(r->failure, sizeof(r->failure), "phase active-readers: cannot start reader thread %d", *started);
	}
}

/* Stops the started readers of phase p, waits for them and notes their scans and isolation. */
static void stop_readers(struct timeline_runner *r, struct timeline_phase *p, int started)
{
	atomic_store(&r->readers_stop, true);
	p->reader_scans = p->readers_repeatable = 0;
	for (int i = 0; i < started; i++) {
		struct timeline_reader *rd = &r->readers[i];

		pthread_join(rd->thread, NULL);
		p->reader_scans += rd->scans;
		p->readers_repeatable += rd->repeatable;
		if (rd->failed && !r->failed) {
			r->failed = true;
			snprintf(r->failure, sizeof(r->failure), "phase active-readers: a reader: %s", rd->failure);
		}
	}
}

/*
 * Opens phase p's idle connections (its ARG), each named TIMELINE_POOL_NAME and the run's
 * pid, until the phase's planned end (until_ns, clock_now_ns) at the latest, counting those
 * the server refused (the first refusal said on stderr), then counts the sessions of that
 * name the server shows.
 */
static void open_pool(struct timeline_runner *r, struct timeline_phase *p, int64_t until_ns)
{
	const struct backend_ops *db = r->s->db;
	char sql[256], err[256], first_refusal[256] = "";

	p->pool_held = p->pool_refused = 0;
	snprintf(sql, sizeof(sql), db->sql->timeline->reader_name, TIMELINE_POOL_NAME, (int)getpid());
	for (int i = 0; i < (int)p->arg && !run_stopping(&r->s->gate) && !atomic_load(&r->quit) &&
			clock_now_ns() < until_ns; i++) {
		struct db_conn **conn = &r->pool[p->pool_held];

		if (db->connect(r->s->server_target, &r->s->cfg->db_opts, conn, err, sizeof(err)) < 0) {
			if (!p->pool_refused++)
				snprintf(first_refusal, sizeof(first_refusal), "%s", err);
			continue;
		}
		if (db->exec(*conn, sql) < 0) {
			fail(r, "pool-exhaustion: naming a connection", *conn);
			db->disconnect(*conn);
			*conn = NULL;
			break;
		}
		p->pool_held++;
	}
	if (p->pool_refused)
		fprintf(stderr, "claimbench: phase %s: the server refused %lld of its %d connections (the first: %s)\n",
			p->name, (long long)p->pool_refused, (int)p->arg, first_refusal);
	snprintf(sql, sizeof(sql), db->sql->timeline->sessions_named, TIMELINE_POOL_NAME, (int)getpid());
	if (db->query(r->holder, sql, first_column, &p->pool_seen) < 0)
		fail(r, "pool-exhaustion: counting its sessions", r->holder);
}

/* Closes the idle connections phase p held. */
static void close_pool(struct timeline_runner *r, const struct timeline_phase *p)
{
	for (int64_t i = 0; i < p->pool_held; i++) {
		r->s->db->disconnect(r->pool[i]);
		r->pool[i] = NULL;
	}
}

/*
 * Puts phase p's pressure on the server (nothing for a phase without one) and records its
 * start: once the pressure is in place, or, for a vacuum and a pool-exhaustion, as its VACUUM
 * or its first connection begins (the vacuum, the opening of the pool are part of the phase).
 * Its readers started in *readers; until_ns its planned end (clock_now_ns).
 */
static void begin_phase(struct timeline_runner *r, struct timeline_phase *p, int64_t until_ns, int *readers)
{
	const struct backend_ops *db = r->s->db;
	char sql[256];

	*readers = 0;
	p->start_ns = clock_now_ns() - r->s->gate.start_ns;
	switch (p->kind) {
	case TIMELINE_IDLE_IN_TX:
	case TIMELINE_LONG_WRITER:
		if (db->exec(r->holder, "BEGIN") < 0 || db->query(r->holder, db->sql->timeline->take_xid, first_column,
								    &p->xid) < 0)
			fail(r, p->kind == TIMELINE_IDLE_IN_TX ? "idle-in-tx: taking an XID" : "long-writer: taking an XID",
			     r->holder);
		p->writer_rows = p->kind == TIMELINE_LONG_WRITER ? 0 : TIMELINE_UNKNOWN;
		break;
	case TIMELINE_HELD_SNAPSHOT:
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", r->s->jobs_table);
		if (db->exec(r->holder, db->sql->snapshot_begin) < 0 || db->exec(r->holder, sql) < 0)
			fail(r, "held-snapshot: holding a snapshot", r->holder);
		break;
	case TIMELINE_ACTIVE_READERS:
		start_readers(r, p, (int)p->arg, readers);
		break;
	case TIMELINE_VACUUM:
		snprintf(sql, sizeof(sql), db->sql->vacuum, r->s->jobs_table);
		if (db->exec(r->holder, sql) < 0)
			fail(r, "vacuum: vacuuming the queue table", r->holder);
		break;
	case TIMELINE_POOL_EXHAUSTION:
		open_pool(r, p, until_ns);
		break;
	default:
		break;
	}
	if (p->kind != TIMELINE_VACUUM && p->kind != TIMELINE_POOL_EXHAUSTION)
		p->start_ns = clock_now_ns() - r->s->gate.start_ns;
}

/*
 * Waits until until_ns (clock_now_ns) as run_sleep_until does, writing the long-writer's
 * table every WRITER_EVERY_NS in the transaction phase p began (nothing once the runner
 * failed), its rows counted. Whether the run goes on.
 */
static bool keep_writing(struct timeline_runner *r, struct timeline_phase *p, int64_t until_ns)
{
	const struct backend_ops *db = r->s->db;
	char sql[256];
	int64_t next;

	snprintf(sql, sizeof(sql), db->sql->timeline->writer_insert, r->s->writer_table);
	for (;;) {
		if (!r->failed) {
			if (db->exec(r->holder, sql) < 0)
				fail(r, "long-writer: writing its table", r->holder);
			else
				p->writer_rows++;
		}
		next = clock_now_ns() + WRITER_EVERY_NS;
		if (next >= until_ns)
			return run_sleep_until(&r->s->gate, until_ns, &r->quit);
		if (!run_sleep_until(&r->s->gate, next, &r->quit))
			return false;
	}
}

/*
 * Releases what phase p holds on the server; its readers numbered readers. The holder's
 * transaction must have lasted the phase: the same XID still its own (idle-in-tx,
 * long-writer), a statement still answered inside it (held-snapshot: inside a transaction,
 * where the engine tells), and its ROLLBACK
 * (a long-writer's COMMIT) done; else the server ended it early
 * (idle_in_transaction_session_timeout, a terminated backend) and the phase failed.
 */
static void end_phase(struct timeline_runner *r, struct timeline_phase *p, int readers)
{
	const struct backend_ops *db = r->s->db;
	bool holds_xid = p->kind == TIMELINE_IDLE_IN_TX || p->kind == TIMELINE_LONG_WRITER;
	bool holds = holds_xid || p->kind == TIMELINE_HELD_SNAPSHOT;
	int64_t xid = -1;
	char what[80];

	snprintf(what, sizeof(what), "%s: its transaction did not last the phase", p->name);
	if (!r->failed && holds && db->query(r->holder, db->sql->timeline->xid_now, first_column, &xid) < 0)
		fail(r, what, r->holder);
	else if (!r->failed && holds && ((holds_xid && xid != p->xid) || xid < 0)) {
		r->failed = true;
		if (xid < 0)
			snprintf(r->failure, sizeof(r->failure), "phase %s (no transaction open when it ended)", what);
		else
			snprintf(r->failure, sizeof(r->failure), "phase %s (XID %lld when it ended, %lld taken)", what,
				 (long long)xid, (long long)p->xid);
	}
	if (p->kind == TIMELINE_LONG_WRITER) {
		if (db->exec(r->holder, r->failed ? "ROLLBACK" : "COMMIT") < 0)
			fail(r, "long-writer: committing its transaction", r->holder);
	} else if (p->kind == TIMELINE_IDLE_IN_TX || p->kind == TIMELINE_HELD_SNAPSHOT) {
		if (db->exec(r->holder, "ROLLBACK") < 0)
			fail(r, p->kind == TIMELINE_IDLE_IN_TX ? "idle-in-tx: ending its transaction"
							       : "held-snapshot: ending its transaction", r->holder);
	} else if (p->kind == TIMELINE_ACTIVE_READERS) {
		stop_readers(r, p, readers);
	} else if (p->kind == TIMELINE_POOL_EXHAUSTION) {
		close_pool(r, p);
	}
}

/*
 * The thread: from the start gate, each phase in turn until its planned end (the sum of
 * the durations before it and its own), or until the run's threads finish or a stop; a
 * fault phase lasts at least until the monitor has struck the faults due at its start
 * (a phase begun after its planned end, the one before having overrun, is not skipped).
 */
static void *timeline_main(void *arg)
{
	struct timeline_runner *r = arg;
	const struct timeline *tl = &r->s->cfg->timeline;
	int64_t at;
	bool on = true;

	run_wait_gate(&r->s->gate);
	at = r->s->gate.start_ns;
	for (size_t i = 0; i < r->n_phases && on; i++) {
		struct timeline_phase *p = &r->phases[i];
		int readers;

		long due;

		at += (int64_t)(tl->steps[i].duration_s * 1e9);
		begin_phase(r, p, at, &readers);
		atomic_store(&r->phase_now, (int)i + 1);
		on = p->kind == TIMELINE_LONG_WRITER ? keep_writing(r, p, at) : run_sleep_until(&r->s->gate, at, &r->quit);
		due = timeline_faults_due(&tl->steps[i], r->s->workers, 0);
		while (on && atomic_load(&r->phase_faults[i]) < due)
			on = run_sleep_until(&r->s->gate, clock_now_ns() + FAULTS_STRUCK_POLL_NS, &r->quit);
		/* The monitor, once it sees no phase, strikes nothing more in this one. */
		atomic_store(&r->phase_now, 0);
		while (atomic_load(&r->striking) == (int)i + 1)
			clock_sleep_ns(FAULTS_STRUCK_POLL_NS);
		end_phase(r, p, readers);
		p->end_ns = clock_now_ns() - r->s->gate.start_ns;
		r->n_begun = i + 1;
		if (atomic_load(&r->phase_faults[i]) < due && !run_stopping(&r->s->gate) && !r->failed) {
			r->failed = true;
			snprintf(r->failure, sizeof(r->failure), "phase %s: %ld of the %ld faults due at its start were "
				 "struck before the run's end", p->name, atomic_load(&r->phase_faults[i]), due);
		}
	}
	if (r->n_begun < r->n_phases && !run_stopping(&r->s->gate) && !r->failed) {
		r->failed = true;
		snprintf(r->failure, sizeof(r->failure), "phase %s and the %zu after it never began: the phases before "
			 "it ran past the run's planned end", r->phases[r->n_begun].name, r->n_phases - r->n_begun - 1);
	}
	atomic_store(&r->saw_stop, true);
	return NULL;
}

int timeline_start(struct timeline_runner *r)
{
	if (!r->n_phases)
		return 0;
	if (pthread_create(&r->thread, NULL, timeline_main, r) != 0)
		return -1;
	r->started = true;
	return 0;
}

void timeline_join(struct timeline_runner *r)
{
	if (!r->started)
		return;
	atomic_store(&r->quit, true);
	pthread_join(r->thread, NULL);
	r->started = false;
}

void timeline_close(struct timeline_runner *r)
{
	session_close(r->s->db, &r->holder, false);
	for (int i = 0; i < r->n_readers; i++)
		session_close(r->s->db, &r->readers[i].conn, false);
	free(r->pool);
	r->pool = NULL;
}
