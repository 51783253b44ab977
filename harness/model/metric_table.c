#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/metric_table.h"

/* The first four members of a row: path, column, type and offset of a double or of a count. */
#define DBL(path, column, member) path, column, METRIC_DOUBLE, offsetof(struct run_metrics, member)
#define CNT(path, column, member) path, column, METRIC_COUNT, offsetof(struct run_metrics, member)
#define FLAG(path, column, member) path, column, METRIC_FLAG, offsetof(struct run_metrics, member)

/*
 * A metric's column in the figures table: always, only when some run has it, only when
 * some run had arrivals; in the faults table; in the server table; in the guarded-resources
 * table; and none.
 */
#define CELL(header, unit, decimals, gloss) { header, unit, decimals, CELL_MAIN, gloss }
#define CELL_IF_ANY(header, unit, decimals, gloss) { header, unit, decimals, CELL_MAIN_IF_ANY, gloss }
#define CELL_IF_ARRIVALS(header, unit, decimals, gloss) { header, unit, decimals, CELL_MAIN_IF_ARRIVALS, gloss }
#define CELL_ASIDE(header, unit, decimals, gloss) { header, unit, decimals, CELL_ASIDE, gloss }
#define CELL_SERVER(header, unit, decimals, gloss) { header, unit, decimals, CELL_SERVER, gloss }
#define CELL_GUARD(header, unit, decimals, gloss) { header, unit, decimals, CELL_GUARD, gloss }
#define NO_CELL { NULL, "", 0, CELL_MAIN, NULL }

/* A row of errors of one kind: "errors.NAME" in JSON, "errors_NAME" in CSV and the store; a column when any. */
#define ERRORS(kind, name, header, what)                                                              \
	{ CNT("errors." name, "errors_" name, errors[kind]), CELL_IF_ANY(header, "", 0, "errors: " name), false, \
	  NOT_COMPARED, GUARD_NONE, "database errors " what, NATURE_OUTCOME }

/* The rows of a duration's percentiles: path prefix, column prefix, member, what it measures. */
#define PERCENTILES(path, column, member, p50_cell, p99_cell, summarised, p99_direction, what)         \
	{ DBL(path ".p50", column "_p50_ms", member.p50), p50_cell, summarised, NOT_COMPARED, GUARD_NONE, \
	  what ": median, ms", NATURE_TIMING },                                                                      \
	{ DBL(path ".p90", column "_p90_ms", member.p90), NO_CELL, false, NOT_COMPARED, GUARD_NONE,       \
	  what ": 90th percentile, ms", NATURE_TIMING },                                                             \
	{ DBL(path ".p99", column "_p99_ms", member.p99), p99_cell, summarised, p99_direction, GUARD_NONE, \
	  what ": 99th percentile, ms", NATURE_TIMING },                                                             \
	{ DBL(path ".p999", column "_p999_ms", member.p999), NO_CELL, false, NOT_COMPARED, GUARD_NONE,    \
	  what ": 99.9th percentile, ms", NATURE_TIMING },                                                           \
	{ DBL(path ".max", column "_max_ms", member.max), NO_CELL, false, NOT_COMPARED, GUARD_NONE,       \
	  what ": the largest, exactly, ms", NATURE_TIMING }

/* The row of one wait class's share of the sampled states: "server.wait_NAME_pct", a column in the server table. */
#define WAIT_SHARE(class, name, header, what)                                                                \
	{ DBL("server.wait_" name "_pct", "server_wait_" name "_pct", server.wait_pct[class]),                   \
	  CELL_SERVER(header, "", 0, "backends on " name), false, NOT_COMPARED, GUARD_NONE,                        \
	  "share of the worker backends' sampled states " what ", %", NATURE_TIMING }

const struct metric metric_table[] = {
	{ DBL("makespan_s", "makespan_s", makespan_s), CELL("makespan", "s", 3, "start to the last completion"), true, LOWER_IS_BETTER, GUARD_NONE,
	  "start barrier to the latest end of a committed execution, s", NATURE_TIMING },
	{ DBL("ideal_s", "ideal_s", ideal_s), CELL("ideal", "s", 3, "work time / workers"), false, NOT_COMPARED, GUARD_NONE,
	  "planned work time divided by the workers: a perfect strategy's makespan, s", NATURE_OUTCOME },
	{ DBL("makespan_ratio", "makespan_ratio", makespan_ratio), CELL("x_ideal", "", 2, "makespan / ideal"), true,
	  NOT_COMPARED, GUARD_NONE, "makespan divided by ideal: 1 is perfect (drain runs; unknown in a timed run)", NATURE_TIMING },
	{ DBL("throughput_jps", "throughput_jps", throughput_jps), CELL("thru", "jobs/s", 1, "completed / makespan or duration"), true, HIGHER_IS_BETTER,
	  GUARD_THROUGHPUT, "jobs completed per second of makespan (drain) or of duration after the warm-up (timed)", NATURE_TIMING },
	{ CNT("completed", "completed", completed), CELL("done", "jobs", 0, "distinct jobs completed"), false, NOT_COMPARED,
	  GUARD_NONE, "distinct jobs with a committed completion", NATURE_OUTCOME },
	{ CNT("jobs_total", "jobs_total", jobs_total), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "jobs enqueued in all: the initial backlog (jobs) and the arrivals", NATURE_OUTCOME },
	{ CNT("deliveries", "deliveries", deliveries), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "times a claim handed a job to a worker: entries in the ledger, whatever their outcome", NATURE_OUTCOME },
	{ CNT("executions", "executions", executions), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "deliveries whose work began: a batch's jobs a crash or a stop left never begun are not executions",
	  NATURE_OUTCOME },
	{ CNT("failed", "failed", failed), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "executions that marked their job error, and committed", NATURE_OUTCOME },
	{ CNT("race_duplicates", "race_duplicates", race_duplicates), CELL("race", "", 0, "handed out while held"),
	  true, LOWER_IS_BETTER, GUARD_DUPLICATES, "deliveries of a job beyond its first that no loss of the earlier holder "
	  "explains: the claim handed out a job another still held, or one done: the strategy's failure", NATURE_OUTCOME },
	{ CNT("duplicates", "duplicates", duplicates), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "race_duplicates + redeliveries: deliveries beyond each job's first, summed over jobs (kept for older readers)",
	  NATURE_OUTCOME },
	{ CNT("dup_jobs", "dup_jobs", dup_jobs), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "jobs delivered more than once, for either reason", NATURE_OUTCOME },
	{ CNT("overlaps", "overlaps", overlaps), CELL("ovl", "", 0, "pairs of executions of one job at once"), true, NOT_COMPARED, GUARD_NONE,
	  "pairs of executions of one job that ran at the same time", NATURE_OUTCOME },
	{ CNT("lost", "lost", lost), CELL("lost", "", 0, "jobs that should have finished and did not"), true, LOWER_IS_BETTER, GUARD_LOSSES,
	  "jobs whose final state is neither done nor error: left active, left new or missing after a drain, consumed "
	  "and never done; unknown without the final state", NATURE_OUTCOME },
	{ CNT("empty_claims", "empty_claims", empty_claims), CELL("empty", "", 0, "claims that returned no job"), true, NOT_COMPARED, GUARD_NONE,
	  "claim attempts that returned no job", NATURE_OUTCOME },
	{ CNT("spurious_empties", "spurious_empties", spurious_empties), CELL("spur", "", 0, "empty claims while a job waited"), true, NOT_COMPARED,
	  GUARD_NONE, "empty claims made while a job the worker could take was waiting", NATURE_OUTCOME },
	{ CNT("retries", "retries", retries), CELL("retry", "", 0, "tries again inside claims"), true, NOT_COMPARED, GUARD_NONE,
	  "tries again inside claim attempts (back-offs, polls, claims again after an empty one)", NATURE_OUTCOME },
	{ CNT("give_ups", "give_ups", give_ups), CELL("giveup", "", 0, "claims abandoned after the last try"), true, NOT_COMPARED, GUARD_NONE,
	  "claim attempts abandoned after their last try", NATURE_OUTCOME },
	{ CNT("errors_total", "errors_total", errors_total), NO_CELL, true, NOT_COMPARED, GUARD_NONE,
	  "database errors of every kind, the workers' and the producers'", NATURE_OUTCOME },
	ERRORS(ERR_LOCK_NOT_AVAILABLE, "lock_not_available", "e_lock",
	       "lock_not_available (PostgreSQL 55P03, MariaDB's NOWAIT)"),
	ERRORS(ERR_DEADLOCK, "deadlock", "e_dlock", "deadlock (PostgreSQL 40P01, MariaDB 1213)"),
	ERRORS(ERR_SERIALIZATION, "serialization", "e_serial", "serialization (PostgreSQL 40001)"),
	ERRORS(ERR_SQLITE_BUSY, "sqlite_busy", "e_busy", "SQLITE_BUSY: the database file was locked"),
	ERRORS(ERR_SQLITE_BUSY_SNAPSHOT, "sqlite_busy_snapshot", "e_snap",
	       "SQLITE_BUSY_SNAPSHOT: a WAL snapshot went stale"),
	ERRORS(ERR_CONNECTION_LOST, "connection_lost", "e_conn", "connection_lost: the connection broke"),
	ERRORS(ERR_STATEMENT_TIMEOUT, "statement_timeout", "e_stmt",
	       "statement_timeout: the server's statement_timeout cancelled the statement (PostgreSQL 57014)"),
	ERRORS(ERR_LOCK_WAIT_TIMEOUT, "lock_wait_timeout", "e_lwait",
	       "lock_wait_timeout: a row lock wait outlasted innodb_lock_wait_timeout (MariaDB 1205)"),
	ERRORS(ERR_OTHER, "other", "e_other", "of any other kind"),
	{ CNT("ledger_mismatches", "ledger_mismatches", ledger_mismatches), NO_CELL, false, NOT_COMPARED,
	  GUARD_NONE, "jobs whose final status in the table disagrees with the ledger, explained or not", NATURE_OUTCOME },
	{ CNT("integrity_errors", "integrity_errors", integrity_errors), CELL_IF_ANY("integ", "", 0,
	  "ledger and table apart, unexplained"), true, NOT_COMPARED, GUARD_NONE,
	  "jobs on which the ledger and the table's final state disagree and no figure explains it (exit 5)", NATURE_OUTCOME },
	{ DBL("fairness.jain", "jain", fairness.jain), CELL("jain", "", 3, "Jain's fairness index, 1 even"), true, HIGHER_IS_BETTER, GUARD_JAIN,
	  "Jain's index of the workers' completed counts (after the warm-up): 1 even, 1/n all by one worker", NATURE_OUTCOME },
	{ CNT("fairness.min", "fairness_min", fairness.min), CELL("min", "jobs", 0, "fewest jobs of one worker"), false, NOT_COMPARED, GUARD_NONE,
	  "the fewest jobs one worker completed", NATURE_OUTCOME },
	{ CNT("fairness.max", "fairness_max", fairness.max), CELL("max", "jobs", 0, "most jobs of one worker"), false, NOT_COMPARED, GUARD_NONE,
	  "the most jobs one worker completed", NATURE_OUTCOME },
	{ DBL("fairness.cv", "fairness_cv", fairness.cv), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "coefficient of variation of the workers' completed counts", NATURE_OUTCOME },
	PERCENTILES("claim_latency_ms", "latency", claim_latency_ms,
		    CELL("claim_p50", "ms", CELL_MS_DECIMALS, "claim latency, median"),
		    CELL("claim_p99", "ms", CELL_MS_DECIMALS, "claim latency, 99th percentile"), true, LOWER_IS_BETTER,
		    "claim latency, attempt start to job in hand (attempts begun after the warm-up)"),
	PERCENTILES("queue_wait_ms", "queue_wait", queue_wait_ms,
		    CELL_IF_ARRIVALS("wait_p50", "ms", CELL_MS_DECIMALS, "enqueue to first in hand, median"),
		    CELL_IF_ARRIVALS("wait_p99", "ms", CELL_MS_DECIMALS, "the same, 99th percentile"), true, NOT_COMPARED,
		    "queue wait, a job's enqueue (after the warm-up) to its first claim (never claimed: to the run's end)"),
	PERCENTILES("end_to_end_ms", "end_to_end", end_to_end_ms,
		    CELL_IF_ARRIVALS("e2e_p50", "ms", CELL_MS_DECIMALS, "enqueue to done, median"),
		    CELL_IF_ARRIVALS("e2e_p99", "ms", CELL_MS_DECIMALS, "the same, 99th percentile"), true, NOT_COMPARED,
		    "end-to-end latency, a job's enqueue (after the warm-up) to its first completion (not done: to the end)"),
	{ CNT("backlog_end", "backlog_end", backlog_end), CELL_IF_ARRIVALS("backlog", "jobs", 0, "waiting at the end"),
	  true, NOT_COMPARED, GUARD_NONE, "jobs enqueued and never claimed when the run ended", NATURE_OUTCOME },
	{ CNT("arrivals", "arrivals", arrivals), CELL_IF_ARRIVALS("arrive", "jobs", 0, "arrivals inserted"), true, NOT_COMPARED, GUARD_NONE,
	  "arrivals whose INSERT committed", NATURE_OUTCOME },
	{ CNT("arrivals_late", "arrivals_late", arrivals_late), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "arrivals inserted over 1 ms after their due instant", NATURE_OUTCOME },
	{ DBL("arrival_late_max_ms", "arrival_late_max_ms", arrival_late_max_ms), NO_CELL, false, NOT_COMPARED,
	  GUARD_NONE, "the most an insert was issued after its due instant, ms", NATURE_TIMING },
	{ CNT("faults_injected", "faults_injected", faults_injected), CELL_IF_ANY("faults", "", 0, "faults that struck"), false, NOT_COMPARED,
	  GUARD_NONE, "faults that struck: crashes, stalls, killed server processes, restarts", NATURE_OUTCOME },
	{ CNT("failover.lag_bytes", "failover_lag_bytes", failover.lag_bytes), CELL_ASIDE("lag", "B", 0,
	  "standby behind at the failover"), false, NOT_COMPARED, GUARD_NONE,
	  "WAL the standby had not replayed when the failover struck, bytes (pg_stat_replication)", NATURE_OUTCOME },
	{ DBL("failover.lag_ms", "failover_lag_ms", failover.lag_ms), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "the standby's replay_lag when the failover struck, ms", NATURE_TIMING },
	{ CNT("failover.lost_completions", "failover_lost_completions", failover.lost_completions),
	  CELL_ASIDE("f_lost", "", 0, "acknowledged completions the new primary lacks"), false, NOT_COMPARED, GUARD_NONE,
	  "jobs whose completion committed before the failover and that the new primary did not have done", NATURE_OUTCOME },
	{ CNT("failover.rerun", "failover_rerun", failover.rerun), CELL_ASIDE("f_rerun", "", 0,
	  "of those, run again"), false, NOT_COMPARED, GUARD_NONE,
	  "of the lost completions, jobs claimed and run again after the failover", NATURE_OUTCOME },
	{ CNT("failover.left_active", "failover_left_active", failover.left_active), CELL_ASIDE("f_activ", "", 0,
	  "of those, left active"), false, NOT_COMPARED, GUARD_NONE,
	  "of the lost completions, jobs the new primary still had active at the end", NATURE_OUTCOME },
	{ CNT("failover.claims_lost", "failover_claims_lost", failover.claims_lost), CELL_ASIDE("f_claim", "", 0,
	  "claims in hand the new primary lacked"), false, NOT_COMPARED, GUARD_NONE,
	  "jobs in hand when the failover struck (flip mode) whose claim the new primary lacked: fenced, or taken "
	  "by another claim before the lease could run out", NATURE_OUTCOME },
	{ DBL("failover.first_completion_ms", "failover_first_completion_ms", failover.first_completion_ms),
	  CELL_ASIDE("f_first", "ms", CELL_MS_DECIMALS, "failover to the first completion"), false, NOT_COMPARED,
	  GUARD_NONE, "the failover's start to the first completion on the new primary, ms", NATURE_TIMING },
	{ CNT("stuck", "stuck", stuck), CELL_ASIDE("stuck", "", 0, "active at the end, no worker on them"), true, NOT_COMPARED, GUARD_NONE,
	  "jobs still active at the end that no worker was on (counted in lost too)", NATURE_OUTCOME },
	{ CNT("redeliveries", "redeliveries", redeliveries), CELL_ASIDE("redel", "", 0, "handed out again: its holder lost it"),
	  true, NOT_COMPARED, GUARD_NONE, "deliveries of a job handed out again because its earlier holder had lost it (a "
	  "crash, a lease, the reaper, a stale ticket, a restart, a killed backend, a failover): at-least-once's cost, "
	  "not a race", NATURE_OUTCOME },
	{ CNT("redeliveries_crash", "redeliveries_crash", redeliveries_crash), CELL_ASIDE("r_crash", "", 0, "redelivered: holder's transaction died"), false,
	  NOT_COMPARED, GUARD_NONE, "redeliveries after the holder's transaction or connection ended without its completion "
	  "(a crash, a rollback, a lost connection no server fault explains)", NATURE_OUTCOME },
	{ CNT("redeliveries_lease", "redeliveries_lease", redeliveries_lease), CELL_ASIDE("r_lease", "", 0, "redelivered: lease ran out"), false,
	  NOT_COMPARED, GUARD_NONE, "redeliveries of a job whose holder's lease had run out", NATURE_OUTCOME },
	{ CNT("redeliveries_reaper", "redeliveries_reaper", redeliveries_reaper), CELL_ASIDE("r_reap", "", 0, "redelivered: reaper gave it back"), false,
	  NOT_COMPARED, GUARD_NONE, "redeliveries after the reaper (or --rerun-stuck) gave the job back to new", NATURE_OUTCOME },
	{ CNT("redeliveries_stale_ticket", "redeliveries_stale_ticket", redeliveries_stale_ticket), CELL_ASIDE("r_stale", "", 0, "redelivered: ticket expired as stale"),
	  false, NOT_COMPARED, GUARD_NONE, "redeliveries after the ticket strategy deleted the holder's ticket as stale (no lease)", NATURE_OUTCOME },
	{ CNT("redeliveries_restart", "redeliveries_restart", redeliveries_restart), CELL_ASIDE("r_rstrt", "", 0,
	  "redelivered: a restart ended its session"), false, NOT_COMPARED, GUARD_NONE,
	  "redeliveries after a server restart ended the holder's session, whose claim it was (hold mode, advisory)",
	  NATURE_OUTCOME },
	{ CNT("redeliveries_killed_backend", "redeliveries_killed_backend", redeliveries_killed_backend),
	  CELL_ASIDE("r_kill", "", 0, "redelivered: its backend killed"), false, NOT_COMPARED, GUARD_NONE,
	  "redeliveries after the holder's server backend was killed (--kill-backend-at), ending the session whose claim "
	  "it was", NATURE_OUTCOME },
	{ CNT("redeliveries_failover", "redeliveries_failover", redeliveries_failover), CELL_ASIDE("r_fail", "", 0,
	  "redelivered: a failover lost it"), false, NOT_COMPARED, GUARD_NONE,
	  "redeliveries after a failover ended the holder's session or brought up a primary without its claim",
	  NATURE_OUTCOME },
	{ CNT("redelivered_unbegun", "redelivered_unbegun", redelivered_unbegun), CELL_ASIDE("unbegun", "", 0,
	  "redelivered, no work begun again"), false, NOT_COMPARED, GUARD_NONE,
	  "of the redeliveries, those that began no work again: never begun themselves (a crashed batch's tail), or "
	  "the first beginning of a job no earlier delivery had begun", NATURE_OUTCOME },
	{ CNT("claims_lost_in_flight", "claims_lost_in_flight", claims_lost_in_flight), CELL_ASIDE("inflight", "", 0,
	  "claims committed, answer lost"), false, NOT_COMPARED, GUARD_NONE,
	  "claims the final state shows committed whose answer reached no worker (a cut connection): consumed with no "
	  "execution, or active under a claimer that never had it; unknown without the final state", NATURE_OUTCOME },
	{ CNT("completions_unknown", "completions_unknown", completions_unknown), CELL_ASIDE("c_unkn", "", 0,
	  "completions a cut left unknown, done"), false, NOT_COMPARED, GUARD_NONE,
	  "jobs the table has done or error whose only completions a cut connection left unknown to the ledger; unknown "
	  "without the final state", NATURE_OUTCOME },
	{ CNT("overwritten_completions", "overwritten_completions", overwritten_completions), CELL_ASIDE("overwr", "",
	  0, "completions a later claim wrote over"), false, NOT_COMPARED, GUARD_NONE,
	  "jobs whose committed completion the table lacks because a later claim of the job, in hand after it, wrote "
	  "over its status (a claim that does not check the status: naive's); unknown without the final state",
	  NATURE_OUTCOME },
	{ CNT("zombie_completions", "zombie_completions", zombie_completions), CELL_ASIDE("zombie", "", 0, "completions after a redelivery"), true,
	  LOWER_IS_BETTER, GUARD_DUPLICATES, "completions that committed after their job had been handed out again", NATURE_OUTCOME },
	{ CNT("fenced", "fenced", fenced), CELL_ASIDE("fenced", "", 0, "completions the fence refused"), false, NOT_COMPARED, GUARD_NONE,
	  "completions refused by the fence: the job was no longer the claim's", NATURE_OUTCOME },
	{ CNT("reaped", "reaped", reaped), CELL_ASIDE("reaped", "", 0, "jobs the reaper gave back"), false, NOT_COMPARED, GUARD_NONE,
	  "jobs the reaper gave back to new", NATURE_OUTCOME },
	{ CNT("reconnects", "reconnects", reconnects), CELL_ASIDE("recon", "", 0, "connections made anew"), false, NOT_COMPARED, GUARD_NONE,
	  "lost connections made anew, by workers (a crashed one's replacement too) and producers", NATURE_OUTCOME },
	{ DBL("recovery_ms.p50", "recovery_p50_ms", recovery_ms.p50), CELL_ASIDE("rec50", "ms", CELL_MS_DECIMALS, "fault to that job's commit, median"), true,
	  LOWER_IS_BETTER, GUARD_NONE, "recovery time, a fault on a job to that job's next commit: median, ms", NATURE_TIMING },
	{ DBL("recovery_ms.max", "recovery_max_ms", recovery_ms.max), CELL_ASIDE("recmax", "ms", CELL_MS_DECIMALS, "the same, longest"),
	  false, NOT_COMPARED, GUARD_NONE, "recovery time, a fault on a job to that job's next commit: the longest, ms", NATURE_TIMING },
	{ DBL("restart_first_completion_ms", "restart_first_completion_ms", restart_first_completion_ms),
	  CELL_ASIDE("rstrt", "ms", CELL_MS_DECIMALS, "restart to the next completion"), false, NOT_COMPARED, GUARD_NONE,
	  "the server back after a restart to the next completion, the longest over restarts, ms", NATURE_TIMING },
	{ FLAG("delivery.at_most_once", "at_most_once", delivery.at_most_once), NO_CELL, false, NOT_COMPARED,
	  GUARD_NONE, "no job's work began twice: race_duplicates + redeliveries - redelivered_unbegun is 0", NATURE_OUTCOME },
	{ FLAG("delivery.at_least_once", "at_least_once", delivery.at_least_once), NO_CELL, false, NOT_COMPARED,
	  GUARD_NONE, "no job was lost (lost is 0); unknown when lost is", NATURE_OUTCOME },
	{ CNT("server.samples", "server_samples", server.samples), CELL_SERVER("smpl", "", 0, "server samples taken"), false,
	  NOT_COMPARED, GUARD_NONE, "samples of the server taken during the run (--sample-ms)", NATURE_OUTCOME },
	WAIT_SHARE(WAIT_CPU, "cpu", "cpu%", "running: active, waiting on nothing"),
	WAIT_SHARE(WAIT_LOCK, "lock", "lock%", "waiting on a heavyweight lock: a row, tuple or transaction"),
	WAIT_SHARE(WAIT_LWLOCK, "lwlock", "lwlk%", "waiting on an LWLock: a shared-memory structure"),
	WAIT_SHARE(WAIT_IO, "io", "io%", "waiting on I/O: a data or WAL file"),
	WAIT_SHARE(WAIT_CLIENT, "client", "clnt%", "idle or waiting on the client: the harness's side, work included"),
	WAIT_SHARE(WAIT_OTHER, "other", "oth%", "waiting on anything else: IPC, timeouts, buffer pins"),
	{ DBL("server.blocks_per_claim_start", "server_blocks_per_claim_start", server.blocks_per_claim_start),
	  CELL_SERVER("blk0", "", 1, "blocks per claim, first 2 s"), false, NOT_COMPARED, GUARD_NONE,
	  "the queue table's heap and index blocks (read or hit) per claim over the first 2 s sampled", NATURE_COST },
	{ DBL("server.blocks_per_claim_end", "server_blocks_per_claim_end", server.blocks_per_claim_end),
	  CELL_SERVER("blk1", "", 1, "blocks per claim, last 2 s"), false, NOT_COMPARED, GUARD_NONE,
	  "the queue table's heap and index blocks (read or hit) per claim over the last 2 s sampled", NATURE_COST },
	{ CNT("server.dead_tuples_peak", "server_dead_tuples_peak", server.dead_tuples_peak),
	  CELL_SERVER("deadmax", "", 0, "most dead tuples sampled"), false, NOT_COMPARED, GUARD_NONE,
	  "the most dead tuples sampled in the queue table (n_dead_tup)", NATURE_OUTCOME },
	{ CNT("server.dead_tuples_end", "server_dead_tuples_end", server.dead_tuples_end),
	  CELL_SERVER("deadend", "", 0, "dead tuples at the end"), false, NOT_COMPARED, GUARD_NONE,
	  "dead tuples in the queue table at the last sample", NATURE_OUTCOME },
	{ CNT("server.vacuums", "server_vacuums", server.vacuums), CELL_SERVER("vac", "", 0, "vacuums of the table"), false,
	  NOT_COMPARED, GUARD_NONE, "vacuums and autovacuums of the queue table between the first and the last sample", NATURE_OUTCOME },
	{ CNT("server.xmin_age_max", "server_xmin_age_max", server.xmin_age_max),
	  CELL_SERVER("xminage", "xacts", 0, "oldest transaction's age"), false, NOT_COMPARED, GUARD_NONE,
	  "the oldest xmin or xid of any backend on the server, in transactions, the most sampled; MariaDB: InnoDB's "
	  "history list length (committed transactions whose undo is not purged yet), the most sampled", NATURE_OUTCOME },
	{ CNT("server.wal_bytes_peak", "server_wal_bytes_peak", server.wal_bytes_peak),
	  CELL_SERVER("walmax", "bytes", 0, "SQLite: largest -wal file"), false, NOT_COMPARED, GUARD_NONE,
	  "SQLite: the largest size of the -wal file sampled, bytes", NATURE_OUTCOME },
	{ CNT("server.head_buffers_before", "server_head_buffers_before", server.head_buffers_before),
	  CELL_SERVER("head0", "bufs", 0, "head lookup's buffers before"), false, NOT_COMPARED, GUARD_NONE,
	  "buffers one head lookup touched before the run (EXPLAIN ANALYZE, BUFFERS: shared hit and read)", NATURE_COST },
	{ CNT("server.head_buffers_after", "server_head_buffers_after", server.head_buffers_after),
	  CELL_SERVER("head1", "bufs", 0, "head lookup's buffers after"), false, NOT_COMPARED, GUARD_NONE,
	  "buffers one head lookup touched after the workers stopped", NATURE_COST },
	{ CNT("server.table_bytes_before", "server_table_bytes_before", server.table_bytes_before), NO_CELL, false,
	  NOT_COMPARED, GUARD_NONE, "the queue table's size before the run (pg_table_size), bytes", NATURE_OUTCOME },
	{ CNT("server.table_bytes_after", "server_table_bytes_after", server.table_bytes_after), NO_CELL, false,
	  NOT_COMPARED, GUARD_NONE, "the queue table's size after the run, bytes", NATURE_OUTCOME },
	{ CNT("server.index_bytes_before", "server_index_bytes_before", server.index_bytes_before), NO_CELL, false,
	  NOT_COMPARED, GUARD_NONE, "its indexes' size before the run (pg_indexes_size), bytes", NATURE_OUTCOME },
	{ CNT("server.index_bytes_after", "server_index_bytes_after", server.index_bytes_after), NO_CELL, false,
	  NOT_COMPARED, GUARD_NONE,
	  "its indexes' size after the run, bytes", NATURE_OUTCOME },
	{ CNT("server.locks_left", "server_locks_left", server.locks_left), CELL_SERVER("locks", "", 0, "locks left"),
	  false, NOT_COMPARED, GUARD_NONE, "locks other sessions still held on the queue table after the workers stopped", NATURE_OUTCOME },
	{ DBL("server.lock_wait_pct", "server_lock_wait_pct", server.lock_wait_pct),
	  CELL_SERVER("busy%", "", 1, "SQLite: waiting for the write lock"), false, NOT_COMPARED, GUARD_NONE,
	  "SQLite: the workers' time asleep in the busy handler, waiting for the write lock, % of workers x makespan", NATURE_TIMING },
	{ CNT("server.checkpoints", "server_checkpoints", server.checkpoints),
	  CELL_SERVER("ckpt", "", 0, "SQLite: WAL checkpoints"), false, NOT_COMPARED, GUARD_NONE,
	  "SQLite: WAL checkpoints the workers' commits ran (one each time the WAL reached 1000 pages)", NATURE_OUTCOME },
	{ CNT("server.checkpoints_partial", "server_checkpoints_partial", server.checkpoints_partial),
	  CELL_SERVER("ckptpart", "", 0, "SQLite: checkpoints a reader held back"), false, NOT_COMPARED, GUARD_NONE,
	  "SQLite: of those checkpoints, the ones that could not copy the whole WAL because a reader still needed it", NATURE_OUTCOME },
	{ DBL("mvcc.throughput_before_jps", "mvcc_throughput_before_jps", phases.before_jps),
	  CELL_SERVER("thru0", "jobs/s", 1, "throughput before the snapshot"), false, NOT_COMPARED, GUARD_NONE,
	  "completions per second from the start to the held snapshot (--snapshot-at)", NATURE_TIMING },
	{ DBL("mvcc.throughput_during_jps", "mvcc_throughput_during_jps", phases.during_jps),
	  CELL_SERVER("thru1", "jobs/s", 1, "throughput while it was held"), false, NOT_COMPARED, GUARD_NONE,
	  "completions per second while the snapshot was held", NATURE_TIMING },
	{ DBL("mvcc.throughput_after_jps", "mvcc_throughput_after_jps", phases.after_jps),
	  CELL_SERVER("thru2", "jobs/s", 1, "throughput after its release"), false, NOT_COMPARED, GUARD_NONE,
	  "completions per second from the snapshot's release to the run's end", NATURE_TIMING },
	{ CNT("guarded.grants", "guarded_grants", guarded.grants), CELL_GUARD("grants", "", 0, "acquisitions granted"), false,
	  NOT_COMPARED, GUARD_NONE, "guarded runs: acquisitions of the guarded resource granted, whatever came after (released, abandoned, "
	  "expired)", NATURE_OUTCOME },
	{ DBL("guarded.grants_per_s", "guarded_grants_per_s", guarded.grants_per_s),
	  CELL_GUARD("rate", "grants/s", 1, "grants per second"), true, HIGHER_IS_BETTER, GUARD_NONE,
	  "guarded runs: grants per second of the run's duration", NATURE_TIMING },
	{ CNT("guarded.timeouts", "guarded_timeouts", guarded.timeouts), CELL_GUARD("tmout", "", 0, "gave up at the wait limit"),
	  false, NOT_COMPARED, GUARD_NONE, "guarded runs: acquisitions that gave up at the wait limit (lock or busy timeout)", NATURE_OUTCOME },
	{ CNT("guarded.refusals", "guarded_refusals", guarded.refusals), CELL_GUARD("refused", "", 0, "refused at once"), false,
	  NOT_COMPARED, GUARD_NONE, "guarded runs: acquisitions refused at once and not retried (NOWAIT, TRUNCATE)", NATURE_OUTCOME },
	{ CNT("guarded.starved", "guarded_starved", guarded.starved), CELL_GUARD("starved", "", 0, "still waiting at the end"),
	  false, NOT_COMPARED, GUARD_NONE, "guarded runs: acquisitions still waiting when the run ended", NATURE_OUTCOME },
	{ CNT("guarded.expired", "guarded_expired", guarded.expired), CELL_GUARD("expired", "", 0, "tickets removed as stale"),
	  false, NOT_COMPARED, GUARD_NONE, "guarded runs: tickets another participant removed as stale before their release", NATURE_OUTCOME },
	{ CNT("guarded.abandoned", "guarded_abandoned", guarded.abandoned),
	  CELL_GUARD("aband", "", 0, "holders gone, ticket left"), false, NOT_COMPARED, GUARD_NONE,
	  "guarded runs: grants left without a release (a crashed participant's ticket)", NATURE_OUTCOME },
	{ DBL("guarded.polls_per_grant", "guarded_polls_per_grant", guarded.polls_per_grant),
	  CELL_GUARD("polls", "/grant", 2, "tries per grant"), false, NOT_COMPARED, GUARD_NONE,
	  "guarded runs: tries (polls of the line, retries) of the granted acquisitions per grant", NATURE_OUTCOME },
	{ CNT("guarded.periods", "guarded_periods", guarded.periods), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "guarded runs with a cache: stale periods the run reached into, duration / stale interval + 1", NATURE_OUTCOME },
	{ CNT("guarded.refreshes", "guarded_refreshes", guarded.refreshes), CELL_GUARD("refr", "", 0, "refreshes of the cache"),
	  false, NOT_COMPARED, GUARD_NONE, "guarded runs with a cache: refreshes of the cache, whatever their outcome", NATURE_OUTCOME },
	{ CNT("guarded.duplicate_refreshes", "guarded_duplicate_refreshes", guarded.duplicate_refreshes),
	  CELL_GUARD("duprefr", "", 0, "refreshes beyond one a period"), true, LOWER_IS_BETTER, GUARD_EXCLUSION,
	  "guarded runs with a cache: refreshes beyond the first of their period, summed over periods", NATURE_OUTCOME },
	{ DBL("guarded.refreshes_per_period", "guarded_refreshes_per_period", guarded.refreshes_per_period),
	  CELL_GUARD("refr/p", "", 2, "refreshes per refreshed period, 1 correct"), false, NOT_COMPARED, GUARD_NONE,
	  "guarded runs with a cache: refreshes per period that had at least one; 1 is correct", NATURE_OUTCOME },
	{ CNT("guarded.waited_skips", "guarded_waited_skips", guarded.waited_skips),
	  CELL_GUARD("wskip", "", 0, "waited, found it fresh, skipped"), false, NOT_COMPARED, GUARD_NONE,
	  "guarded runs with a cache: checks granted after waiting that found the cache fresh and did not refresh", NATURE_OUTCOME },
	{ CNT("guarded.stale_uses", "guarded_stale_uses", guarded.stale_uses), CELL_GUARD("stale", "", 0, "uses of an old cache"),
	  true, LOWER_IS_BETTER, GUARD_NONE, "guarded runs: uses that read a cache older than the period their check saw (refresh) or current at "
	  "their grant (exclusive-use)", NATURE_OUTCOME },
	{ CNT("guarded.torn_uses", "guarded_torn_uses", guarded.torn_uses), CELL_GUARD("torn", "", 0, "uses of a half-written cache"),
	  true, LOWER_IS_BETTER, GUARD_EXCLUSION, "guarded runs: uses that read a half-written cache (rows of two refreshes, or too few)", NATURE_OUTCOME },
	{ CNT("guarded.max_holders", "guarded_max_holders", guarded.max_holders),
	  CELL_GUARD("maxhold", "", 0, "most holders at once"), false, NOT_COMPARED, GUARD_NONE,
	  "guarded runs: the most grants held at once on one resource, any mode", NATURE_OUTCOME },
	{ CNT("guarded.max_exclusive", "guarded_max_exclusive", guarded.max_exclusive),
	  CELL_GUARD("maxexcl", "", 0, "most exclusive holders at once"), false, NOT_COMPARED, GUARD_NONE,
	  "guarded runs: the most exclusive grants held at once on one resource; 1 is correct", NATURE_OUTCOME },
	{ CNT("guarded.max_shared", "guarded_max_shared", guarded.max_shared),
	  CELL_GUARD("maxshr", "", 0, "most readers at once"), false, NOT_COMPARED, GUARD_NONE,
	  "guarded runs: the most shared grants (readers) held at once on one resource", NATURE_OUTCOME },
	{ CNT("guarded.violations", "guarded_violations", guarded.violations),
	  CELL_GUARD("viol", "", 0, "grants beside a conflicting holder"), true, LOWER_IS_BETTER, GUARD_EXCLUSION,
	  "guarded runs: grants made while a conflicting holder held the resource, or beyond the limit X", NATURE_OUTCOME },
	{ CNT("guarded.fifo_inversions", "guarded_fifo_inversions", guarded.fifo_inversions),
	  CELL_GUARD("fifoinv", "", 0, "conflicting pairs granted out of line"), false, NOT_COMPARED, GUARD_NONE,
	  "guarded runs: pairs of conflicting grants of one resource made against their tickets' order", NATURE_OUTCOME },
	PERCENTILES("guarded.wait_ms", "guarded_wait", guarded.wait_ms,
		    CELL_GUARD("acq_p50", "ms", CELL_MS_DECIMALS, "start to grant, median"),
		    CELL_GUARD("acq_p99", "ms", CELL_MS_DECIMALS, "start to grant, 99th percentile"), true, LOWER_IS_BETTER,
		    "guarded runs: wait for a grant, an acquisition's start to its grant (granted ones)"),
	PERCENTILES("guarded.writer_wait_ms", "guarded_writer_wait", guarded.writer_wait_ms, NO_CELL,
		    CELL_GUARD("wrt_p99", "ms", CELL_MS_DECIMALS, "writers' start to grant, 99th percentile"), false,
		    NOT_COMPARED, "guarded runs: writers' wait for a grant, start to grant (granted ones)"),
	{ DBL("costs.statements_per_job", "statements_per_job", costs.statements_per_job),
	  NO_CELL, false, LOWER_IS_BETTER, GUARD_NONE,
	  "statements the workers sent (BEGIN and COMMIT included, empty claims' too) per job taken to an end, the "
	  "warm-up included", NATURE_COST },
	{ DBL("costs.round_trips_per_job", "round_trips_per_job", costs.round_trips_per_job),
	  NO_CELL, false, LOWER_IS_BETTER, GUARD_NONE,
	  "round trips the workers waited for (a pipeline of statements is one) per job taken to an end", NATURE_COST },
	{ DBL("costs.buffers_hit_per_job", "buffers_hit_per_job", costs.buffers_hit_per_job),
	  NO_CELL, false, LOWER_IS_BETTER, GUARD_NONE,
	  "PostgreSQL: shared buffers the workers' statements found in memory; SQLite: page-cache hits; per job",
	  NATURE_COST },
	{ DBL("costs.buffers_read_per_job", "buffers_read_per_job", costs.buffers_read_per_job),
	  NO_CELL, false, LOWER_IS_BETTER, GUARD_NONE,
	  "PostgreSQL: shared buffers the workers' statements read in; SQLite: pages read from the file; per job",
	  NATURE_COST },
	{ DBL("costs.pages_written_per_job", "pages_written_per_job", costs.pages_written_per_job), NO_CELL, false,
	  LOWER_IS_BETTER, GUARD_NONE, "SQLite: pages the workers' connections wrote out, per job; unknown on PostgreSQL",
	  NATURE_COST },
	{ DBL("costs.wal_records_per_job", "wal_records_per_job", costs.wal_records_per_job),
	  NO_CELL, false, LOWER_IS_BETTER, GUARD_NONE,
	  "PostgreSQL: WAL records the workers' statements generated, per job", NATURE_COST },
	{ DBL("costs.wal_bytes_per_job", "wal_bytes_per_job", costs.wal_bytes_per_job), NO_CELL, false, LOWER_IS_BETTER,
	  GUARD_NONE, "PostgreSQL: WAL bytes the workers' statements generated, per job", NATURE_COST },
	{ DBL("costs.rows_examined_per_job", "rows_examined_per_job", costs.rows_examined_per_job),
	  NO_CELL, false, LOWER_IS_BETTER, GUARD_NONE,
	  "PostgreSQL: rows of the queue table read by scans or fetched through an index during the run, per job",
	  NATURE_COST },
	{ DBL("costs.cpu_us_per_job", "cpu_us_per_job", costs.cpu_us_per_job),
	  NO_CELL, false, LOWER_IS_BETTER, GUARD_NONE,
	  "the worker threads' CPU time (SQLite's engine inside them included), microseconds per job: a time, which the "
	  "machine's load moves", NATURE_TIMING },
	{ CNT("costs.innodb_row_lock_waits", "innodb_row_lock_waits", costs.innodb_row_lock_waits), NO_CELL, false,
	  NOT_COMPARED, GUARD_NONE, "MariaDB: row lock waits InnoDB counted during the run (Innodb_row_lock_waits' "
	  "delta, the throwaway server's alone, the whole server's on --db); unknown on PostgreSQL and SQLite",
	  NATURE_OUTCOME },
	{ CNT("costs.innodb_row_lock_time_ms", "innodb_row_lock_time_ms", costs.innodb_row_lock_time_ms), NO_CELL,
	  false, NOT_COMPARED, GUARD_NONE, "MariaDB: the time those row lock waits took, ms (Innodb_row_lock_time's "
	  "delta); unknown on PostgreSQL and SQLite", NATURE_TIMING },
	{ CNT("costs.innodb_deadlocks", "innodb_deadlocks", costs.innodb_deadlocks), NO_CELL, false, NOT_COMPARED,
	  GUARD_NONE, "MariaDB: deadlocks InnoDB detected during the run (Innodb_deadlocks' delta), each with one "
	  "victim rolled back; unknown on PostgreSQL and SQLite", NATURE_OUTCOME },
	{ FLAG("costs.database_wide", "costs_database_wide", costs.database_wide), NO_CELL, false, NOT_COMPARED,
	  GUARD_NONE, "PostgreSQL: 1 when buffers and WAL are whole-database deltas (no pg_stat_statements for the "
	  "workers alone), 0 when the workers' statements' own", NATURE_OUTCOME },
	{ FLAG("dry.ran_dry", "ran_dry", dry.ran_dry), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "timed runs without arrivals: 1 when every job was taken before the end and claims came back empty after; "
	  "compare refuses to gate on such a run", NATURE_OUTCOME },
	{ DBL("dry.at_s", "dry_at_s", dry.at_s), CELL_IF_ANY("dry_at", "s", 2, "ran out of jobs at"), false,
	  NOT_COMPARED, GUARD_NONE, "a run that ran dry: when its last job was put in a worker's hand, s after the start",
	  NATURE_TIMING },
	{ CNT("dry.empty_after", "dry_empty_after", dry.empty_after), CELL_IF_ANY("dry_empty", "", 0,
	  "empty claims after it ran dry"), false, NOT_COMPARED, GUARD_NONE,
	  "a run that ran dry: claims begun after that instant that came back empty", NATURE_OUTCOME },
	{ DBL("machine.load_start", "load_start", machine.load_start), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "the machine's 1-minute load average as the run began (getloadavg)", NATURE_OUTCOME },
	{ DBL("machine.load_end", "load_end", machine.load_end), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "the machine's 1-minute load average as the run ended", NATURE_OUTCOME },
	{ DBL("machine.steal_pct", "steal_pct", machine.steal_pct), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "CPU time a hypervisor stole from the machine over the run, % of all its CPU time (/proc/stat's steal "
	  "column); unknown where /proc/stat is not", NATURE_OUTCOME },
	{ CNT("machine.cores", "cores", machine.cores), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "processors online on the machine that ran it", NATURE_OUTCOME },
	{ FLAG("machine.overloaded", "overloaded", machine.overloaded), NO_CELL, false, NOT_COMPARED, GUARD_NONE,
	  "1 when the load average as the run began exceeded the processors online (in it, for about a minute, "
	  "the invocation's own run before): other work may have competed for the CPUs", NATURE_OUTCOME },
};

const size_t metric_table_len = sizeof(metric_table) / sizeof(metric_table[0]);

_Static_assert(sizeof(metric_table) / sizeof(metric_table[0]) <= METRIC_MAX, "raise METRIC_MAX");

const struct metric *metric_find(const char *path)
{
	for (size_t i = 0; i < metric_table_len; i++)
		if (strcmp(metric_table[i].path, path) == 0)
			return &metric_table[i];
	return NULL;
}

uint64_t metric_get_count(const struct metric *m, const struct run_metrics *rm)
{
	uint64_t v;

	memcpy(&v, (const char *)rm + m->offset, sizeof(v));
	return v;
}

double metric_get(const struct metric *m, const struct run_metrics *rm)
{
	uint64_t count;
	double v;

	if (m->type == METRIC_DOUBLE) {
		memcpy(&v, (const char *)rm + m->offset, sizeof(v));
		return v;
	}
	count = metric_get_count(m, rm);
	return count == METRIC_UNKNOWN ? NAN : (double)count;
}

void metric_set_double(const struct metric *m, struct run_metrics *rm, double v)
{
	memcpy((char *)rm + m->offset, &v, sizeof(v));
}

void metric_set_count(const struct metric *m, struct run_metrics *rm, uint64_t v)
{
	memcpy((char *)rm + m->offset, &v, sizeof(v));
}

void metrics_set_unknown(struct run_metrics *rm)
{
	for (size_t i = 0; i < metric_table_len; i++) {
		if (metric_table[i].type == METRIC_DOUBLE)
			metric_set_double(&metric_table[i], rm, NAN);
		else
			metric_set_count(&metric_table[i], rm, METRIC_UNKNOWN);
	}
}

int metric_value(const struct run_result *r, const char *path, double *out)
{
	const struct metric *m = metric_find(path);

	if (!m)
		return -1;
	*out = metric_get(m, &r->metrics);
	return 0;
}

void metric_paths_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < metric_table_len && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", metric_table[i].path);
}

uint64_t metric_races(const struct run_metrics *rm)
{
	uint64_t redeliveries = rm->redeliveries != METRIC_UNKNOWN ? rm->redeliveries : 0;

	if (rm->race_duplicates != METRIC_UNKNOWN)
		return rm->race_duplicates;
	if (rm->duplicates == METRIC_UNKNOWN)
		return 0;
	return rm->duplicates > redeliveries ? rm->duplicates - redeliveries : 0;
}

void metrics_fill_older(struct run_metrics *rm)
{
	if (rm->race_duplicates == METRIC_UNKNOWN && rm->duplicates != METRIC_UNKNOWN)
		rm->race_duplicates = metric_races(rm);
}

uint64_t metric_begun_again(const struct run_metrics *rm)
{
	uint64_t redeliveries = rm->redeliveries != METRIC_UNKNOWN ? rm->redeliveries : 0;
	uint64_t unbegun = rm->redelivered_unbegun != METRIC_UNKNOWN ? rm->redelivered_unbegun : 0;

	return metric_races(rm) + (redeliveries > unbegun ? redeliveries - unbegun : 0);
}
