#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adapter/adapter_audit.h"
#include "adapter/adapter_run.h"
#include "adapter/adapter_verify.h"
#include "adapter/final_state.h"
#include "adapter/manifest.h"
#include "adapter/replica.h"
#include "adapter/run_marker.h"
#include "adapter/server_faults.h"
#include "base/clock.h"
#include "db/leftovers.h"
#include "db/run_as.h"
#include "engine/run_plan.h"
#include "engine/signals.h"
#include "measure/ledger_table.h"
#include "measure/metrics.h"
#include "measure/metrics_input.h"
#include "measure/series.h"
#include "measure/verify.h"
#include "model/faults.h"
#include "model/run_descriptor.h"

extern char **environ;

/* The most arguments a manifest's args may have. */
#define ADAPTER_MAX_ARGS 16

/* The entries claimbench adds to a replica's environment. */
#define ADAPTER_ENV_VARS 12

/* The poll of the monitor and of the waits for a replica's answer. */
#define ADAPTER_POLL_NS 2000000

/* How long the lines must have been quiet, and the least time between reads, before the table is read during a drain. */
#define ADAPTER_TABLE_POLL_NS 500000000

/* Everything one adapter run holds. */
struct adapter_session {
	const struct run_plan *plan;			/* the invocation's plan */
	const struct adapter_manifest *m;		/* the adapter */
	char label[256];				/* the run's label on stderr */
	char queue[128];				/* the run's queue name: CLAIMBENCH_QUEUE, {queue} in the manifest */
	char program[4096];				/* what is executed: the runtime or the command */
	char command[4096];				/* the adapter's command, its path */
	char args_buf[256];				/* the manifest's args, split in place */
	char *argv[ADAPTER_MAX_ARGS + 3];		/* program's arguments */
	char **env;					/* the replicas' environment (its own entries below, the rest
							 * environ's) */
	char vars[ADAPTER_ENV_VARS][4352];		/* claimbench's entries of env */
	char scratch[PATH_MAX];				/* the run's scratch folder (CLAIMBENCH_SCRATCH); "": none made */
	struct replica_run run;				/* what the replicas share */
	struct replica *replicas;			/* cfg->replicas of them */
	int n_replicas;					/* entries of replicas */
	int started;					/* replicas whose process started */
	struct ledger own;				/* the run's own entries: the faults it injected */
	struct adapter_audit audit;			/* --verify's record of the state table; not installed: none */
	bool silent;					/* the watchdog stopped it: no line for adapter_silence_ms */
	struct adapter_faults faults;			/* --restart-at's and --kill-backend-at's faults */
	bool interrupted;				/* a signal stopped it */
};

/* Whether name=... is one of claimbench's own entries, which env sets anew. */
static bool own_var(const char *entry)
{
	static const char *const names[] = { "CLAIMBENCH_CONTRACT=", "CLAIMBENCH_ADAPTER=", "CLAIMBENCH_ADAPTER_DIR=",
					     "DATABASE_URL=", "CLAIMBENCH_QUEUE=", "WORKER_COUNT=",
					     "CLAIMBENCH_REPLICAS=", "CLAIMBENCH_EMPTY_WAIT_MS=", "CLAIMBENCH_SERVER=",
					     "CLAIMBENCH_REPLICA=", "CLAIMBENCH_SCRATCH=", "PGAPPNAME=" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strncmp(entry, names[i], strlen(names[i])) == 0)
			return true;
	return false;
}

/*
 * Makes the run's scratch folder, ADAPTER_SCRATCH_PREFIX-XXXXXX under $TMPDIR (or /tmp),
 * with this process's owner note, for the adapter's own files. 0, or -1 with err (no folder).
 */
static int make_scratch(struct adapter_session *a, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(a->scratch, sizeof(a->scratch), "%s/%sXXXXXX", tmp && *tmp ? tmp : "/tmp", ADAPTER_SCRATCH_PREFIX);
	if (!mkdtemp(a->scratch)) {
		snprintf(err, errlen, "adapter %s: cannot make its scratch folder %s: %s", a->m->name, a->scratch,
			 strerror(errno));
		a->scratch[0] = '\0';
		return -1;
	}
	if (leftovers_mark(a->scratch, err, errlen) < 0) {
		rmdir(a->scratch);
		a->scratch[0] = '\0';
		return -1;
	}
	return 0;
}

/* Removes the run's scratch folder and all the adapter left in it, once its replicas are stopped. */
static void remove_scratch(const struct adapter_session *a)
{
	const struct run_as self = { .drop = false };

	if (*a->scratch && leftovers_remove(a->scratch, &self) < 0)
		fprintf(stderr, "claimbench: %s: the adapter's scratch folder %s would not go\n", a->label, a->scratch);
}

/* Builds the program, its arguments and its environment. 0, or -1 with err. */
static int prepare_exec(struct adapter_session *a, int workers, char *err, size_t errlen)
{
	const struct adapter_manifest *m = a->m;
	const struct run_config *cfg = a->plan->cfg;
	size_t n_env = 0, argc = 0;
	char *save = NULL;

	if (*m->runtime && adapter_runtime_path(m, a->program, sizeof(a->program)) < 0) {
		snprintf(err, errlen, "adapter %s: its runtime \"%s\" is not %s (it needs: %s)", m->name, m->runtime,
			 strchr(m->runtime, '/') ? "there" : "on PATH", *m->needs ? m->needs : m->runtime);
		return -1;
	}
	if (adapter_command_path(m, a->command, sizeof(a->command)) < 0) {
		snprintf(err, errlen, "adapter %s: its command \"%s\" is neither in %s nor among the built adapters "
			 "(make all builds claimbench's own; it needs: %s)", m->name, m->command, m->dir,
			 *m->needs ? m->needs : "nothing more");
		return -1;
	}
	if (!adapter_installed(m)) {
		snprintf(err, errlen, "adapter %s: it is not installed: no %s in %s (it needs: %s; make adapters)", m->name,
			 m->requires, m->dir, *m->needs ? m->needs : m->requires);
		return -1;
	}
	if (!*m->runtime)
		snprintf(a->program, sizeof(a->program), "%s", a->command);
	a->argv[argc++] = a->program;
	if (*m->runtime)
		a->argv[argc++] = a->command;
	snprintf(a->args_buf, sizeof(a->args_buf), "%s", m->args);
	for (char *arg = strtok_r(a->args_buf, " ", &save); arg && argc < ADAPTER_MAX_ARGS + 2;
	     arg = strtok_r(NULL, " ", &save))
		a->argv[argc++] = arg;
	a->argv[argc] = NULL;
	for (char **e = environ; *e; e++)
		n_env++;
	a->env = calloc(n_env + ADAPTER_ENV_VARS + 1, sizeof(*a->env));
	if (!a->env) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	n_env = 0;
	for (char **e = environ; *e; e++)
		if (!own_var(*e))
			a->env[n_env++] = *e;
	snprintf(a->vars[0], sizeof(a->vars[0]), "CLAIMBENCH_CONTRACT=%d", ADAPTER_CONTRACT_VERSION);
	snprintf(a->vars[1], sizeof(a->vars[1]), "CLAIMBENCH_ADAPTER=%s", m->name);
	snprintf(a->vars[2], sizeof(a->vars[2]), "CLAIMBENCH_ADAPTER_DIR=%s", m->dir);
	snprintf(a->vars[3], sizeof(a->vars[3]), "DATABASE_URL=%s", a->plan->target);
	snprintf(a->vars[4], sizeof(a->vars[4]), "CLAIMBENCH_QUEUE=%s", a->queue);
	snprintf(a->vars[5], sizeof(a->vars[5]), "WORKER_COUNT=%d", workers);
	snprintf(a->vars[6], sizeof(a->vars[6]), "CLAIMBENCH_REPLICAS=%d", cfg->replicas);
	snprintf(a->vars[7], sizeof(a->vars[7]), "CLAIMBENCH_EMPTY_WAIT_MS=%d", cfg->empty_wait_ms);
	snprintf(a->vars[8], sizeof(a->vars[8]), "CLAIMBENCH_SERVER=%s", a->plan->server_gone ? "throwaway" : "given");
	snprintf(a->vars[9], sizeof(a->vars[9]), "CLAIMBENCH_REPLICA=0");
	snprintf(a->vars[10], sizeof(a->vars[10]), "CLAIMBENCH_SCRATCH=%s", a->scratch);
	snprintf(a->vars[11], sizeof(a->vars[11]), "PGAPPNAME=%s", a->queue);
	for (int i = 0; i < ADAPTER_ENV_VARS; i++)
		a->env[n_env++] = a->vars[i];
	a->env[n_env] = NULL;
	a->run.env = a->env;
	a->run.replica_var = a->vars[9];
	a->run.program = a->program;
	a->run.argv = (const char *const *)a->argv;
	return 0;
}

/* The latest line of any replica started, clock_now_ns. */
static int64_t last_line(const struct adapter_session *a)
{
	int64_t last = 0;

	for (int i = 0; i < a->started; i++) {
		int64_t t = atomic_load(&a->replicas[i].last_line_ns);

		if (t > last)
			last = t;
	}
	return last;
}

/* The first replica whose line broke the contract, or NULL. */
static const struct replica *broken_replica(const struct adapter_session *a)
{
	for (int i = 0; i < a->started; i++)
		if (atomic_load(&a->replicas[i].broken))
			return &a->replicas[i];
	return NULL;
}

/*
 * Whether the run must stop now for a reason other than its end: a broken line, a fault
 * that failed, the watchdog (noted in a->silent) or a signal (a->interrupted).
 */
static bool must_stop(struct adapter_session *a)
{
	if (broken_replica(a) || *a->faults.failed)
		return true;
	if (signals_interrupted()) {
		a->interrupted = true;
		return true;
	}
	if (clock_now_ns() - last_line(a) > (int64_t)a->plan->cfg->adapter_silence_ms * 1000000) {
		a->silent = true;
		return true;
	}
	return false;
}

/* Waits until replica r has said ready (what = "ready") or enqueued n. 0, or -1 (the run stops). */
static int wait_answer(struct adapter_session *a, struct replica *r, long enqueued)
{
	for (;;) {
		if (enqueued < 0 ? atomic_load(&r->ready) : atomic_load(&r->enqueued) >= enqueued)
			return 0;
		if (must_stop(a) || atomic_load(&r->ended))
			return -1;
		clock_sleep_ns(ADAPTER_POLL_NS);
	}
}

/* Starts replica i and waits for its ready. 0, or -1 (err set when it could not start). */
static int start_replica(struct adapter_session *a, int i, char *err, size_t errlen)
{
	if (replica_start(&a->replicas[i], err, errlen) < 0)
		return -1;
	a->started = i + 1;
	return wait_answer(a, &a->replicas[i], -1);
}

/* Sends replica 0 an enqueue per job ("enqueue ID WORK_US"), then flush, and waits for enqueued N. 0 or -1. */
static int enqueue_jobs(struct adapter_session *a)
{
	char buf[65536];
	size_t used = 0;
	long n = a->run.n_jobs;

	for (long id = 1; id <= n; id++) {
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "enqueue %ld %lld\n", id,
					 (long long)(a->plan->work_ns[id - 1] / 1000));
		if (used > sizeof(buf) - 64 || id == n) {
			if (replica_send(&a->replicas[0], buf, used) < 0)
				return -1;
			used = 0;
		}
	}
	if (replica_send(&a->replicas[0], "flush\n", 6) < 0)
		return -1;
	return wait_answer(a, &a->replicas[0], n);
}

/* Whether every replica started has ended. */
static bool all_ended(const struct adapter_session *a)
{
	for (int i = 0; i < a->started; i++)
		if (!atomic_load(&a->replicas[i].ended))
			return false;
	return true;
}

/* Kills replica 0 for --crash-replica-at (once it holds a job), noting the fault in the run's own ledger. */
static void crash_replica(struct adapter_session *a, int64_t at_ns)
{
	struct fault_record f = { .at_ns = at_ns, .kind = FAULT_CRASH, .worker = 0 };

	replica_kill(&a->replicas[0]);
	ledger_add_fault(&a->own, &f);
	fprintf(stderr, "claimbench: %s: replica 0 killed (SIGKILL) at %.2f s: its jobs in hand are crashed "
		"executions\n", a->label, (double)at_ns / 1e9);
}

/*
 * --replica-respawn-ms: once killed replica 0's output has ended and the respawn time has
 * passed since (*ended_ns, clock_now_ns, noted when first seen), starts its replacement in
 * its seats, waits for its ready and starts it; *respawned set then. A replacement that
 * cannot start is said on stderr, and the run goes on without it.
 */
static void respawn_replica(struct adapter_session *a, int64_t *ended_ns, bool *respawned)
{
	struct replica *r = &a->replicas[0];
	int64_t at = clock_now_ns(), start = atomic_load(&a->run.start_ns);
	char err[512] = "";

	if (!atomic_load(&r->ended))
		return;
	if (!*ended_ns)
		*ended_ns = at;
	if (at - *ended_ns < (int64_t)a->plan->cfg->replica_respawn_ms * 1000000)
		return;
	*respawned = true;
	replica_reap(r);
	if (replica_respawn(r, a->n_replicas, at - start, err, sizeof(err)) < 0 || wait_answer(a, r, -1) < 0 ||
	    replica_send(r, "start\n", 6) < 0) {
		fprintf(stderr, "claimbench: %s: adapter %s: replica 0's replacement did not start%s%s\n", a->label,
			a->m->name, *err ? ": " : "", err);
		return;
	}
	fprintf(stderr, "claimbench: %s: adapter %s: replica 0 replaced at %.2f s (told it is replica %d), %.0f ms after "
		"its output ended\n", a->label, a->m->name, (double)(clock_now_ns() - start) / 1e9, a->n_replicas,
		(double)(clock_now_ns() - *ended_ns) / 1e6);
}

/* Whether some replica started has ended (died or exited) while the run goes on. */
static bool any_ended(const struct adapter_session *a)
{
	for (int i = 0; i < a->started; i++)
		if (atomic_load(&a->replicas[i].ended))
			return true;
	return false;
}

/*
 * Whether the adapter's table shows every job finished (done or failed), read into final
 * (n_jobs entries): after a replica died, a job whose completion committed without its
 * line is finished all the same, and no line will say so.
 */
static bool table_finished(struct adapter_session *a, struct job_state *final)
{
	char why[1024];

	if (adapter_final_state(a->plan->db, a->plan->target, &a->plan->cfg->db_opts, a->m, a->queue, final,
				a->run.n_jobs, why, sizeof(why)) < 0)
		return false;
	for (long j = 0; j < a->run.n_jobs; j++)
		if (final[j].status != JOB_DONE && final[j].status != JOB_ERROR)
			return false;
	return true;
}

/*
 * Opens the gate (start to every replica) and watches the drain to its end or stop. Once a
 * replica has ended, the table is read each ADAPTER_TABLE_POLL_NS that no line arrived in
 * (into final, n_jobs entries), and the drain ends when it shows every job finished; sets
 * *table_done then.
 */
static void run_replicas(struct adapter_session *a, struct job_state *final, bool *table_done)
{
	const struct run_config *cfg = a->plan->cfg;
	int64_t crash_ns = (int64_t)(cfg->crash_replica_at_s * 1e9);
	int64_t table_read_ns = 0, killed_ended_ns = 0;
	bool crashed = false, respawned = false;

	atomic_store(&a->run.start_ns, clock_now_ns());
	for (int i = 0; i < a->started; i++)
		replica_send(&a->replicas[i], "start\n", 6);
	for (;;) {
		int64_t at = clock_now_ns(), now = at - atomic_load(&a->run.start_ns);
		bool respawn_due = crashed && !respawned && cfg->replica_respawn_ms > 0;

		if (atomic_load(&a->run.distinct_done) >= a->run.n_jobs || (all_ended(a) && !respawn_due) || must_stop(a))
			return;
		if (any_ended(a) && at - last_line(a) >= ADAPTER_TABLE_POLL_NS &&
		    at - table_read_ns >= ADAPTER_TABLE_POLL_NS) {
			table_read_ns = at;
			if ((*table_done = table_finished(a, final)))
				return;
		}
		if (crash_ns > 0 && !crashed && now >= crash_ns && atomic_load(&a->replicas[0].in_hand) > 0) {
			crash_replica(a, now);
			crashed = true;
		}
		if (adapter_faults_strike(&a->faults, now) < 0)
			return;
		if (respawn_due)
			respawn_replica(a, &killed_ended_ns, &respawned);
		clock_sleep_ns(ADAPTER_POLL_NS);
	}
}

/*
 * Stops every replica: "stop" (each gives back what it holds, says stopped and exits),
 * then, after adapter_silence_ms, SIGKILL; reaps them all.
 */
static void stop_replicas(struct adapter_session *a)
{
	int64_t deadline = clock_now_ns() + (int64_t)a->plan->cfg->adapter_silence_ms * 1000000;

	for (int i = 0; i < a->started; i++) {
		replica_send(&a->replicas[i], "stop\n", 5);
		replica_close_input(&a->replicas[i]);
	}
	while (!all_ended(a) && clock_now_ns() < deadline)
		clock_sleep_ns(ADAPTER_POLL_NS);
	for (int i = 0; i < a->started; i++) {
		if (!atomic_load(&a->replicas[i].ended) || broken_replica(a))
			replica_kill(&a->replicas[i]);
		replica_reap(&a->replicas[i]);
	}
}

/* Says on stderr why the run stopped early, and the adapter's clock skew. */
static void report_stop(const struct adapter_session *a, struct run_result *out)
{
	const struct replica *broken = broken_replica(a);
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	if (broken) {
		fprintf(stderr, "claimbench: %s: %s; the run is incomplete\n", a->label, broken->broken_reason);
		out->contract_broken = true;
	} else if (*a->faults.failed) {
		fprintf(stderr, "claimbench: %s: %s; the run is incomplete\n", a->label, a->faults.failed);
	} else if (a->silent)
		fprintf(stderr, "claimbench: %s: adapter %s: the watchdog stopped the run: no line from any replica for %d ms "
			"(--adapter-silence-ms); the run is incomplete\n", a->label, a->m->name, a->plan->cfg->adapter_silence_ms);
	for (int i = 0; i < a->started; i++) {
		const struct replica *r = &a->replicas[i];

		if (r->killed || !WIFEXITED(r->exit_status) || WEXITSTATUS(r->exit_status) == 0 || broken || a->silent)
			continue;
		fprintf(stderr, "claimbench: %s: adapter %s: replica %d exited with status %d\n", a->label, a->m->name, i,
			WEXITSTATUS(r->exit_status));
	}
	if (a->faults.kills.next < a->faults.kills.n && !broken && !*a->faults.failed)
		fprintf(stderr, "claimbench: %s: --kill-backend-at: %zu of %zu kills did not strike: no session of the "
			"adapter's (application_name %s, PGAPPNAME) was there before the run ended\n", a->label,
			a->faults.kills.n - a->faults.kills.next, a->faults.kills.n, a->queue);
	for (int i = 0; i < a->started; i++)
		if (a->replicas[i].crashed)
			fprintf(stderr, "claimbench: %s: adapter %s: replica %d died with %d jobs in hand: crashed executions\n",
				a->label, a->m->name, i, a->replicas[i].crashed);
	for (int i = 0; i < a->started; i++) {
		if (a->replicas[i].skew_min_us < lo)
			lo = a->replicas[i].skew_min_us;
		if (a->replicas[i].skew_max_us > hi)
			hi = a->replicas[i].skew_max_us;
	}
	if (lo <= hi)
		fprintf(stderr, "claimbench: %s: adapter %s: its lines were received %lld to %lld us after its own times\n",
			a->label, a->m->name, (long long)lo, (long long)hi);
}

/*
 * The most claims that may have committed with no line to say so: a seat's for each death of
 * its replica (its output ended without stopped), every seat's for a restart, one for a killed
 * backend (adapter_verify_input.unsaid_claims_max).
 */
static size_t unsaid_claims_max(const struct adapter_session *a)
{
	size_t seats = (size_t)a->n_replicas * (size_t)a->run.workers, most = 0;

	for (int i = 0; i < a->started; i++)
		most += (size_t)a->replicas[i].deaths * (size_t)a->run.workers;
	for (size_t i = 0; i < a->own.n_faults; i++)
		most += a->own.faults[i].kind == FAULT_RESTART ? seats : a->own.faults[i].kind == FAULT_KILL_BACKEND;
	return most;
}

/*
 * --verify: compares the server's record of the state table with merged (out's verify
 * outcome). A stopped run, or one whose record cannot be read (said on stderr), is not
 * verified. 0, or -1 when out of memory.
 */
static int verify(struct adapter_session *a, const struct ledger *merged, const struct job_state *final,
		  struct run_result *out)
{
	struct adapter_event *events = NULL;
	size_t n = 0;
	char why[1024];
	int rc;

	if (adapter_audit_read(&a->audit, a->m, &events, &n, why, sizeof(why)) < 0) {
		fprintf(stderr, "claimbench: %s: %s; the run is not verified\n", a->label, why);
		return 0;
	}
	struct adapter_verify_input v = {
		.events = events,
		.n_events = n,
		.ledger = merged,
		.final = final,
		.n_jobs = (size_t)a->run.n_jobs,
		.hold = a->m->claim_mode == MODE_HOLD,
		.unsaid_claims_max = unsaid_claims_max(a),
	};
	rc = adapter_verify_run(&v, &out->verify);
	if (rc == 0)
		verify_report(&out->verify, a->label, "their lines lost with a replica that died or a connection a fault cut");
	free(events);
	return rc;
}

/*
 * Computes out's figures from the replicas' ledgers and counters and final (NULL: not
 * known), and with --verify compares them with the server's record. 0, or -1.
 */
static int measure(struct adapter_session *a, const struct job_state *final, bool stopped, struct run_result *out)
{
	size_t n_parts = (size_t)a->n_replicas + 1, seats = (size_t)a->n_replicas * (size_t)a->run.workers;
	struct ledger *parts = calloc(n_parts, sizeof(*parts));
	struct ledger merged;
	int rc = -1;

	memset(&merged, 0, sizeof(merged));
	out->per_worker = calloc(seats, sizeof(*out->per_worker));
	if (!parts || !out->per_worker)
		goto out_free;
	for (int i = 0; i < a->n_replicas; i++) {
		parts[i] = a->replicas[i].ledger;
		memcpy(&out->per_worker[(size_t)i * (size_t)a->run.workers], a->replicas[i].stats,
		       (size_t)a->run.workers * sizeof(*out->per_worker));
	}
	parts[n_parts - 1] = a->own;
	if (ledger_merge(&merged, parts, n_parts) < 0)
		goto out_free;
	struct metrics_input in = {
		.ledger = &merged,
		.workers = out->per_worker,
		.n_workers = seats,
		.n_jobs = (size_t)a->run.n_jobs,
		.n_backlog = (size_t)a->run.n_jobs,
		.work_ns = a->plan->work_ns,
		.final = final,
		.n_queues = 1,
		.drain = !stopped,
		.stopped = stopped,
		.claim_in_session = a->m->claim_mode == MODE_HOLD,
	};
	if (metrics_compute(&in, &out->metrics) == 0 && metrics_series(&in, &out->series, &out->n_series) == 0 &&
	    ledger_keep_faults(&merged, out) == 0 && (!a->audit.installed || stopped || verify(a, &merged, final, out) == 0) &&
	    ledger_table_note_errors(&in, out) == 0) {
		ledger_table_report_errors(&out->verify, a->plan->cfg->group, a->label);
		rc = 0;
	}
out_free:
	ledger_free(&merged);
	free(parts);
	return rc;
}

/* The run's result with what the plan and choice say of it, and no figure yet. */
static struct run_result result_of(const struct run_config *cfg, const struct strategy_choice *choice, int seats,
				   int repeat)
{
	return (struct run_result){
		.strategy = choice->ops->name,
		.claim_mode = claim_mode_name(choice->mode),
		.workers = seats,
		.jobs = cfg->jobs,
		.work_ms = cfg->work_ms,
		.work_dist = work_dist_name(cfg->work_dist),
		.duration_s = cfg->duration_s,
		.repeat = repeat,
	};
}

/* A queue name no other run of this process or another has: PREFIX + "a" + a count. */
static void name_queue(const struct run_config *cfg, char *out, size_t len)
{
	static int runs;
	char prefix[64];

	run_tables_prefix(cfg->table_prefix, prefix, sizeof(prefix));
	snprintf(out, len, "%sa%d", prefix, ++runs);
}

int adapter_run_one(const struct run_plan *plan, const struct strategy_choice *choice, int workers, int repeat,
		    struct run_result *out, char *err, size_t errlen)
{
	const struct run_config *cfg = plan->cfg;
	struct adapter_session a = { .plan = plan, .m = adapter_of_strategy(choice->ops), .n_replicas = cfg->replicas };
	struct job_state *final = NULL;
	bool have_final = false, stopped, table_done = false;
	char why[1024];
	int rc = -1;

	err[0] = '\0';
	*out = result_of(cfg, choice, workers * cfg->replicas, repeat);
	run_label(a.label, sizeof(a.label), cfg, choice->ops->name, out->claim_mode, workers, repeat);
	if (cfg->replicas > 1) {
		size_t used = strlen(a.label);

		snprintf(a.label + used, sizeof(a.label) - used, " on %d replicas", cfg->replicas);
	}
	name_queue(cfg, a.queue, sizeof(a.queue));
	adapter_faults_init(&a.faults, plan, a.label, a.queue, &a.own);
	if (run_param_add(out, RUN_PARAM_ADAPTER_SYSTEM, a.m->system) < 0 ||
	    run_param_add(out, RUN_PARAM_ADAPTER_VERSION, a.m->version) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out_free;
	}
	a.run = (struct replica_run){ .adapter = a.m, .workers = workers, .n_jobs = cfg->jobs };
	atomic_init(&a.run.start_ns, 0);
	atomic_init(&a.run.distinct_done, 0);
	a.run.done = calloc((size_t)cfg->jobs + 1, sizeof(*a.run.done));
	a.replicas = calloc((size_t)a.n_replicas, sizeof(*a.replicas));
	final = calloc((size_t)cfg->jobs + 1, sizeof(*final));
	if (!a.run.done || !a.replicas || !final || ledger_init(&a.own, 0, 0, 0) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out_free;
	}
	if (make_scratch(&a, err, errlen) < 0 || prepare_exec(&a, workers, err, errlen) < 0)
		goto out_free;
	for (int i = 0; i < a.n_replicas; i++)
		if (replica_init(&a.replicas[i], i, &a.run, (size_t)(2 * cfg->jobs / a.n_replicas) + 64) < 0) {
			snprintf(err, errlen, "out of memory");
			goto out_replicas;
		}
	if (adapter_marker_create(plan->db, plan->target, &cfg->db_opts, a.m, a.queue, err, errlen) < 0)
		goto out_replicas;
	if (start_replica(&a, 0, err, errlen) == 0 && enqueue_jobs(&a) == 0) {
		int i = 1;

		while (i < a.n_replicas && start_replica(&a, i, err, errlen) == 0)
			i++;
		if (i == a.n_replicas && (!cfg->verify || adapter_audit_install(&a.audit, plan->db, plan->target,
										    &cfg->db_opts, a.m, a.queue, err,
										    errlen) == 0))
			run_replicas(&a, final, &table_done);
	}
	stop_replicas(&a);
	if (!atomic_load(&a.run.start_ns) && !a.silent && !broken_replica(&a) && !a.interrupted) {
		if (!*err)
			snprintf(err, errlen, "adapter %s: replica %d ended before it was ready (see its stderr above)",
				 a.m->name, a.started - 1);
		goto out_drop;
	}
	stopped = a.silent || a.interrupted || broken_replica(&a) || *a.faults.failed;
	report_stop(&a, out);
	have_final = adapter_final_state(plan->db, plan->target, &cfg->db_opts, a.m, a.queue, final, cfg->jobs, why,
					 sizeof(why)) == 0;
	if (!have_final)
		fprintf(stderr, "claimbench: %s: %s; the figures that need it are unknown\n", a.label, why);
	if (measure(&a, have_final ? final : NULL, stopped, out) < 0) {
		snprintf(err, errlen, "out of memory computing the metrics");
		goto out_drop;
	}
	out->complete = !stopped && have_final && (table_done || atomic_load(&a.run.distinct_done) >= cfg->jobs);
	if (!stopped && !table_done && atomic_load(&a.run.distinct_done) < cfg->jobs)
		fprintf(stderr, "claimbench: %s: adapter %s: every replica ended with %ld of %ld jobs done; the run is "
			"incomplete\n", a.label, a.m->name, atomic_load(&a.run.distinct_done), cfg->jobs);
	rc = 0;
out_drop:
	if (adapter_audit_drop(&a.audit, why, sizeof(why)) < 0)
		fprintf(stderr, "claimbench: %s: %s\n", a.label, why);
	if (adapter_drop_tables(plan->db, plan->target, &cfg->db_opts, a.m, a.queue, why, sizeof(why)) < 0)
		fprintf(stderr, "claimbench: %s: %s (its marker table %s%s stays, for claimbench cleanup --db)\n", a.label,
			why, a.queue, ADAPTER_MARKER_SUFFIX);
	else if (adapter_marker_drop(plan->db, plan->target, &cfg->db_opts, a.queue, why, sizeof(why)) < 0)
		fprintf(stderr, "claimbench: %s: %s\n", a.label, why);
out_replicas:
	for (int i = 0; i < a.n_replicas; i++)
		replica_free(&a.replicas[i]);
out_free:
	remove_scratch(&a);
	ledger_free(&a.own);
	free(a.env);
	free(a.replicas);
	free(a.run.done);
	free(final);
	if (rc < 0)
		run_result_free(out);
	return rc;
}
