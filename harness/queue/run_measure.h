/*
 * The figures of a finished queue run: its threads' and the monitor's ledgers merged
 * into the metrics, the time series, the faults and what --verify finds, and the
 * server's samples, pressure phases and timeline phases kept with their own figures.
 */
#ifndef CLAIMBENCH_RUN_MEASURE_H
#define CLAIMBENCH_RUN_MEASURE_H

#include <stddef.h>

#include "measure/verify.h"
#include "model/result.h"
#include "queue/monitor.h"
#include "queue/pressure.h"
#include "queue/timeline_runner.h"

/* The server's record of a run (--verify), read after it. */
struct audit_record {
	struct audit_event *events;	/* the record in its order (owned); NULL when it was not read */
	size_t n;			/* entries in events */
};

/*
 * Merges the workers', the producers' and the monitor's ledgers and computes the metrics,
 * the time series and the list of faults into out, and, given the server's record
 * (audit->events), what --verify finds. 0, or -1 with err.
 */
int run_measure(const struct run_shared *s, const struct monitor *m, const struct job_state *final,
		const struct audit_record *audit, struct run_result *out, char *err, size_t errlen);

/*
 * Copies the timeline's phases as they ran into out (their figures are run_measure's and
 * run_keep_diagnostics'); says on stderr, under label, when a phase failed (the run is then
 * incomplete: queue/run.c). 0, or -1 with err.
 */
int run_keep_timeline(const struct timeline_runner *timeline, const char *label, struct run_result *out, char *err,
		      size_t errlen);

/*
 * Moves the monitor's server samples and the pressure phases into out and computes their
 * figures; says on stderr, under label, when the sampling stopped or a phase failed.
 * 0, or -1 with err.
 */
int run_keep_diagnostics(struct monitor *m, const struct pressure *pressure, const char *label, struct run_result *out,
			 char *err, size_t errlen);

#endif
