#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/final_state.h"
#include "adapter/server_faults.h"
#include "base/clock.h"
#include "engine/signals.h"
#include "model/result.h"

/* The most of the adapter's sessions a kill chooses among. */
#define MAX_SESSIONS 1024

/* How long a killed backend may take to go before the kill is said to have failed. */
#define KILL_WAIT_NS 5000000000LL

void adapter_faults_init(struct adapter_faults *f, const struct run_plan *plan, const char *label, const char *queue,
			 struct ledger *own)
{
	*f = (struct adapter_faults){ .plan = plan, .label = label, .queue = queue, .own = own };
	fault_clock_init(&f->restarts, &plan->cfg->faults.when[FAULT_RESTART]);
	fault_clock_init(&f->kills, &plan->cfg->faults.when[FAULT_KILL_BACKEND]);
}

/* A restart's stopping test, which knows nothing of the run: whether a signal stops it. */
static bool interrupted(const void *run)
{
	(void)run;
	return signals_interrupted();
}

/* Restarts the server at at_ns, noting the fault with how long until it took connections. 0, or -1 with f->failed. */
static int restart(struct adapter_faults *f, int64_t at_ns)
{
	const struct server_restart *how = &f->plan->restart;
	struct fault_record r = { .at_ns = at_ns, .kind = FAULT_RESTART, .worker = -1 };
	int64_t began = clock_now_ns();
	char why[300];

	if (!how->fn || how->fn(how->ctx, interrupted, NULL, why, sizeof(why)) < 0) {
		snprintf(f->failed, sizeof(f->failed), "restarting the server: %s", how->fn ? why : "it cannot be done");
		return -1;
	}
	r.duration_ns = clock_now_ns() - began;
	ledger_add_fault(f->own, &r);
	fprintf(stderr, "claimbench: %s: the server restarted at %.2f s (%.0f ms until it took connections): every "
		"replica's connections were cut\n", f->label, (double)at_ns / 1e9, (double)r.duration_ns / 1e6);
	return 0;
}

/* The adapter's sessions' process ids, as query_text hands them. */
struct sessions {
	long pids[MAX_SESSIONS];	/* the pids, in order */
	size_t n;			/* entries used */
};

/* Notes whether a row's first column is true ("t") into the bool at ctx. 0. */
static int store_true(void *ctx, const char *const *cols, int ncols)
{
	*(bool *)ctx = ncols >= 1 && cols[0] && strcmp(cols[0], "t") == 0;
	return 0;
}

/* Keeps one session's pid. 0. */
static int keep_pid(void *ctx, const char *const *cols, int ncols)
{
	struct sessions *s = ctx;

	if (ncols >= 1 && cols[0] && s->n < MAX_SESSIONS)
		s->pids[s->n++] = strtol(cols[0], NULL, 10);
	return 0;
}

/*
 * Terminates one of the adapter's sessions, drawn from the seed, and waits until it has gone,
 * noting the fault at at_ns, lasting until it had gone (which seat's session it was is not
 * known: the fault's worker is -1). 1 when it struck, 0 when no session is there yet (or the
 * one drawn ended by itself first), -1 with f->failed.
 */
static int kill_backend(struct adapter_faults *f, int64_t at_ns)
{
	const struct run_plan *plan = f->plan;
	const char *params[1] = { f->queue };
	struct fault_record r = { .at_ns = at_ns, .kind = FAULT_KILL_BACKEND, .worker = -1 };
	int64_t began = clock_now_ns();
	struct sessions s = { .n = 0 };
	bool eligible[MAX_SESSIONS], terminated = false;
	char why[512], pid[32];
	const char *pid_param[1] = { pid };
	struct db_conn *conn = adapter_connect(plan->db, plan->target, &plan->cfg->db_opts, why, sizeof(why));
	int rc = -1, pick;

	if (!conn) {
		snprintf(f->failed, sizeof(f->failed), "killing a backend: %.360s", why);
		return -1;
	}
	if (plan->db->query_text(conn, "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = "
			         "current_database() ORDER BY pid", 1, params, keep_pid, &s) < 0)
		goto out_failed;
	if (!s.n) {
		rc = 0;
		goto out;
	}
	for (size_t i = 0; i < s.n; i++)
		eligible[i] = true;
	pick = fault_pick(plan->cfg->seed, FAULT_KILL_BACKEND, f->kills.next, eligible, s.n);
	snprintf(pid, sizeof(pid), "%ld", s.pids[pick < 0 ? 0 : pick]);
	if (plan->db->query_text(conn, "SELECT pg_terminate_backend($1::int)", 1, pid_param, store_true, &terminated) < 0)
		goto out_failed;
	if (!terminated) {	/* it ended by itself since it was listed: another is looked for */
		rc = 0;
		goto out;
	}
	for (int64_t deadline = clock_now_ns() + KILL_WAIT_NS;;) {
		struct sessions left = { .n = 0 };

		if (plan->db->query_text(conn, "SELECT pid FROM pg_stat_activity WHERE pid = $1::int", 1, pid_param,
					 keep_pid, &left) < 0)
			goto out_failed;
		if (!left.n)
			break;
		if (clock_now_ns() > deadline) {
			snprintf(f->failed, sizeof(f->failed), "killing backend %s: it was still there after %lld s", pid,
				 KILL_WAIT_NS / 1000000000LL);
			goto out;
		}
		clock_sleep_ns(1000000);
	}
	r.duration_ns = clock_now_ns() - began; /* it struck somewhere in there: the session went at its end */
	ledger_add_fault(f->own, &r);
	fprintf(stderr, "claimbench: %s: killed backend %s, one of the adapter's %zu sessions, at %.2f s\n", f->label, pid,
		s.n, (double)at_ns / 1e9);
	rc = 1;
	goto out;
out_failed:
	snprintf(f->failed, sizeof(f->failed), "killing a backend: %s", plan->db->error_message(conn));
out:
	plan->db->disconnect(conn);
	return rc;
}

int adapter_faults_strike(struct adapter_faults *f, int64_t now_ns)
{
	double elapsed_s = (double)now_ns / 1e9;

	if (fault_clock_due(&f->restarts, elapsed_s)) {
		f->restarts.next++;
		if (restart(f, now_ns) < 0)
			return -1;
	}
	if (fault_clock_due(&f->kills, elapsed_s) && now_ns >= f->next_kill_look_ns) {
		int struck = kill_backend(f, now_ns);

		if (struck < 0)
			return -1;
		f->kills.next += (size_t)struck;
		if (!struck)
			f->next_kill_look_ns = now_ns + ADAPTER_KILL_LOOK_NS;
	}
	return 0;
}
