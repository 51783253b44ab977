/*
 * Whether a plugin (a strategy or a guard) can run on a backend, from what it declares:
 * the dialects it has a form in, and per dialect the backend capabilities that form
 * relies on. One test for both kinds, so that a pair is refused the same way.
 */
#ifndef CLAIMBENCH_CAPABILITIES_H
#define CLAIMBENCH_CAPABILITIES_H

#include <stdbool.h>

#include "db/backend.h"

/*
 * Whether a plugin with a form in the dialects of backends (DIALECT_BIT()s) that relies,
 * per dialect, on needs_caps (CAP_* bits) can run on db: it has a form in db's dialect and
 * db has every capability that form relies on.
 */
bool plugin_runs_on(unsigned dialects, const unsigned needs_caps[DIALECT_COUNT], const struct backend_ops *db);

#endif
