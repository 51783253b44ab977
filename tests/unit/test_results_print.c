/*
 * Unit test of the report printers: two hand-made runs, one with a strategy
 * name that needs escaping and figures that are not finite, printed in every
 * format into memory and checked against the output contract.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "print_capture.h"
#include "model/metric_table.h"
#include "model/run_descriptor.h"
#include "output/results_print.h"

#define ODD_STRATEGY "say \"hi\", \\ok"	/* needs escaping in JSON and quoting in CSV */

/* Fills the first run: a clean skip-locked drain run with even shares. */
static void fill_first(struct run_result *run)
{
	struct run_metrics *m = &run->metrics;
	int i;

	run->strategy = "skip-locked";
	run->claim_mode = "hold";
	run->workers = 4;
	run->jobs = 200;
	run->work_ms = 100;
	run->work_dist = "fixed";
	run->repeat = 1;
	run->complete = true;
	m->makespan_s = 5.123456;
	m->ideal_s = 5.0;
	m->throughput_jps = 39.0363;
	m->completed = 200;
	m->deliveries = 200;
	m->executions = 200;
	m->empty_claims = 4;
	m->errors[ERR_LOCK_NOT_AVAILABLE] = 2;
	m->errors_total = 2;
	m->fairness = (struct fairness){ .jain = 1.0, .min = 50, .max = 50, .cv = 0.0 };
	m->claim_latency_ms = (struct latency_summary){ 0.25, 0.5, 1.5, 2.5, 3.0 };
	for (i = 0; i < run->workers; i++) {
		run->per_worker[i].completed = 50;
		run->per_worker[i].claims = 51;
		run->per_worker[i].empty = 1;
		run->per_worker[i].busy_ns = 5000000000LL;
	}
}

/* Fills the second run: an odd name, uneven shares, an interrupted run and NaN/inf figures. */
static void fill_second(struct run_result *run)
{
	struct run_metrics *m = &run->metrics;

	run->strategy = ODD_STRATEGY;
	run->claim_mode = "flip";
	run->workers = 2;
	run->jobs = 20;
	run->work_ms = 100;
	run->work_dist = "exp";
	run->repeat = 2;
	run->complete = false;
	m->makespan_s = 2.2;
	m->ideal_s = 1.0;
	m->throughput_jps = INFINITY;
	m->completed = 19;
	m->deliveries = 24;
	m->executions = 22;
	m->race_duplicates = 1;
	m->redeliveries = 2;
	m->duplicates = 3;
	m->dup_jobs = 2;
	m->overlaps = 1;
	m->lost = 1;
	m->retries = 7;
	m->give_ups = 1;
	m->spurious_empties = METRIC_UNKNOWN;
	m->errors[ERR_DEADLOCK] = 1;
	m->errors[ERR_OTHER] = 2;
	m->errors_total = 3;
	m->fairness = (struct fairness){ .jain = 0.75, .min = 5, .max = 14, .cv = NAN };
	m->claim_latency_ms = (struct latency_summary){ 12, 40, 1500, NAN, 2000 };
	run->per_worker[0] = (struct worker_stats){ .completed = 14, .claims = 16, .retries = 7 };
	run->per_worker[1] = (struct worker_stats){ .completed = 5, .claims = 6, .give_ups = 1 };
}

/* Counts the lines of text (each ends with a newline). */
static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* Whether needle occurs anywhere in text. */
static bool contains(const char *text, const char *needle)
{
	return strstr(text, needle) != NULL;
}

/* Checks that the JSON holds every key of the contract, escapes strings and prints no nan. */
static void check_json(const char *json)
{
	static const char *const keys[] = {
		"claimbench", "scenario", "backend", "server_version", "started_at", "seed",
		"results", "strategy", "claim_mode", "workers", "jobs", "work_ms", "work_dist",
		"duration_s", "repeat", "complete", "makespan_s", "ideal_s", "throughput_jps",
		"completed", "deliveries", "executions", "race_duplicates", "redeliveries", "duplicates", "dup_jobs", "overlaps", "lost",
		"empty_claims", "spurious_empties", "retries", "give_ups", "ledger_mismatches",
		"errors", "fairness", "jain", "min", "max", "cv", "claim_latency_ms", "p50",
		"p90", "p99", "p999", "per_worker", "worker", "claims", "empty", "busy_s",
		"settings", "synchronous_commit", "shared_buffers", "errors_total", "params", "work-ms",
	};
	char key[64];
	size_t i;
	int k;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(key, sizeof(key), "\"%s\": ", keys[i]);
		CHECK(contains(json, key), "json has key %s", keys[i]);
	}
	for (k = 0; k < ERR_KIND_COUNT; k++) {
		snprintf(key, sizeof(key), "\"%s\": ", error_kind_name((enum error_kind)k));
		CHECK(contains(json, key), "json errors has kind %s", error_kind_name((enum error_kind)k));
	}
	CHECK(contains(json, "\"strategy\": \"say \\\"hi\\\", \\\\ok\""),
	      "json escapes quote and backslash in a strategy name");
	CHECK(contains(json, "\"scenario\": \"tab\\tand\\u0001\""),
	      "json escapes a tab as \\t and other control characters as \\u00XX");
	CHECK(contains(json, "\"cv\": null"), "json prints NaN as null");
	CHECK(contains(json, "\"spurious_empties\": null"), "json prints an unknown count as null");
	CHECK(contains(json, "\"errors_total\": 3,"), "json has errors_total beside the errors by kind");
	CHECK(contains(json, "\"params\": {\n        \"work-ms\": \"100\",\n        \"claim-mode\": \"hold\"\n      },"),
	      "json prints a run's parameters as an object of strings, in order");
	CHECK(contains(json, "\"throughput_jps\": null"), "json prints infinity as null");
	CHECK(!contains(json, "nan") && !contains(json, "inf"), "json holds no nan or inf");
	CHECK(contains(json, "\"makespan_s\": 5.123456,"), "json keeps makespan to the microsecond");
	CHECK(contains(json, "\"complete\": false,"), "json prints complete as a bool");
	CHECK(contains(json, "\"worker\": 0,") && contains(json, "\"worker\": 3,"),
	      "json numbers workers from 0");
	CHECK(contains(json, "\"seed\": 18446744073709551615,"), "json prints the whole seed");
	CHECK(contains(json, "{\n  \"claimbench\": \"0.1.0\",\n  \"scenario\""),
	      "json is indented by two spaces");
	CHECK(contains(json, "\"settings\": {\n    \"synchronous_commit\": \"on\",\n    \"shared_buffers\": \"128MB\"\n  },"),
	      "json prints the settings as an object of strings");
}

/* Counts the fields of each CSV record (quote-aware) into fields[], up to max records. */
static size_t csv_records(const char *csv, size_t *fields, size_t max)
{
	bool quoted = false;
	size_t n = 0, commas = 0;

	for (; *csv; csv++) {
		if (*csv == '"')
			quoted = !quoted;
		else if (*csv == ',' && !quoted)
			commas++;
		else if (*csv == '\n' && !quoted) {
			if (n < max)
				fields[n] = commas + 1;
			n++;
			commas = 0;
		}
	}
	return n;
}

/* Checks the CSV: a header and a line per run, every line as wide as the header. */
static void check_csv(const char *csv, size_t n_runs)
{
	size_t fields[8], n, i;

	n = csv_records(csv, fields, 8);
	CHECK_EQ(n, n_runs + 1, "csv has a header and one line per run (%zu lines)", n);
	CHECK_EQ(count_lines(csv), n, "csv has no line break inside a field");
	CHECK(n > 0 && fields[0] == run_descriptors_len + 2 + metric_table_len,
	      "csv header has a column per run descriptor, one per metric, and the adapter's system and version "
	      "(%zu + %zu + 2)", run_descriptors_len, metric_table_len);
	for (i = 1; i < n && i < 8; i++)
		CHECK_EQ(fields[i], fields[0], "csv line %zu has as many columns as the header", i + 1);
	CHECK(!strncmp(csv, "strategy,claim_mode,workers,jobs,work_ms,", 41), "csv header starts as specified");
	CHECK(contains(csv, ",repeat,complete,group,sweep,arrival_rate,makespan_s,ideal_s,makespan_ratio,throughput_jps,"
			    "completed,jobs_total,") &&
	      contains(csv, ",errors_total,errors_lock_not_available,") &&
	      contains(csv, ",latency_max_ms,queue_wait_p50_ms,") &&
	      contains(csv, ",end_to_end_max_ms,backlog_end,arrivals,") && contains(csv, ",arrivals_late,arrival_late_max_ms,faults_injected,") &&
	      contains(csv, ",restart_first_completion_ms,at_most_once,at_least_once,server_samples,") &&
	      contains(csv, ",mvcc_throughput_during_jps,mvcc_throughput_after_jps,guarded_grants,guarded_grants_per_s,") &&
	      contains(csv, ",guarded_wait_max_ms,guarded_writer_wait_p50_ms,") &&
	      contains(csv, ",guarded_writer_wait_p999_ms,guarded_writer_wait_max_ms,statements_per_job,") &&
	      contains(csv, ",ran_dry,dry_at_s,dry_empty_after,load_start,load_end,steal_pct,cores,overloaded,"
			    "adapter_system,adapter_version\n"),
	      "csv header: the run descriptors, then the metrics in table order");
	CHECK(contains(csv, ",fixed,0,1,true,,,0,5.123456,5,0,39.0363,200,0,200,200,0,0,0,0,0,0,4,0,"),
	      "csv row of run 1: descriptors, group and sweep empty, then the metrics");
	CHECK(contains(csv, ",24,22,0,1,3,2,1,1,0,,7,1,3,"), "csv leaves an unknown count empty");
	CHECK(contains(csv, "\n\"say \"\"hi\"\", \\ok\",flip,"), "csv quotes a field with a comma and a quote");
	CHECK(contains(csv, "\nskip-locked,hold,4,200,"), "csv leaves a plain field unquoted");
}

/* Checks the table: a line per run naming its strategy, the incomplete mark and the footer. */
static void check_table(const char *table, const struct invocation_result *r)
{
	const char *line = table, *end;
	size_t i, naming[2] = { 0, 0 }, widest = 0;

	for (; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			break;
		if ((size_t)(end - line) > widest)
			widest = end - line;
		for (i = 0; i < 2; i++)
			if (!strncmp(line, r->results[i].strategy, strlen(r->results[i].strategy)))
				naming[i]++;
	}
	CHECK(naming[0] == 1 && naming[1] == 1, "table has one line naming each strategy");
	CHECK_EQ(count_lines(table), 2 + r->n_results + 6 + 4,
	      "table has two header lines, a line per run, six lines of key and four footer lines (backend, settings, "
	      "machine, incomplete) (%zu)", count_lines(table));
	CHECK(contains(table, "\nmachine: load average "), "the footer has the machine's load line");
	CHECK(widest <= 160, "table fits in 160 columns (widest line %zu)", widest);
	CHECK(contains(table, "\nkey: makespan = start to the last completion; ideal = ") &&
	      contains(table, "; x_ideal = makespan / ideal;") && contains(table, "claim_p99 = claim latency, 99th"),
	      "the key under the table says what each column is");
	CHECK(contains(table, " e_lock e_dlock e_other ") && !contains(table, " e_busy") && !contains(table, " err "),
	      "errors by kind: a column for each kind a run met, none for the others");
	CHECK(contains(table, " claim_p50 claim_p99\n") && !contains(table, "wait_p50"),
	      "claim latency says so; no queue-wait column without arrivals");
	CHECK(contains(table, "1500 *\n"), "table marks the incomplete run");
	CHECK(contains(table, " min  max ") && contains(table, "0.750    5   14 "), "table shows min and max shares");
	CHECK(contains(table, "    0    -     7 "), "table shows an unknown count as -");
	CHECK(contains(table, "postgresql") && contains(table, "16.2"), "table footer names backend and server version");
	CHECK(contains(table, "\nsettings: synchronous_commit=on, shared_buffers=128MB\n"), "table footer lists the settings");
	CHECK(contains(table, "results are incomplete"), "table footer says results are incomplete");
}

/* Writes the JSON to a file and lets jq parse it (jq is a dependency: its absence fails). */
static void check_jq(const char *json)
{
	char path[] = "/tmp/unit_report_XXXXXX";
	char cmd[256];
	int fd;
	FILE *f;

	if (system("command -v jq >/dev/null 2>&1") != 0) {
		CHECK(false, "jq on PATH (scripts/install-deps installs it): the JSON is parsed by a second reader");
		return;
	}
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	CHECK(f != NULL, "temporary file for jq");
	if (!f)
		return;
	fputs(json, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "jq -e .results[1].fairness.jain %s >/dev/null", path);
	CHECK_EQ(system(cmd), 0, "jq parses the json and finds results[1].fairness.jain");
	snprintf(cmd, sizeof(cmd), "jq -e '.results[1].fairness.cv == null and (.results[0].per_worker | length) == 4' %s >/dev/null", path);
	CHECK_EQ(system(cmd), 0, "jq sees cv as null and four workers in run 1");
	snprintf(cmd, sizeof(cmd), "jq -e '.results[1].strategy == \"say \\\"hi\\\", \\\\ok\"' %s >/dev/null", path);
	CHECK_EQ(system(cmd), 0, "jq reads the escaped strategy name back unchanged");
	snprintf(cmd, sizeof(cmd), "jq -e '.results[0].params[\"work-ms\"] == \"100\" and .results[1].params == {}' %s >/dev/null", path);
	CHECK_EQ(system(cmd), 0, "jq finds run 1's parameters and an empty params object for run 2");
	unlink(path);
}

int main(void)
{
	struct run_result runs[2] = { 0 };
	struct invocation_result r = {
		.version = "0.1.0",
		.scenario = "tab\tand\x01",
		.backend = "postgresql",
		.server_version = "16.2",
		.settings = { { "synchronous_commit", "on" }, { "shared_buffers", "128MB" } },
		.n_settings = 2,
		.started_at = "2024-05-01T12:00:00Z",
		.seed = 18446744073709551615ULL,
		.results = runs,
		.n_results = 2,
	};
	char *json, *csv, *table;

	runs[0].per_worker = calloc(4, sizeof(struct worker_stats));
	runs[1].per_worker = calloc(2, sizeof(struct worker_stats));
	if (!runs[0].per_worker || !runs[1].per_worker)
		return 1;
	fill_first(&runs[0]);
	fill_second(&runs[1]);
	if (run_param_add(&runs[0], "work-ms", "100") < 0 || run_param_add(&runs[0], "claim-mode", "hold") < 0)
		return 1;

	json = print_to_string(results_print_json, &r);
	csv = print_to_string(results_print_csv, &r);
	table = print_to_string(results_print_table, &r);
	CHECK(json && csv && table, "every printer wrote to memory");
	if (json && csv && table) {
		check_json(json);
		check_csv(csv, r.n_results);
		check_table(table, &r);
		check_jq(json);
	}
	free(json);
	free(csv);
	free(table);
	free(runs[0].per_worker);
	free(runs[1].per_worker);
	run_params_free(&runs[0]);
	return check_exit_status();
}
