/*
 * The exact accounting across a failover (FAULT_FAILOVER): the ledger, what the workers
 * were told had committed, against the new primary's table after the run.
 */
#ifndef CLAIMBENCH_FAILOVER_H
#define CLAIMBENCH_FAILOVER_H

#include "measure/metrics_input.h"
#include "model/result.h"

/*
 * Fills out's ledger figures (all but the lag, which is left alone) from in, for the
 * run's first failover: per job, a completion the old primary acknowledged (it returned
 * on a connection made before the failover struck, conn_ns < at_ns: the standby took no
 * writes then) and that the new primary did not keep (the job claimed again after that
 * completion, or not done at the end), per job a claim in hand when it struck that the new
 * primary lacked (flip mode: claim_lost in failover.c), and the time from the failover's
 * start to the first completion on a connection made after it (the new primary's). Unknown (METRIC_UNKNOWN, NaN) when no failover struck; left_active
 * and the undone are not known without the final state. The lost completions' jobs are
 * written into jobs (jobs_size bytes), ids separated by spaces, "..." when they do not fit.
 */
void failover_account(const struct metrics_input *in, struct failover_figures *out, char *jobs, size_t jobs_size);

#endif
