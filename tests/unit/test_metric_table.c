/*
 * Unit test of the metric table: every field of struct run_metrics has exactly one row,
 * names are unique, the error rows follow error_kind_name, and unknown values read as
 * NaN.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "model/metric_table.h"

/* Whether two rows of the table share a path or a column. */
static bool names_unique(void)
{
	for (size_t i = 0; i < metric_table_len; i++)
		for (size_t j = i + 1; j < metric_table_len; j++)
			if (strcmp(metric_table[i].path, metric_table[j].path) == 0 ||
			    strcmp(metric_table[i].column, metric_table[j].column) == 0)
				return false;
	return true;
}

/* Whether the rows cover struct run_metrics byte for byte, no two at one offset. */
static bool rows_cover_struct(void)
{
	static bool covered[sizeof(struct run_metrics)];

	for (size_t i = 0; i < metric_table_len; i++) {
		size_t at = metric_table[i].offset;

		if (at + 8 > sizeof(struct run_metrics))
			return false;
		for (size_t b = at; b < at + 8; b++) {
			if (covered[b])
				return false;
			covered[b] = true;
		}
	}
	for (size_t b = 0; b < sizeof(struct run_metrics); b++)
		if (!covered[b])
			return false;
	return true;
}

/* Whether each error kind has the row "errors.NAME" / "errors_NAME" over its counter. */
static bool error_rows_match(void)
{
	char path[64], column[64];

	for (int k = 0; k < ERR_KIND_COUNT; k++) {
		const struct metric *m;

		snprintf(path, sizeof(path), "errors.%s", error_kind_name((enum error_kind)k));
		snprintf(column, sizeof(column), "errors_%s", error_kind_name((enum error_kind)k));
		m = metric_find(path);
		if (!m || strcmp(m->column, column) != 0 || m->type != METRIC_COUNT ||
		    m->offset != offsetof(struct run_metrics, errors) + (size_t)k * sizeof(uint64_t))
			return false;
	}
	return true;
}

/* Rows with a table column, summarised ones and compared ones, by count. */
static void test_roles(void)
{
	size_t cells = 0, if_any = 0, if_arrivals = 0, aside = 0, server = 0, guard_table = 0, summarised = 0, compared = 0,
	       guarded = 0, costs = 0, timings = 0;

	for (size_t i = 0; i < metric_table_len; i++) {
		const struct metric *m = &metric_table[i];

		cells += m->cell.header != NULL;
		if_any += m->cell.header && m->cell.place == CELL_MAIN_IF_ANY;
		aside += m->cell.header && m->cell.place == CELL_ASIDE;
		server += m->cell.header && m->cell.place == CELL_SERVER;
		guard_table += m->cell.header && m->cell.place == CELL_GUARD;
		if_arrivals += m->cell.header && m->cell.place == CELL_MAIN_IF_ARRIVALS;
		CHECK(!m->cell.header || (m->cell.gloss && *m->cell.gloss), "%s: its column has a gloss for the key",
		      m->path);
		summarised += m->summarised;
		compared += m->direction != NOT_COMPARED;
		guarded += m->guard != GUARD_NONE;
		CHECK(m->definition && *m->definition, "%s has a definition", m->path);
		CHECK(m->nature == NATURE_OUTCOME || m->nature == NATURE_TIMING || m->nature == NATURE_COST,
		      "%s: its nature is set", m->path);
		costs += m->nature == NATURE_COST;
		timings += m->nature == NATURE_TIMING;
		CHECK(m->guard == GUARD_NONE || m->direction != NOT_COMPARED, "%s: a guarded metric is compared",
		      m->path);
	}
	CHECK(cells == 92 && if_any == 11 && if_arrivals == 6 && aside == 13 && server == 23 && guard_table == 22,
	      "92 metrics have a column: 17 always in the figures table, 11 when a run has some (faults, each error "
	      "kind, running dry), 6 when a run had arrivals, 13 in the faults table (redeliveries by cause among them), 23 in the "
	      "server table, 22 in the "
	      "guarded-resources table (%zu, %zu, %zu, %zu, %zu, %zu)",
	      cells, if_any, if_arrivals, aside, server, guard_table);
	CHECK(summarised == 31, "the repetitions' summary covers 31 metrics (%zu)", summarised);
	CHECK(compared == 23 && guarded == 8, "compare looks at 23 metrics, 8 of them guarded (%zu, %zu)", compared,
	      guarded);
	CHECK(costs == 12 && timings == 45, "12 metrics are costs (8 per job, 4 of the server's samples), 45 timings "
	      "(%zu, %zu)", costs, timings);
}

/* Reading and writing through the table, and unknown values. */
static void test_values(void)
{
	struct run_result r = { .strategy = "x" };
	const struct metric *done = metric_find("completed"), *jain = metric_find("fairness.jain");
	double v = 0;

	CHECK(done && jain && !metric_find("fairness") && !metric_find("nope"), "metric_find knows paths only");
	r.metrics.completed = 42;
	r.metrics.fairness.jain = 0.5;
	CHECK(metric_value(&r, "completed", &v) == 0 && v == 42, "metric_value reads a count");
	CHECK(metric_value(&r, "fairness.jain", &v) == 0 && v == 0.5, "metric_value reads a nested double");
	CHECK(metric_value(&r, "bogus", &v) < 0, "metric_value refuses an unknown path");
	metric_set_count(done, &r.metrics, 7);
	metric_set_double(jain, &r.metrics, 0.25);
	CHECK(r.metrics.completed == 7 && r.metrics.fairness.jain == 0.25, "the setters write the right fields");
	metrics_set_unknown(&r.metrics);
	CHECK(r.metrics.completed == METRIC_UNKNOWN && isnan(r.metrics.fairness.jain) &&
	      r.metrics.errors[ERR_OTHER] == METRIC_UNKNOWN, "metrics_set_unknown makes every metric unknown");
	CHECK(isnan(metric_get(done, &r.metrics)) && metric_get_count(done, &r.metrics) == METRIC_UNKNOWN,
	      "an unknown count reads as NaN");
}

int main(void)
{
	char list[4096];

	CHECK(names_unique(), "paths and columns are unique");
	CHECK(rows_cover_struct(), "every field of struct run_metrics has exactly one row");
	CHECK(error_rows_match(), "each error kind has its errors.NAME row");
	test_roles();
	test_values();
	metric_paths_list(list, sizeof(list));
	CHECK(strncmp(list, "makespan_s, ideal_s, makespan_ratio, throughput_jps,", 52) == 0 && strstr(list, "fairness.jain"),
	      "metric_paths_list names the paths in table order");
	return check_exit_status();
}
