/*
 * claimbench's reference adapter (contract version 1, docs/adapters.md): claimbench's own
 * skip-locked claim in hold mode, run as an outside queue system would be. It keeps its jobs
 * in a table of its own ({queue}_jobs), takes claimbench's enqueues on standard input, and
 * reports every execution on standard output (a completion that fails, its connection cut by a
 * restart, as lost: its outcome unknown). With --no-lock it claims without a lock (a
 * plain SELECT, then a status flip), the deliberately broken adapter of the tests; with
 * --unreported-claim its worker 0 makes one claim it never reports (it flips the job active,
 * commits, and gives it back), the lying adapter that --verify's record must catch.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* What every worker thread shares. */
struct adapter {
	const char *conninfo;		/* DATABASE_URL */
	char table[256];		/* its jobs table, quoted: "{queue}_jobs" */
	int workers;			/* WORKER_COUNT */
	int empty_wait_ms;		/* CLAIMBENCH_EMPTY_WAIT_MS: the pause after an empty claim */
	bool no_lock;			/* --no-lock: claim without a lock (broken on purpose) */
	bool unreported_claim;		/* --unreported-claim: worker 0 makes one claim no line reports (a lie on purpose) */
	atomic_bool stop;		/* set by stop or the end of standard input: the workers end */
};

/* One worker thread. */
struct worker {
	struct adapter *a;		/* the adapter */
	int index;			/* 0 to workers-1, as its lines say */
	bool lied;			/* it made its unreported claim */
	pthread_t thread;		/* its thread */
};

/* The wall clock in microseconds: the adapter's own time on each line. */
static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Writes one contract line whole, in one write, so that the threads' lines never mix. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(line) - 1)
		return;
	line[n++] = '\n';
	if (write(STDOUT_FILENO, line, (size_t)n) < 0)
		exit(1);
}

/* Runs sql on conn, expecting status; prints the error on stderr. 0, or -1. */
static int exec_ok(PGconn *conn, const char *sql, ExecStatusType status)
{
	PGresult *res = PQexec(conn, sql);
	int rc = PQresultStatus(res) == status ? 0 : -1;

	if (rc < 0)
		fprintf(stderr, "reference adapter: %s: %s", sql, PQerrorMessage(conn));
	PQclear(res);
	return rc;
}

/* A new connection to a's database, or NULL (said on stderr). */
static PGconn *connect_db(const struct adapter *a)
{
	PGconn *conn = PQconnectdb(a->conninfo);

	if (PQstatus(conn) == CONNECTION_OK)
		return conn;
	fprintf(stderr, "reference adapter: cannot connect: %s", PQerrorMessage(conn));
	PQfinish(conn);
	return NULL;
}

/* Sleeps us microseconds. */
static void sleep_us(long long us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Runs sql (a format of the table's name) with the first n of params on conn. 0, or -1 (said as an error line). */
static int exec_params(struct worker *w, PGconn *conn, const char *fmt, int n, const char *const *params)
{
	char sql[512];
	PGresult *res;
	int rc;

	snprintf(sql, sizeof(sql), fmt, w->a->table);
	res = PQexecParams(conn, sql, n, NULL, params, NULL, NULL, 0);
	rc = PQresultStatus(res) == PGRES_COMMAND_OK ? 0 : -1;
	if (rc < 0)
		say("error %d unreported claim: %s", w->index, strtok(PQerrorMessage(conn), "\n"));
	PQclear(res);
	return rc;
}

/*
 * --unreported-claim: the job the open transaction on conn locked (params: its id, attempt
 * and the worker) flipped active and committed, then given back new, and no line said so. 0
 * (no job run), or -1 on an error.
 */
static int claim_unreported(struct worker *w, PGconn *conn, const char *const *params)
{
	if (exec_params(w, conn, "UPDATE %s SET status = 'active', attempts = $2, claimed_by = $3 WHERE id = $1", 3,
			params) < 0 ||
	    exec_ok(conn, "COMMIT", PGRES_COMMAND_OK) < 0) {
		exec_ok(conn, "ROLLBACK", PGRES_COMMAND_OK);
		return -1;
	}
	return exec_params(w, conn, "UPDATE %s SET status = 'new', claimed_by = NULL WHERE id = $1", 1, params);
}

/*
 * One claim, work and completion. Skip-locked: in one transaction, the lock held through
 * the work (claimbench's skip-locked in hold mode). No lock: the status flipped to active
 * in the claim's own transaction, then the work, then done. 1 a job was run, 0 none was
 * there, -1 on an error (said as an error line).
 */
static int run_one_job(struct worker *w, PGconn *conn)
{
	const struct adapter *a = w->a;
	char sql[512], id_text[32], attempt_text[32], worker_text[16];
	const char *params[3] = { id_text, attempt_text, worker_text };
	long long id, work_us, attempt;
	PGresult *res;
	int rc = -1;

	if (exec_ok(conn, "BEGIN", PGRES_COMMAND_OK) < 0)
		return -1;
	snprintf(sql, sizeof(sql), "SELECT id, work_us, attempts + 1 FROM %s WHERE status = 'new' ORDER BY id LIMIT 1%s",
		 a->table, a->no_lock ? "" : " FOR UPDATE SKIP LOCKED");
	res = PQexec(conn, sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		say("error %d claim: %s", w->index, strtok(PQerrorMessage(conn), "\n"));
		goto out_rollback;
	}
	if (PQntuples(res) == 0) {
		PQclear(res);
		return exec_ok(conn, "COMMIT", PGRES_COMMAND_OK) < 0 ? -1 : 0;
	}
	id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	work_us = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
	attempt = strtoll(PQgetvalue(res, 0, 2), NULL, 10);
	PQclear(res);
	snprintf(id_text, sizeof(id_text), "%lld", id);
	snprintf(attempt_text, sizeof(attempt_text), "%lld", attempt);
	snprintf(worker_text, sizeof(worker_text), "%d", w->index);
	if (a->unreported_claim && w->index == 0 && !w->lied) {
		w->lied = true;
		return claim_unreported(w, conn, params);
	}
	if (a->no_lock) {
		snprintf(sql, sizeof(sql), "UPDATE %s SET status = 'active', attempts = $2, claimed_by = $3 WHERE id = $1",
			 a->table);
		res = PQexecParams(conn, sql, 3, NULL, params, NULL, NULL, 0);
		if (PQresultStatus(res) != PGRES_COMMAND_OK || exec_ok(conn, "COMMIT", PGRES_COMMAND_OK) < 0) {
			say("error %d flip: %s", w->index, strtok(PQerrorMessage(conn), "\n"));
			goto out_rollback;
		}
		PQclear(res);
	}
	say("claimed %lld %lld %d %lld", id, attempt, w->index, now_us());
	say("started %lld %lld %d %lld", id, attempt, w->index, now_us());
	sleep_us(work_us);
	snprintf(sql, sizeof(sql), "UPDATE %s SET status = 'done', attempts = $2, claimed_by = $3 WHERE id = $1",
		 a->table);
	res = PQexecParams(conn, sql, 3, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_COMMAND_OK ||
	    (!a->no_lock && exec_ok(conn, "COMMIT", PGRES_COMMAND_OK) < 0)) {
		/* every failure here ends the worker's hold (the claim is its transaction, rolled back
		 * below); only a cut connection leaves the COMMIT's outcome unknown, but lost is the
		 * contract's one line for a hold that ended without a completion */
		say("error %d complete: %s", w->index, strtok(PQerrorMessage(conn), "\n"));
		say("lost %lld %lld %d %lld", id, attempt, w->index, now_us());
		goto out_rollback;
	}
	PQclear(res);
	say("finished %lld %lld %d %lld", id, attempt, w->index, now_us());
	return 1;
out_rollback:
	PQclear(res);
	exec_ok(conn, "ROLLBACK", PGRES_COMMAND_OK);
	return rc;
}

/* A worker thread: claims until the stop, pausing after an empty claim. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	PGconn *conn = connect_db(w->a);

	if (!conn) {
		say("error %d cannot connect", w->index);
		return NULL;
	}
	while (!atomic_load(&w->a->stop)) {
		int got = run_one_job(w, conn);

		if (got <= 0)
			sleep_us((long long)w->a->empty_wait_ms * 1000);
		if (got < 0 && PQstatus(conn) != CONNECTION_OK) {
			PQreset(conn);
			if (PQstatus(conn) != CONNECTION_OK)
				sleep_us(50000); /* the server is away (a restart): try again shortly */
		}
	}
	PQfinish(conn);
	return NULL;
}

/* Creates a's jobs table. 0, or -1. */
static int create_table(PGconn *conn, const struct adapter *a)
{
	char sql[512];

	snprintf(sql, sizeof(sql), "CREATE TABLE %s (id bigint PRIMARY KEY, status text NOT NULL DEFAULT 'new', "
		 "work_us bigint NOT NULL, attempts int NOT NULL DEFAULT 0, claimed_by int)", a->table);
	return exec_ok(conn, sql, PGRES_COMMAND_OK);
}

/*
 * Reads claimbench's commands until start: each enqueue is a row of a COPY, flush ends it
 * and says enqueued N. 1 on start, 0 on stop or the end of input, -1 on an error.
 */
static int take_enqueues(PGconn *conn, const struct adapter *a)
{
	char line[256], sql[512];
	long long enqueued = 0;
	bool copying = false;

	while (fgets(line, sizeof(line), stdin)) {
		long long id, work_us;

		if (sscanf(line, "enqueue %lld %lld", &id, &work_us) == 2) {
			char row[64];
			int n = snprintf(row, sizeof(row), "%lld\t%lld\n", id, work_us);

			if (!copying) {
				snprintf(sql, sizeof(sql), "COPY %s (id, work_us) FROM STDIN", a->table);
				if (exec_ok(conn, sql, PGRES_COPY_IN) < 0)
					return -1;
				copying = true;
			}
			if (PQputCopyData(conn, row, n) != 1)
				return -1;
			enqueued++;
		} else if (strcmp(line, "flush\n") == 0) {
			PGresult *res;

			if (copying) {
				if (PQputCopyEnd(conn, NULL) != 1)
					return -1;
				res = PQgetResult(conn);
				if (PQresultStatus(res) != PGRES_COMMAND_OK) {
					fprintf(stderr, "reference adapter: COPY: %s", PQerrorMessage(conn));
					PQclear(res);
					return -1;
				}
				PQclear(res);
				copying = false;
			}
			say("enqueued %lld", enqueued);
		} else if (strcmp(line, "start\n") == 0) {
			return 1;
		} else if (strcmp(line, "stop\n") == 0) {
			return 0;
		}
	}
	return 0;
}

/* Waits for stop or the end of standard input. */
static void wait_stop(void)
{
	char line[256];

	while (fgets(line, sizeof(line), stdin))
		if (strcmp(line, "stop\n") == 0)
			return;
}

int main(int argc, char **argv)
{
	const char *queue = getenv("CLAIMBENCH_QUEUE"), *workers = getenv("WORKER_COUNT"),
		   *wait = getenv("CLAIMBENCH_EMPTY_WAIT_MS"), *replica = getenv("CLAIMBENCH_REPLICA");
	struct adapter a = { .conninfo = getenv("DATABASE_URL") };
	struct worker *w = NULL;
	PGconn *conn = NULL;
	int started = 0, status = 1, go;

	atomic_init(&a.stop, false);
	for (int i = 1; i < argc; i++) {
		a.no_lock |= strcmp(argv[i], "--no-lock") == 0;
		a.unreported_claim |= strcmp(argv[i], "--unreported-claim") == 0;
	}
	if (!a.conninfo || !queue || !workers || atoi(workers) < 1) {
		fprintf(stderr, "reference adapter: expected DATABASE_URL, CLAIMBENCH_QUEUE and WORKER_COUNT (claimbench "
			"sets them)\n");
		return 2;
	}
	a.workers = atoi(workers);
	a.empty_wait_ms = wait ? atoi(wait) : 5;
	snprintf(a.table, sizeof(a.table), "\"%s_jobs\"", queue);
	if (!(conn = connect_db(&a)))
		goto out;
	if ((!replica || strcmp(replica, "0") == 0) && create_table(conn, &a) < 0)
		goto out;
	say("ready");
	go = take_enqueues(conn, &a);
	if (go < 0)
		goto out;
	if (go == 1) {
		if (!(w = calloc((size_t)a.workers, sizeof(*w))))
			goto out;
		for (; started < a.workers; started++) {
			w[started] = (struct worker){ .a = &a, .index = started };
			if (pthread_create(&w[started].thread, NULL, worker_main, &w[started]) != 0)
				break;
		}
		wait_stop();
	}
	atomic_store(&a.stop, true);
	for (int i = 0; i < started; i++)
		pthread_join(w[i].thread, NULL);
	say("stopped");
	status = 0;
out:
	free(w);
	PQfinish(conn);
	return status;
}
