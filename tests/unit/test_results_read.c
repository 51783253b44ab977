/*
 * Unit test of the output contract read back: runs printed as JSON and read again give
 * every descriptor and metric back; a missing metric is unknown; a missing identity or
 * a value of the wrong type is refused with a message naming it.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "model/metric_table.h"
#include "model/run_descriptor.h"
#include "output/results_print.h"
#include "output/results_read.h"

/* The temporary file every case writes. */
static char path[] = "/tmp/claimbench-unit-read-XXXXXX";

/* Writes text to path. */
static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Whether a and b hold the same figure of metric m: equal, both NaN, or both unknown. */
static bool same_metric(const struct metric *m, const struct run_result *a, const struct run_result *b)
{
	double x = metric_get(m, &a->metrics), y = metric_get(m, &b->metrics);

	if (m->type == METRIC_COUNT)
		return metric_get_count(m, &a->metrics) == metric_get_count(m, &b->metrics);
	return x == y || (isnan(x) && isnan(y));
}

/* Whether a and b agree on descriptor d. */
static bool same_descriptor(const struct run_descriptor *d, const struct run_result *a, const struct run_result *b)
{
	const char *x, *y;

	switch (d->type) {
	case DESC_TEXT:
		x = descriptor_text(d, a);
		y = descriptor_text(d, b);
		return (!x && !y) || (x && y && strcmp(x, y) == 0) || (d->optional && !x && y && !*y);
	case DESC_DOUBLE:
		return descriptor_double(d, a) == descriptor_double(d, b);
	case DESC_INT:
	case DESC_LONG:
	case DESC_BOOL:
		break;
	}
	return descriptor_int(d, a) == descriptor_int(d, b);
}

/* Two runs printed and read back: every descriptor and metric as it was (values of nine digits at most). */
static void test_round_trip(void)
{
	struct run_result runs[2] = {
		{ .strategy = "skip-locked", .claim_mode = "hold", .workers = 4, .jobs = 200, .work_ms = 2.5,
		  .work_dist = "fixed", .repeat = 1, .complete = true, .group = "g", .sweep = "w=4" },
		{ .strategy = "say \"hi\"", .claim_mode = "flip", .workers = 2, .jobs = 20, .duration_s = 3,
		  .work_dist = "exp", .repeat = 2, .arrival_rate = 50 },
	};
	struct invocation_result r = { .version = "t", .scenario = "s", .backend = "sqlite", .results = runs, .n_results = 2 };
	struct results_file f;
	char err[512];
	FILE *out;
	bool same = true;
	int rc;

	for (size_t i = 0; i < metric_table_len; i++) {
		const struct metric *m = &metric_table[i];

		if (m->type == METRIC_FLAG) {
			metric_set_count(m, &runs[0].metrics, i % 2);
			metric_set_count(m, &runs[1].metrics, i % 3 ? 1 - i % 2 : METRIC_UNKNOWN);
		} else if (m->type == METRIC_COUNT) {
			metric_set_count(m, &runs[0].metrics, 1000 + i);
			metric_set_count(m, &runs[1].metrics, i % 3 ? i : METRIC_UNKNOWN);
		} else {
			metric_set_double(m, &runs[0].metrics, (double)(i + 3) / 8);
			metric_set_double(m, &runs[1].metrics, i % 3 ? (double)i * 1e6 : NAN);
		}
	}
	out = fopen(path, "w");
	rc = out ? results_print_json(out, &r) : -1;
	if (out)
		fclose(out);
	CHECK_EQ(rc, 0, "two runs printed as JSON");
	rc = results_file_read(path, &f, err, sizeof(err));
	CHECK(rc == 0 && f.n_runs == 2, "and read back (%s)", rc ? err : "");
	for (size_t k = 0; rc == 0 && k < 2; k++) {
		for (size_t i = 0; i < metric_table_len; i++)
			if (!same_metric(&metric_table[i], &runs[k], &f.runs[k])) {
				CHECK(false, "run %zu: metric %s read back", k + 1, metric_table[i].path);
				same = false;
			}
		for (size_t i = 0; i < run_descriptors_len; i++)
			if (!same_descriptor(&run_descriptors[i], &runs[k], &f.runs[k])) {
				CHECK(false, "run %zu: descriptor %s read back", k + 1, run_descriptors[i].name);
				same = false;
			}
	}
	CHECK(rc == 0 && same, "every descriptor and metric of both runs, unknown and NaN ones too");
	results_file_free(&f);
	CHECK(f.doc == NULL && f.runs == NULL, "results_file_free empties the file");
}

/* A result with its identity alone: every metric unknown. */
static void test_missing_metrics(void)
{
	struct results_file f;
	char err[512];
	bool unknown = true;
	int rc;

	write_file("{\"results\": [{\"strategy\": \"a\", \"claim_mode\": \"hold\", \"workers\": 3,"
		   " \"fairness\": {\"jain\": null}, \"duplicates\": null, \"lost\": 2}]}");
	rc = results_file_read(path, &f, err, sizeof(err));
	CHECK(rc == 0 && f.n_runs == 1 && strcmp(f.runs[0].strategy, "a") == 0 && f.runs[0].workers == 3,
	      "a result with its identity and two metrics reads (%s)", rc ? err : "");
	for (size_t i = 0; rc == 0 && i < metric_table_len; i++)
		if (strcmp(metric_table[i].path, "lost") != 0)
			unknown &= isnan(metric_get(&metric_table[i], &f.runs[0].metrics));
	CHECK(rc == 0 && unknown && f.runs[0].metrics.lost == 2 && f.runs[0].metrics.duplicates == METRIC_UNKNOWN,
	      "metrics missing or null are unknown; the one given is read");
	results_file_free(&f);
}

/* Files refused, each with the message that names what is wrong. */
static void test_refusals(void)
{
	static const struct {
		const char *text;	/* the file */
		const char *message;	/* a part of the error */
	} cases[] = {
		{ "{\"results\": [", "is not JSON: it ends inside a value" },
		{ "[1]", "expected a JSON object at the top" },
		{ "{\"runs\": []}", "no \"results\" array" },
		{ "{\"results\": []}", "\"results\" holds no runs" },
		{ "{\"results\": [7]}", "results[0] is not an object" },
		{ "{\"results\": [{\"claim_mode\": \"hold\", \"workers\": 1}]}",
		  "results[0]: \"strategy\" is missing or not a string" },
		{ "{\"results\": [{\"strategy\": \"a\", \"claim_mode\": \"hold\", \"workers\": 0}]}",
		  "\"workers\" is not a whole number from 1" },
		{ "{\"results\": [{\"strategy\": \"a\", \"claim_mode\": \"hold\", \"workers\": 1, \"lost\": -1}]}",
		  "\"lost\" is not a whole number from 0 or null" },
		{ "{\"results\": [{\"strategy\": \"a\", \"claim_mode\": \"hold\", \"workers\": 1,"
		  " \"fairness\": {\"jain\": \"x\"}}]}", "\"fairness.jain\" is not a number or null" },
		{ "{\"results\": [{\"strategy\": \"a\", \"claim_mode\": \"hold\", \"workers\": 1, \"complete\": 1}]}",
		  "\"complete\" is not true or false" },
	};
	struct results_file f;
	char err[512];
	int rc;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		write_file(cases[i].text);
		err[0] = '\0';
		rc = results_file_read(path, &f, err, sizeof(err));
		CHECK(rc < 0 && strstr(err, cases[i].message), "refused: %s (%s)", cases[i].message, err);
		results_file_free(&f);
	}
	unlink(path);
	rc = results_file_read(path, &f, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "cannot open"), "a missing file is refused (%s)", err);
	results_file_free(&f);
}

/* A file past REPORT_FILE_MAX_BYTES, or one without end, is refused while reading, not read whole. */
static void test_bounds(void)
{
	struct results_file f;
	char err[512] = "";
	int rc;

	write_file(" ");
	check_need(truncate(path, REPORT_FILE_MAX_BYTES + 1) == 0, "growing the file");
	rc = results_file_read(path, &f, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, ": larger than the 64 MiB a result file may hold"), "64 MiB and a byte are refused (%s)",
	      err);
	results_file_free(&f);
	err[0] = '\0';
	rc = results_file_read("/dev/zero", &f, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "/dev/zero: larger than the 64 MiB"), "/dev/zero is refused after 64 MiB (%s)", err);
	results_file_free(&f);
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	test_round_trip();
	test_missing_metrics();
	test_refusals();
	test_bounds();
	unlink(path);
	return check_exit_status();
}
