/*
 * The report document's pure parts: the settings that differ between runs, each value with
 * the runs that had it; a heading's anchor; a fault's first completion from the time series.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "report/doc_faults.h"
#include "report/doc_markup.h"
#include "report/report_settings.h"

/* Fills s as stored run id of strategy in section group, with the n parameters params. */
static void fake_run(struct store_run *s, long long id, const char *strategy, const char *group,
		     struct run_param *params, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->run.run_id = id;
	s->run.strategy = strategy;
	s->run.claim_mode = "flip";
	s->run.workers = 8;
	s->run.group = group;
	s->run.params = params;
	s->run.n_params = n;
	s->report.backend = "postgresql";
}

/* The index of the setting called name among the n of spread; n when none. */
static size_t find(const struct setting_spread *spread, size_t n, const char *name)
{
	size_t i = 0;

	while (i < n && strcmp(spread[i].name, name) != 0)
		i++;
	return i;
}

/* Two runs that differ in work-ms and share jobs and the backend. */
static void test_differ(void)
{
	struct run_param a[2] = { { "work-ms", "10" }, { "jobs", "50" } }, b[2] = { { "work-ms", "20" }, { "jobs", "50" } };
	struct setting_spread spread[SETTINGS_MAX];
	struct store_run runs[2];
	size_t n, work, jobs;

	fake_run(&runs[0], 1, "naive", "", a, 2);
	fake_run(&runs[1], 2, "naive", "", b, 2);
	check_need(report_settings(runs, 2, spread, SETTINGS_MAX, &n) == 0, "report_settings");
	work = find(spread, n, "work-ms");
	jobs = find(spread, n, "jobs");
	CHECK(work < n && spread[work].n_values == 2 && strcmp(spread[work].value_of[0], "10") == 0 &&
	      strcmp(spread[work].value_of[1], "20") == 0, "work-ms differs: each run's value as given");
	CHECK(jobs < n && spread[jobs].n_values == 1 && strcmp(spread[0].name, "backend") == 0 &&
	      spread[0].n_values == 1, "jobs and the backend are the same in both");
	report_settings_free(spread, n);
}

/*
 * issue 25's crash-exec (", 100,500,1000" before): an empty value, a list with commas and
 * SQL over several lines are each one value, told apart, with the runs that had it named
 * by section or strategy when they are all of theirs.
 */
static void test_unambiguous(void)
{
	static const char sql[] = "SELECT id FROM {jobs}\nWHERE status = 'new', 'x'\nLIMIT 1";
	struct run_param happy[1] = { { "crash-exec", "" } }, crash[1] = { { "crash-exec", "100,500,1000" } };
	struct run_param team[2] = { { "crash-exec", "100,500,1000" }, { "claim-sql", (char *)sql } };
	struct setting_spread spread[SETTINGS_MAX];
	struct store_run runs[5];
	char text[256];
	size_t n, c, q;

	fake_run(&runs[0], 1, "naive", "happy", happy, 1);
	fake_run(&runs[1], 2, "skip-locked", "happy", happy, 1);
	fake_run(&runs[2], 3, "naive", "crashes", crash, 1);
	fake_run(&runs[3], 4, "skip-locked", "crashes", crash, 1);
	fake_run(&runs[4], 5, "team", "crashes", team, 2);
	check_need(report_settings(runs, 5, spread, SETTINGS_MAX, &n) == 0, "report_settings");
	c = find(spread, n, "crash-exec");
	q = find(spread, n, "claim-sql");
	CHECK(c < n && spread[c].n_values == 2 && spread[c].value_of[0] == NULL &&
	      strcmp(spread[c].value_of[2], "100,500,1000") == 0,
	      "an empty crash-exec is none (NULL: drawn as a dash), the list one value with its commas");
	setting_runs_text(runs, 5, &spread[c], 0, text, sizeof(text));
	CHECK(strcmp(text, "1, 2: every run of section happy") == 0, "its runs, named by their section (%s)", text);
	setting_runs_text(runs, 5, &spread[c], 2, text, sizeof(text));
	CHECK(strcmp(text, "3-5: every run of section crashes") == 0, "a range of ids (%s)", text);
	CHECK(q < n && spread[q].n_values == 2 && strcmp(spread[q].value_of[4], sql) == 0,
	      "the SQL is one value, its lines and commas kept");
	setting_runs_text(runs, 5, &spread[q], 4, text, sizeof(text));
	CHECK(strcmp(text, "5") == 0, "one run alone is not named by what it is of (%s)", text);
	setting_runs_text(runs, 5, &spread[q], 0, text, sizeof(text));
	CHECK(strcmp(text, "1-4: every run of naive, skip-locked") == 0, "the runs without it, by strategy (%s)", text);
	report_settings_free(spread, n);
}

/* Anchors as git hosts make them. */
static void test_slug(void)
{
	char slug[DOC_SLUG];

	doc_slug("The server, sampled", slug);
	CHECK(strcmp(slug, "the-server-sampled") == 0, "a heading's anchor (%s)", slug);
}

/* A restart of 0.3 s at 0.5 s: the first completion after it from the series, and none without one. */
static void test_first_completion(void)
{
	struct series_point series[10];
	struct run_result run = { .series = series, .n_series = 10 };

	memset(series, 0, sizeof(series));
	for (int b = 0; b < 10; b++) {
		series[b].t_ms = b * 100;
		series[b].completed = b < 5 || b >= 9 ? 10 : 0;
	}
	CHECK_NEAR(doc_fault_first_completion_ms(&run, 500000000, 300000000), 500, 1e-9,
		   "the server gone from 0.5 s to 0.8 s, completions again in the bucket from 0.9 s: 0.5 s after");
	CHECK_NEAR(doc_fault_first_completion_ms(&run, 350000000, 0), 150, 1e-9,
		   "a crash at 0.35 s: the first bucket begun after it, ending 0.5 s");
	run.n_series = 9;
	CHECK(doc_fault_first_completion_ms(&run, 500000000, 300000000) < 0, "no completion after it: none");
}

int main(void)
{
	test_differ();
	test_unambiguous();
	test_slug();
	test_first_completion();
	return check_exit_status();
}
