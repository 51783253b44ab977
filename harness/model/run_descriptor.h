/*
 * What a run was, as opposed to what it measured: strategy, claim mode, workers and the
 * other settings that tell one run from another. One row each, in the order CSV and JSON
 * print them before the metrics; the result store's runs table has a column for each.
 * And the engine a run ran on as one name (engine_name).
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

#endif
