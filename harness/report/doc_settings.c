/* The report's settings section (doc_settings.h). */
#include <stdbool.h>
#include <stdlib.h>

#include "report/doc_settings.h"
#include "report/report_settings.h"

/* Room for the runs of one value of a setting. */
#define RUNS_TEXT 640

/* The columns of the settings that differ, and of those every run shared. */
static const struct grid_column differ_columns[] = { { .header = "setting" }, { .header = "value", .code = true },
						     { .header = "runs" } };
static const struct grid_column shared_columns[] = { { .header = "setting" }, { .header = "value", .code = true } };

/*
 * Fills cells with a row per distinct value of each setting of spread[0..n) that differs
 * (its name on its first row only, the runs with that value in text), else, shared, a row
 * per setting. Their number of rows.
 */
static size_t settings_rows(const struct report_doc *d, const struct setting_spread *spread, size_t n, bool shared,
			    const char **cells, char (*text)[RUNS_TEXT])
{
	size_t rows = 0;

	for (size_t i = 0; i < n; i++) {
		if ((spread[i].n_values > 1) == shared)
			continue;
		if (shared) {
			cells[rows * 2] = spread[i].name;
			cells[rows * 2 + 1] = spread[i].value_of[0];
			rows++;
			continue;
		}
		for (size_t r = 0, e; r < d->n_runs; r++) {
			for (e = 0; e < r && !setting_same(&spread[i], e, r); e++)
				;
			if (e < r)
				continue;
			setting_runs_text(d->runs, d->n_runs, &spread[i], r, text[rows], sizeof(text[rows]));
			cells[rows * 3] = r == 0 ? spread[i].name : "";
			cells[rows * 3 + 1] = spread[i].value_of[r];
			cells[rows * 3 + 2] = text[rows];
			rows++;
		}
	}
	return rows;
}

int doc_write_settings(FILE *out, const struct report_doc *d, const char *heading, const struct doc_markup *mk)
{
	static struct setting_spread spread[SETTINGS_MAX];
	const char **cells = NULL;
	char (*text)[RUNS_TEXT] = NULL;
	size_t n, rows, cap = 0;
	char summary[128];
	int ret = -1;

	if (report_settings(d->runs, d->n_runs, spread, SETTINGS_MAX, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		cap += spread[i].n_values;
	cells = calloc(cap * 3 + 1, sizeof(*cells));
	text = calloc(cap + 1, sizeof(*text));
	if (!cells || !text)
		goto out;
	mk->heading(out, 2, heading);
	rows = settings_rows(d, spread, n, false, cells, text);
	if (rows) {
		mk->paragraph(out, "The settings that differ between the runs of this report (strategy, mode and workers "
			      "are the figures' own columns): each value, as given, with the runs that had it; \u2014 is "
			      "none.");
		mk->grid(out, differ_columns, 3, cells, rows);
	} else {
		mk->paragraph(out, "Every run of this report had the same settings (strategy, mode and workers aside, "
			      "which the figures show).");
	}
	rows = settings_rows(d, spread, n, true, cells, text);
	snprintf(summary, sizeof(summary), "The %zu settings every run shared", rows);
	mk->fold_begin(out, summary);
	mk->grid(out, shared_columns, 2, cells, rows);
	mk->fold_end(out);
	ret = 0;
out:
	free(cells);
	free(text);
	report_settings_free(spread, n);
	return ret;
}
