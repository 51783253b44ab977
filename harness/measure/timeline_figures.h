/*
 * The figures of each phase of a run's timeline (model/timeline.h), from what the run
 * aggregated: the 100 ms series (completions per second, depth, errors, arrivals), a latency
 * histogram per phase filled from the ledger's completions, and the server's samples. The
 * phases' start_ns and end_ns are the instants the harness recorded them at; every figure
 * is over the series buckets those fall in (100 ms resolution).
 */
#ifndef CLAIMBENCH_TIMELINE_FIGURES_H
#define CLAIMBENCH_TIMELINE_FIGURES_H

#include <stddef.h>

#include "measure/metrics_input.h"
#include "model/result.h"
#include "model/server_sample.h"
#include "model/timeline.h"

/* How far a second's throughput may be from the first clean phase's median and count as recovered: 20 %. */
#define TIMELINE_RECOVERY_TOLERANCE 0.2

/*
 * Fills p's figures from the n buckets of series: completions per second over its whole
 * seconds (median and p10; over its whole length when it is shorter than a second),
 * depth at the end of its first and last bucket and the most, errors, arrivals and
 * completions. Its latency, dead tuples and recovery are left as they are. 0, or -1 when
 * out of memory.
 */
int timeline_series_figures(const struct series_point *series, size_t n, struct timeline_phase *p);

/*
 * Sets the recovery_s of the phase after each pressure phase of phases (n_phases): the
 * seconds from that one's end to the first 1 s window of the series (stepped by 100 ms)
 * whose completions are within TIMELINE_RECOVERY_TOLERANCE of the first clean phase's
 * throughput_median, INFINITY when none before the series' end. NAN everywhere else, and
 * everywhere without a clean phase.
 */
void timeline_recoveries(const struct series_point *series, size_t n, struct timeline_phase *phases, size_t n_phases);

/*
 * Sets each phase's dead tuples, oldest transaction's age, vacuums and autovacuums from the
 * n samples (SAMPLE_UNKNOWN: not read), by those stamped in its span: a count's rise from
 * the last sample before the phase (its first, when none was) to its last.
 */
void timeline_sample_figures(const struct server_sample *samples, size_t n, struct timeline_phase *phases,
			     size_t n_phases);

/* Sets each phase's faults: the faults of l that struck in its recorded span, [start_ns, end_ns). */
void timeline_fault_counts(const struct ledger *l, struct timeline_phase *phases, size_t n_phases);

/*
 * Every figure of the n_phases phases but the samples': the series', the recoveries, the faults, and the
 * enqueue-to-completion latency of the executions in's ledger completed in each (one
 * histogram per phase). 0, or -1 when out of memory.
 */
int timeline_figures(const struct metrics_input *in, const struct series_point *series, size_t n_series,
		     struct timeline_phase *phases, size_t n_phases);

#endif
