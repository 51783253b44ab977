/*
 * One run of an adapter (--strategy adapter:NAME, docs/adapters.md): its replicas started,
 * the jobs enqueued through the adapter, its lines read into the ledger, the replicas
 * stopped, the adapter's own table read for each job's final state, its tables dropped, and
 * the figures computed as for a built-in strategy.
 */
#ifndef CLAIMBENCH_ADAPTER_RUN_H
#define CLAIMBENCH_ADAPTER_RUN_H

#include <stddef.h>

#include "engine/run_plan.h"
#include "model/config.h"
#include "model/result.h"

/*
 * The start of the name of a run's scratch folder under $TMPDIR (CLAIMBENCH_SCRATCH, the
 * adapter's files), which claimbench removes after the run and `claimbench cleanup` after a
 * claimbench that died.
 */
#define ADAPTER_SCRATCH_PREFIX "claimbench-adapter-"

/*
 * Runs the adapter of choice with cfg->replicas replicas of workers workers each into out
 * (out->contract_broken when a line broke the contract; out->complete false then, and
 * when the watchdog or a signal stopped it). 0, or -1 with err when it could not run at
 * all (its executable or runtime missing, its process not started, the database).
 */
int adapter_run_one(const struct run_plan *plan, const struct strategy_choice *choice, int workers, int repeat,
		    struct run_result *out, char *err, size_t errlen);

#endif
