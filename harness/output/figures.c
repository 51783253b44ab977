#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "output/figures.h"

/* Whether run belongs to a scenario group or a sweep point. */
static bool has_point(const struct run_result *run)
{
	return (run->group && *run->group) || (run->sweep && *run->sweep);
}

/* The group/sweep cell: "group", "sweep" or "group/sweep" (spaces shown as '_'), "-" when neither. */
static void point_cell(const struct run_result *run, char *buf, size_t size)
{
	const char *group = run->group ? run->group : "", *sweep = run->sweep ? run->sweep : "";

	if (!has_point(run)) {
		snprintf(buf, size, "-");
		return;
	}
	snprintf(buf, size, "%s%s%s", group, *group && *sweep ? "/" : "", sweep);
	for (char *c = buf; *c; c++)
		if (*c == ' ' || (unsigned char)*c < 0x20 || *c == 0x7f)
			*c = *c == ' ' ? '_' : '?';
}

/* Formats metric m of run as its table cell; "-" when unknown or not finite. */
static void metric_cell(const struct metric *m, const struct run_result *run, char *buf, size_t size)
{
	double v = metric_get(m, &run->metrics);
	int decimals = m->cell.decimals;

	if (!isfinite(v)) {
		snprintf(buf, size, "-");
	} else if (m->type == METRIC_COUNT) {
		snprintf(buf, size, "%" PRIu64, metric_get_count(m, &run->metrics));
	} else {
		if (decimals == CELL_MS_DECIMALS)
			decimals = fabs(v) < 10 ? 3 : fabs(v) < 1000 ? 1 : 0;
		snprintf(buf, size, "%.*f", decimals, v);
	}
}

/* Adds a column to f. */
static void add_column(struct figures *f, const char *header, const char *unit, bool text)
{
	f->columns[f->n_columns++] = (struct figures_column){ .header = header, .unit = unit, .text = text };
}

/* Fills row r of f with run's cells, the columns being those figures_build chose. */
static void fill_row(struct figures *f, size_t r, const struct run_result *run, bool points)
{
	char (*cell)[FIGURES_CELL] = &f->cells[r * f->n_columns];

	text_clean(*cell++, FIGURES_CELL, run->strategy, SIZE_MAX);
	text_clean(*cell++, FIGURES_CELL, run->claim_mode, SIZE_MAX);
	snprintf(*cell++, FIGURES_CELL, "%d", run->workers);
	for (size_t i = 0; i < metric_table_len; i++)
		if (metric_table[i].cell.header)
			metric_cell(&metric_table[i], run, *cell++, FIGURES_CELL);
	if (points)
		point_cell(run, *cell, FIGURES_CELL);
}

int figures_build(struct figures *f, const struct run_result *const *runs, size_t n)
{
	bool points = false;
	size_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < n; i++)
		points |= has_point(runs[i]);
	add_column(f, "strategy", "", true);
	add_column(f, "mode", "", true);
	add_column(f, "wrk", "", false);
	for (i = 0; i < metric_table_len; i++)
		if (metric_table[i].cell.header)
			add_column(f, metric_table[i].cell.header, metric_table[i].cell.unit, false);
	if (points)
		add_column(f, "group/sweep", "", true);
	f->cells = calloc(n * f->n_columns + 1, sizeof(*f->cells));
	if (!f->cells) {
		memset(f, 0, sizeof(*f));
		return -1;
	}
	for (i = 0; i < n; i++)
		fill_row(f, i, runs[i], points);
	f->n_rows = n;
	return 0;
}

const char *figures_cell(const struct figures *f, size_t r, size_t c)
{
	return f->cells[r * f->n_columns + c];
}

void figures_free(struct figures *f)
{
	free(f->cells);
	memset(f, 0, sizeof(*f));
}
