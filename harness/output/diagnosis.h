/*
 * The diagnosis of a run: a few sentences, generated from its server figures, on why the
 * queue ran as it did, for a design review to read beside the numbers: where the worker
 * backends spent the sampled time, how the blocks per claim moved, what dead tuples and the
 * oldest transaction did, and what a held snapshot cost.
 */
#ifndef CLAIMBENCH_DIAGNOSIS_H
#define CLAIMBENCH_DIAGNOSIS_H

#include <stddef.h>

#include "model/result.h"

/* A share of the sampled states at or above which a wait class is named as where the time went, %. */
#define DIAGNOSIS_DOMINANT_PCT 40.0

/* A change of blocks per claim from start to end beyond which it is called growth (a ratio). */
#define DIAGNOSIS_GROWTH 1.5

/*
 * The oldest-transaction figure (server.xmin_age_max) from which the diagnosis speaks of it,
 * in its backend's words (backend_ops.old_transaction_sentence): PostgreSQL's age of the
 * oldest xmin, which holds the xmin horizon back; MariaDB's history list length, the undo
 * InnoDB's purge has not removed yet.
 */
#define DIAGNOSIS_OLD_XMIN 1000

/*
 * Writes run's diagnosis into buf (size bytes, truncated to fit), in the words of backend
 * (the run's, struct backend_ops.name; NULL or a name no backend has: what only one
 * engine's words could say is left out): sentences ending in a full stop, separated by
 * spaces. Returns false, buf empty, when the run has no samples.
 */
bool diagnosis_write(const struct run_result *run, const char *backend, char *buf, size_t size);

#endif
