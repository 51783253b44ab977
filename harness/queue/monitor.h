/*
 * The monitor: the main thread's watch over a run's workers and producers while they
 * run. It draws progress, turns a signal into the run's stop (cancelling the statements
 * of threads that have not seen it), and injects the faults due at instants (model/faults.h):
 * it hands a crash or a stall to a worker with a job in hand, terminates server processes,
 * restarts the server, fails it over to its standby, and does the same for the fault phases
 * of the run's timeline (crash-workers, kill-backends, restart-server) as their instants
 * come; and it is the reaper of expired leases.
 */
#ifndef CLAIMBENCH_MONITOR_H
#define CLAIMBENCH_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/admin.h"
#include "engine/run_plan.h"
#include "measure/ledger.h"
#include "queue/fault.h"
#include "queue/interval_lines.h"
#include "queue/producer.h"
#include "queue/replication_lag.h"
#include "queue/run_threads.h"
#include "queue/sampler.h"
#include "queue/timeline_runner.h"
#include "queue/worker.h"


/* A monitor's state across the passes of one run. */
struct monitor {
	struct run_shared *s;			/* the run */
	const struct run_threads *t;		/* its threads */
	struct admin *admin;			/* the harness's connection: reaps, terminates */
	const struct run_plan *plan;		/* how the server restarts, fails over, has its standby cut off */
	bool standby_cut;			/* the standby was cut off before the failover (--failover-lag-ms) */
	struct fault_clock clocks[FAULT_KIND_COUNT]; /* each kind's instants, and how many have struck */
	int64_t next_reap_ns;			/* when the reaper passes next (clock_now_ns), 0 before the start */
	uint64_t reaped;			/* jobs the reaper gave back */
	struct ledger ledger;			/* the faults it injected itself (kill-backend, restart, failover) */
	struct replication_lag lag;		/* the standby's lag sampled before the first failover; unknown before */
	struct sampler sampler;			/* the server's samples */
	struct interval_lines lines;		/* the --progress-interval lines, across both passes */
	bool lines_ready;			/* lines is set up: the first pass has begun */
	int64_t next_server_check_ns;		/* when it looks next whether the throwaway server is gone */
	struct timeline_runner *timeline;	/* the run's timeline, whose fault phases it strikes (telling it
						 * how many in its phase_faults); NULL: none */
	long phase_struck[TIMELINE_MAX_PHASES];	/* faults struck per phase of timeline */
	long phase_draws;			/* faults of phases struck in all: the next one's draw of a worker */
	bool failed;				/* a fault could not be injected: the run is incomplete */
	char failure[512];			/* why, when failed */
};

/* Prepares m for the run s of threads t, whose server plan restarts and fails over. 0, or -1 when out of memory. */
int monitor_init(struct monitor *m, struct run_shared *s, const struct run_threads *t, struct admin *admin,
		 const struct run_plan *plan);

/* Frees what m holds. */
void monitor_free(struct monitor *m);

/* Watches until every thread of m's run has finished its loop, drawing progress under label. */
void monitor_watch(struct monitor *m, const char *label);

/*
 * Says on stderr, under label, which faults never struck: due at instants the run did not
 * reach or when no worker had a job in hand, or at executions beyond the run's last.
 */
void monitor_report_unstruck(const struct monitor *m, const char *label);

#endif
