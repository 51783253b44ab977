/*
 * The report document's pure parts: the settings that differ between runs, each value with
 * the runs that had it; a heading's anchor; a fault's recovery cells from what the run recorded.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "model/faults.h"
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
 * A crash-exec list (", 100,500,1000" before): an empty value, a list with commas and
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
	CHECK_STR_EQ(text, "1, 2: every run of section happy", "its runs, named by their section (%s)", text);
	setting_runs_text(runs, 5, &spread[c], 2, text, sizeof(text));
	CHECK_STR_EQ(text, "3-5: every run of section crashes", "a range of ids (%s)", text);
	CHECK(q < n && spread[q].n_values == 2 && strcmp(spread[q].value_of[4], sql) == 0,
	      "the SQL is one value, its lines and commas kept");
	setting_runs_text(runs, 5, &spread[q], 4, text, sizeof(text));
	CHECK_STR_EQ(text, "5", "one run alone is not named by what it is of (%s)", text);
	setting_runs_text(runs, 5, &spread[q], 0, text, sizeof(text));
	CHECK_STR_EQ(text, "1-4: every run of naive, skip-locked", "the runs without it, by strategy (%s)", text);
	report_settings_free(spread, n);
}

/* Anchors as git hosts make them. */
static void test_slug(void)
{
	char slug[DOC_SLUG];

	doc_slug("The server, sampled", slug);
	CHECK_STR_EQ(slug, "the-server-sampled", "a heading's anchor (%s)", slug);
}

/*
 * The recovery cells of the faults table from what the run recorded, to the millisecond:
 * a restart of 0.3 s, its first completion 0.1234 s after the server was back; a crash
 * whose job committed 0.0456 s after; several faults of a kind; none recovered.
 */
static void test_fault_recovery(void)
{
	struct fault_record faults[3] = { { .kind = FAULT_RESTART, .at_ns = 500000000, .duration_ns = 300000000 },
					  { .kind = FAULT_CRASH, .at_ns = 100000000, .worker = 1, .job_id = 7 },
					  { .kind = FAULT_CRASH, .at_ns = 200000000, .worker = 2, .job_id = 9 } };
	struct run_result run = { .faults = faults, .n_faults = 2 };
	char total[64], own[64];

	run.metrics.restart_first_completion_ms = 123.4;
	run.metrics.recovery_ms = (struct recovery_summary){ .p50 = 45.6, .max = 78.9 };
	doc_fault_recovery(&run, &faults[0], total, own, sizeof(total));
	CHECK(strcmp(total, "0.423") == 0 && strcmp(own, "0.123") == 0,
	      "a restart: the outage plus the recorded first completion, 3 decimals (%s, %s)", total, own);
	doc_fault_recovery(&run, &faults[1], total, own, sizeof(total));
	CHECK(strcmp(total, "0.046") == 0 && strcmp(own, "0.046") == 0,
	      "a crash: the recorded recovery of its job (%s, %s)", total, own);
	run.n_faults = 3;
	doc_fault_recovery(&run, &faults[2], total, own, sizeof(total));
	CHECK(strcmp(total, "-") == 0 && strcmp(own, "median 0.046, longest 0.079 (of 2)") == 0,
	      "two crashes: the run's median and longest, said so (%s)", own);
	run.metrics.restart_first_completion_ms = NAN;
	doc_fault_recovery(&run, &faults[0], total, own, sizeof(total));
	CHECK_STR_EQ(total, "never", "no completion after the restart: never (%s)", total);
}

int main(void)
{
	test_differ();
	test_unambiguous();
	test_slug();
	test_fault_recovery();
	return check_exit_status();
}
