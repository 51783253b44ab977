/*
 * The output contract read back: a JSON file that `claimbench run --format json` or
 * `claimbench export --format json` wrote, its results turned into runs again. Each
 * result's descriptors and every metric of the metric table are read by name, the same
 * way for all: a metric missing or null is unknown; only the identity descriptors
 * (strategy, claim_mode, workers) must be there; the parameters and run id are read when present.
 */
#ifndef CLAIMBENCH_RESULTS_READ_H
#define CLAIMBENCH_RESULTS_READ_H

#include <stddef.h>

#include "model/result.h"

struct json_object;

/* The most bytes a result file may hold (64 MiB): what is beyond is refused while reading. */
#define REPORT_FILE_MAX_BYTES (64 << 20)

/* The runs of one result file. */
struct results_file {
	struct json_object *doc;	/* the parsed file, whose strings the runs point to (owned) */
	struct run_result *runs;	/* its results, in order, n_runs of them (owned, with their params; no per_worker or series) */
	size_t n_runs;			/* entries in runs, at least 1 */
};

/*
 * Reads the result file at path into out (zeroed first). 0, or -1 with err saying what
 * is wrong where (a file larger than REPORT_FILE_MAX_BYTES, one that is not JSON, no
 * results, an identity missing, a value of the wrong type). Release out with
 * results_file_free either way.
 */
int results_file_read(const char *path, struct results_file *out, char *err, size_t errlen);

/* Frees what results_file_read allocated in f and zeroes it; a zeroed f is fine. */
void results_file_free(struct results_file *f);

#endif
