/*
 * The table for a person at a terminal: the figures of report's runs aligned in columns
 * under two header lines (names, units), the faults table likewise when a run met faults,
 * then the backend, the settings and a warning when runs are incomplete.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "output/diagnosis.h"
#include "output/timeline_print.h"
#include "output/figures.h"
#include "output/results_print.h"

/* Fills width[] with each column's widest cell, header lines included. */
static void column_widths(const struct figures *f, int *width)
{
	int len;

	for (size_t c = 0; c < f->n_columns; c++) {
		width[c] = (int)strlen(f->columns[c].header);
		len = (int)strlen(f->columns[c].unit);
		if (len > width[c])
			width[c] = len;
		for (size_t r = 0; r < f->n_rows; r++) {
			len = (int)strlen(figures_cell(f, r, c));
			if (len > width[c])
				width[c] = len;
		}
	}
}

/*
 * Prints one line of cells (the caller ends it), each aligned to its column's width; the
 * last column is left out when its cell is empty, and not padded when it is text.
 */
static void print_line(FILE *out, const struct figures *f, const int *width, const char *const *cells)
{
	size_t last = f->n_columns - 1;

	for (size_t c = 0; c < f->n_columns; c++) {
		if (c == last && !*cells[c])
			continue;
		if (c > 0)
			putc(' ', out);
		if (c == last && f->columns[c].text)
			fputs(cells[c], out);
		else
			fprintf(out, f->columns[c].text ? "%-*s" : "%*s", width[c], cells[c]);
	}
}

/* Prints the two header lines: column names, then units. */
static void print_header(FILE *out, const struct figures *f, const int *width)
{
	const char *cells[FIGURES_MAX_COLUMNS];

	for (size_t c = 0; c < f->n_columns; c++)
		cells[c] = f->columns[c].header;
	print_line(out, f, width, cells);
	putc('\n', out);
	for (size_t c = 0; c < f->n_columns; c++)
		cells[c] = f->columns[c].unit;
	print_line(out, f, width, cells);
	putc('\n', out);
}

/* Prints row r, marked with a trailing '*' when its run did not finish cleanly. */
static void print_row(FILE *out, const struct figures *f, const int *width, size_t r, bool complete)
{
	const char *cells[FIGURES_MAX_COLUMNS];

	for (size_t c = 0; c < f->n_columns; c++)
		cells[c] = figures_cell(f, r, c);
	print_line(out, f, width, cells);
	if (!complete)
		fputs(" *", out);
	putc('\n', out);
}

/*
 * Prints the machine line of r's runs when one knows its load: the range of the 1-minute
 * load averages at their starts and ends, the cores, the most CPU steal over a run, and how
 * many ran on a machine busier than its cores.
 */
static void print_machine(FILE *out, const struct invocation_result *r)
{
	double lo = INFINITY, hi = -INFINITY, steal = -1;
	size_t known = 0, busy = 0;
	uint64_t cores = 0;

	for (size_t i = 0; i < r->n_results; i++) {
		const struct machine_figures *m = &r->results[i].metrics.machine;

		if (isnan(m->load_start) && isnan(m->load_end))
			continue;
		known++;
		lo = fmin(lo, fmin(m->load_start, m->load_end));
		hi = fmax(hi, fmax(m->load_start, m->load_end));
		steal = isnan(m->steal_pct) ? steal : fmax(steal, m->steal_pct);
		cores = m->cores != METRIC_UNKNOWN ? m->cores : cores;
		busy += m->overloaded == 1;
	}
	if (!known)
		return;
	fprintf(out, "machine: load average %.2f to %.2f (1 minute, at the runs' starts and ends), %llu cores, CPU steal ",
		lo, hi, (unsigned long long)cores);
	if (steal < 0)
		fputs("unknown", out);
	else
		fprintf(out, "at most %.1f %%", steal);
	if (busy)
		fprintf(out, "; %zu of %zu runs started at a load average above the cores (the invocation's own run "
			"before counts in it for about a minute): their timings may carry other work's noise", busy, known);
	putc('\n', out);
}

/*
 * Prints the backend line, the settings line when there are settings, the machine line, and a
 * warning line when any run is incomplete.
 */
static void print_footer(FILE *out, const struct invocation_result *r)
{
	char backend[FIGURES_CELL], server[sizeof(r->server_version) + 1];
	char name[sizeof(r->settings[0].name) + 1], value[sizeof(r->settings[0].value) + 1];
	size_t i, incomplete = 0;

	text_clean(backend, sizeof(backend), r->backend, SIZE_MAX);
	text_clean(server, sizeof(server), r->server_version[0] ? r->server_version : NULL,
		   sizeof(r->server_version));
	fprintf(out, "backend: %s, server version: %s\n", backend, server);
	for (i = 0; i < r->n_settings && i < DB_MAX_SETTINGS; i++) {
		text_clean(name, sizeof(name), r->settings[i].name, sizeof(r->settings[i].name));
		text_clean(value, sizeof(value), r->settings[i].value, sizeof(r->settings[i].value));
		fprintf(out, "%s%s=%s", i ? ", " : "settings: ", name, value);
	}
	if (r->n_settings)
		putc('\n', out);
	print_machine(out, r);

	for (i = 0; i < r->n_results; i++)
		if (!r->results[i].complete)
			incomplete++;
	if (incomplete)
		fprintf(out, "results are incomplete: %zu of %zu runs (marked *) were interrupted or lost a worker\n",
			incomplete, r->n_results);
}

/* Width the key under a table is wrapped to at least. */
#define KEY_MIN_WIDTH 100

/* Prints the key of f's metric columns, "header = gloss" each, wrapped to the table's width (width[] its columns'). */
static void print_key(FILE *out, const struct figures *f, const int *width)
{
	const struct metric *m;
	size_t used = 0, len, wrap = 0;

	for (size_t c = 0; c < f->n_columns; c++)
		wrap += (size_t)width[c] + 1;
	wrap = wrap < KEY_MIN_WIDTH ? KEY_MIN_WIDTH : wrap;
	for (size_t c = 0; c < f->n_columns; c++) {
		m = f->columns[c].metric;
		if (!m || !m->cell.gloss)
			continue;
		/* "; " before it (or "key: "), "header = gloss", and the ";" that may end its line */
		len = (used ? 2 : 5) + strlen(m->cell.header) + 3 + strlen(m->cell.gloss) + 1;
		if (used && used + len > wrap) {
			fputs(";\n    ", out);
			used = 4;
		} else if (used) {
			fputs("; ", out);
			used += 2;
		}
		used += (size_t)fprintf(out, "%s%s = %s", used ? "" : "key: ", m->cell.header, m->cell.gloss);
	}
	if (used)
		putc('\n', out);
}

/*
 * Prints text after what the line already holds (start columns), wrapped at spaces to
 * width columns, continuation lines indented by indent, and ends the line.
 */
static void print_wrapped(FILE *out, const char *text, size_t start, size_t width, int indent)
{
	size_t col = start, word;

	while (*text) {
		word = strcspn(text, " ");
		if (col > (size_t)indent && col + word + 1 > width) {
			fprintf(out, "\n%*s", indent, "");
			col = (size_t)indent;
		} else if (col > (size_t)indent) {
			putc(' ', out);
			col++;
		}
		fwrite(text, 1, word, out);
		col += word;
		text += word;
		text += strspn(text, " ");
	}
	putc('\n', out);
}

/* Prints f aligned, its rows the runs in order, then its key. */
static void print_figures(FILE *out, const struct figures *f, const struct run_result *const *runs)
{
	int width[FIGURES_MAX_COLUMNS];

	column_widths(f, width);
	print_header(out, f, width);
	for (size_t i = 0; i < f->n_rows; i++)
		print_row(out, f, width, i, runs[i]->complete);
	print_key(out, f, width);
}

void results_print_legend(FILE *out)
{
	const struct metric *m;

	fputs("Columns of the table, with each one's name in JSON and expectations in [ ] (docs/metrics.md\n"
	      "defines each; --format csv and json carry every figure):\n", out);
	for (m = metric_table; m < metric_table + metric_table_len; m++) {
		if (!m->cell.header)
			continue;
		fprintf(out, "  %-10s %s%s [%s]\n", m->cell.header, m->definition,
			m->cell.place == CELL_MAIN_IF_ANY ? " (shown when a run has any)" :
			m->cell.place == CELL_MAIN_IF_ARRIVALS ? " (shown when a run has arrivals)" :
			m->cell.place == CELL_ASIDE ? " (in the faults table)" :
			m->cell.place == CELL_SERVER ? " (in the server table)" :
			m->cell.place == CELL_GUARD ? " (in the guarded-resources table)" : "", m->path);
	}
	fputs("A row ending in * is of a run that was interrupted or lost a worker.\n", out);
}

/*
 * Prints under "diagnosis:" each sampled run's diagnosis, labelled by strategy, mode,
 * workers and group, wrapped; the names and the text cleaned (text_clean).
 */
static void print_diagnoses(FILE *out, const struct invocation_result *r)
{
	char text[1024], strategy[FIGURES_CELL], mode[FIGURES_CELL], group[FIGURES_CELL];
	int label;

	fputs("diagnosis:\n", out);
	for (size_t i = 0; i < r->n_results; i++) {
		const struct run_result *run = &r->results[i];

		if (!diagnosis_write(run, r->backend, text, sizeof(text)) || !*text)
			continue;
		text_clean(text, sizeof(text), text, SIZE_MAX);
		text_clean(strategy, sizeof(strategy), run->strategy, SIZE_MAX);
		text_clean(mode, sizeof(mode), run->claim_mode, SIZE_MAX);
		text_clean(group, sizeof(group), run->group ? run->group : "", SIZE_MAX);
		label = fprintf(out, "  %s %s x%d%s%s:", strategy, mode, run->workers, *group ? " " : "", group);
		print_wrapped(out, text, label > 0 ? (size_t)label : 0, KEY_MIN_WIDTH, 4);
	}
}

/*
 * Prints the tables of the n queue runs: the figures, then the faults and the server
 * tables when a run has any. 0, or -1 when out of memory.
 */
static int print_queue_tables(FILE *out, const struct invocation_result *r, const struct run_result *const *runs, size_t n)
{
	struct figures f;

	if (figures_build(&f, runs, n, false) < 0)
		return -1;
	print_figures(out, &f, runs);
	figures_free(&f);
	timeline_print_table(out, runs, n);
	if (figures_any_faults(runs, n)) {
		if (figures_build_faults(&f, runs, n, false) < 0)
			return -1;
		fputs("\nfaults and recovery:\n", out);
		print_figures(out, &f, runs);
		figures_free(&f);
	}
	if (figures_any_server(runs, n)) {
		if (figures_build_server(&f, runs, n, false) < 0)
			return -1;
		fputs("\nthe server, sampled:\n", out);
		print_figures(out, &f, runs);
		figures_free(&f);
		print_diagnoses(out, r);
	}
	return 0;
}

int results_print_table(FILE *out, const struct invocation_result *r)
{
	const struct run_result **queue = calloc(r->n_results + 1, sizeof(*queue));
	const struct run_result **guarded = calloc(r->n_results + 1, sizeof(*guarded));
	size_t n_queue = 0, n_guarded = 0;
	struct figures f;
	int ret = -1;

	if (!queue || !guarded)
		goto out;
	for (size_t i = 0; i < r->n_results; i++) {
		if (figures_is_guarded(&r->results[i]))
			guarded[n_guarded++] = &r->results[i];
		else
			queue[n_queue++] = &r->results[i];
	}
	if (n_queue && print_queue_tables(out, r, queue, n_queue) < 0)
		goto out;
	if (n_guarded) {
		if (figures_build_guarded(&f, guarded, n_guarded) < 0)
			goto out;
		fputs(n_queue ? "\nguarded resources:\n" : "guarded resources:\n", out);
		print_figures(out, &f, guarded);
		figures_free(&f);
	}
	print_footer(out, r);
	ret = 0;
out:
	free(guarded);
	free(queue);
	return ret;
}
