/*
 * What a run was, as opposed to what it measured: strategy, claim mode, workers and the
 * other settings that tell one run from another. One row each, in the order CSV and JSON
 * print them before the metrics; the result store's runs table has a column for each.
 * And the engine a run ran on as one name (engine_name), and a run's parameters, the
 * options it ran under as name/value text (run_param_add).
 */
#ifndef CLAIMBENCH_RUN_DESCRIPTOR_H
#define CLAIMBENCH_RUN_DESCRIPTOR_H

#include <stdbool.h>
#include <stddef.h>

#include "model/result.h"

/* How a descriptor is held in struct run_result. */
enum descriptor_type {
	DESC_TEXT,	/* a const char *, NULL when not set */
	DESC_INT,	/* an int */
	DESC_LONG,	/* a long */
	DESC_DOUBLE,	/* a double */
	DESC_BOOL,	/* a bool */
};

/* One descriptor of a run. */
struct run_descriptor {
	const char *name;		/* its JSON member and CSV column: "claim_mode" */
	const char *column;		/* its column in the store's runs table ("run_group": GROUP is SQL) */
	enum descriptor_type type;	/* how it is held */
	size_t offset;			/* where, in struct run_result */
	bool identity;			/* compare groups runs by it: a result file must have it */
	bool optional;			/* text that may be empty: JSON leaves it out, the store keeps "" */
};

/* Every descriptor, in output order. */
extern const struct run_descriptor run_descriptors[];

/* Rows in run_descriptors. */
extern const size_t run_descriptors_len;

/* Text descriptor d (DESC_TEXT) of r; NULL when not set. */
const char *descriptor_text(const struct run_descriptor *d, const struct run_result *r);

/* Whole-number descriptor d (DESC_INT, DESC_LONG or DESC_BOOL) of r. */
long long descriptor_int(const struct run_descriptor *d, const struct run_result *r);

/* Number descriptor d (DESC_DOUBLE) of r. */
double descriptor_double(const struct run_descriptor *d, const struct run_result *r);

/* Sets text descriptor d of r to s, which must outlive r (r does not own it). */
void descriptor_set_text(const struct run_descriptor *d, struct run_result *r, const char *s);

/* Sets whole-number descriptor d of r to v (a bool to v != 0). */
void descriptor_set_int(const struct run_descriptor *d, struct run_result *r, long long v);

/* Sets number descriptor d of r to v. */
void descriptor_set_double(const struct run_descriptor *d, struct run_result *r, double v);

/*
 * A run's engine as one name: its backend and its server's version, "postgresql 16.4".
 * Runs of two engines are never repeats of one case (report, compare, ab group by it).
 */

/*
 * Writes "BACKEND VERSION" into buf (size bytes), the version's first word only
 * ("15.18 (Debian 15.18-0+deb12u1)" is 15.18): backend alone when version is NULL or
 * empty, "" when backend is NULL or empty; truncated to fit.
 */
void engine_name(char *buf, size_t size, const char *backend, const char *version);

/* A run's parameters (struct run_param in result.h): an owned list of name/value text pairs. */

/* The parameters an adapter's run carries (docs/adapters.md): the queue system it drove and its version. */
#define RUN_PARAM_ADAPTER_SYSTEM "adapter-system"
#define RUN_PARAM_ADAPTER_VERSION "adapter-version"

/* Appends copies of name and value to r's parameters. 0, or -1 when out of memory (r unchanged). */
int run_param_add(struct run_result *r, const char *name, const char *value);

/* The value of r's parameter name, or NULL when r has none of that name. */
const char *run_param_value(const struct run_result *r, const char *name);

/*
 * Writes into out the strategy's name as the outputs label its row: an adapter's run with its
 * system and version ("adapter:pg-boss (pg-boss 10.1.6)"), any other run its strategy alone
 * ("" when it has none).
 */
void run_strategy_label(const struct run_result *r, char *out, size_t len);

/* Frees r's parameters and empties the list; an empty list is fine. */
void run_params_free(struct run_result *r);

#endif
