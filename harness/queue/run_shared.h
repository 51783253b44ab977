/*
 * What every worker and producer of one queue run shares: the run's settings and tables,
 * the jobs' work times and enqueue times, its gate and stop (engine/run_gate.h), and the
 * count of losses that stops a run that cannot progress. Read-only during the run but
 * for what each field says.
 */
#ifndef CLAIMBENCH_RUN_SHARED_H
#define CLAIMBENCH_RUN_SHARED_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "db/backend.h"
#include "db/ownership.h"
#include "engine/run_gate.h"
#include "queue/instants.h"
#include "queue/server_costs.h"
#include "engine/sql_template.h"
#include "model/config.h"
#include "plugin/strategy.h"

/*
 * A run that cannot progress is stopped: when its workers lost their connection or crashed
 * this many times per worker in a row (RUN_MIN_LOSSES_WITHOUT_PROGRESS at least), with no
 * execution committed in between.
 */
#define RUN_LOSSES_WITHOUT_PROGRESS_PER_WORKER 10
#define RUN_MIN_LOSSES_WITHOUT_PROGRESS 50

/*
 * What every worker and producer of one run shares; read-only during the run but for
 * gate.stop, producers_running and the entries of enqueued_ns each producer owns.
 */
struct run_shared {
	const struct run_config *cfg;		/* the invocation's settings */
	const struct backend_ops *db;		/* the backend driver */
	const struct strategy_ops *strategy;	/* the strategy under test */
	const void *strategy_config;		/* its settings in cfg (strategy_configs[its kind]) */
	enum claim_mode mode;			/* its claim mode in this run */
	int workers;				/* the workers the run starts (their replacements after a crash not counted) */
	char jobs_table[160];			/* quoted name of the queue table */
	char tickets_table[160];		/* quoted name of the ticket control table */
	char jobs_name[128];			/* the queue table's name, unquoted */
	char tickets_name[128];			/* the ticket control table's name, unquoted */
	char audit_table[160];			/* quoted name of --verify's audit table (and of its trigger function) */
	char audit_name[128];			/* the audit table's name, unquoted; "" without --verify */
	char writer_table[160];			/* quoted name of a long-writer phase's table */
	char writer_name[128];			/* its name, unquoted; "" without a long-writer phase */
	struct owner owner;			/* this process, whose note marks each table the run makes (for cleanup) */
	bool created_jobs;			/* the run created the queue table: it drops it */
	bool created_tickets;			/* the run created the ticket table: it drops it */
	bool created_audit;			/* the run created the audit table, its function and triggers: it drops them */
	bool created_writer;			/* the run created the long-writer's table: it drops it */
	struct sql_names names;			/* what the SQL templates' placeholders stand for: the above */
	struct sql_recovery_text recovery_sql;	/* the lease's texts names points into */
	const int64_t *work_ns;			/* work time per job, backlog and arrivals, indexed id-1 */
	long backlog;				/* jobs 1..backlog are in the table before the start */
	long arrivals;				/* jobs backlog+1..backlog+arrivals: producers' */
	int64_t *enqueued_ns;			/* per job (id-1): ns after the start its insert
						 * committed; 0 for the backlog, INT64_MAX until
						 * inserted; each producer writes its own ids */
	atomic_int producers_running;		/* producers still inserting; 0: no more arrivals */
	struct run_gate gate;			/* the start gate, the run's instants and its stop */
	int pass;				/* 1, or 2 when --rerun-errors drains the cleared errors again; set before threads start */
	const char *target;			/* where workers and producers connect, again after a lost connection
						 * (as the run's own account when it has one: queue/run_account.h) */
	const char *server_target;		/* where the MVCC pressure's sessions connect: the server itself */
	atomic_long executions_started;		/* executions begun in the run, counted for --KIND-exec */
	atomic_uint *job_executions;		/* per job (id-1): its executions so far, for the per-execution draws */
	atomic_int next_identity;		/* the identity the next crashed worker's replacement takes */
	long loss_limit;			/* losses in a row without progress that stop the run (set before
						 * threads start) */
	atomic_long losses_in_a_row;		/* workers' lost connections and crashes since the last
						 * committed execution */
	atomic_bool no_progress;		/* set (once) when losses_in_a_row reached loss_limit: the run stops */
	char no_progress_reason[256];		/* the last loss then; written by the thread that set no_progress */
	struct server_costs costs;		/* how the server's costs are read, and the two readings */
	struct critical_instants instants;	/* the enqueues and the claims that returned a job, as the workers
						 * grouping their empty claims see them */
};

/* Notes that an execution committed in the run of s: the losses in a row start again from 0. */
void run_note_progress(struct run_shared *s);

/*
 * Notes that a worker of the run of s lost its connection or crashed, the last error being
 * why; the loss that reaches s->loss_limit in a row sets no_progress and stops the run.
 */
void run_note_loss(struct run_shared *s, const char *why);

#endif
