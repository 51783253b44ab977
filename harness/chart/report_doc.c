/*
 * report.md and report.html of report_doc.h. The figures table is report_print_table's
 * own output, one run at a time, split into cells: the documents show exactly what
 * `claimbench show RUN` prints.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chart/report_doc.h"
#include "output/report.h"
#include "generated/version.h"

/* Columns of report_print_table the documents take at most. */
#define DOC_MAX_COLS 64

/* Room for one cell, NUL included. */
#define DOC_CELL 256

/* The figures of the runs as report_print_table prints them, split into cells. */
struct figures {
	size_t n_cols;				/* columns, the strategy's first */
	char names[DOC_MAX_COLS][32];		/* each column's first header line */
	char units[DOC_MAX_COLS][32];		/* its second header line, "" when none */
	char (*cells)[DOC_MAX_COLS][DOC_CELL];	/* a row of cells per run (owned) */
	size_t n_rows;				/* rows in cells */
};

/* The machine the report is made on. */
struct machine {
	char host[256];		/* host name */
	long cores;		/* processors online, -1 when unknown */
	double mem_gib;		/* MemTotal of /proc/meminfo in GiB, -1 when unknown */
};

/* One word of a line: where it starts and ends (exclusive). */
struct word {
	size_t start;	/* offset of its first character */
	size_t end;	/* offset just past its last character */
};

/* Splits line (up to its newline) into at most max words; the number found. */
static size_t split_words(const char *line, struct word *w, size_t max)
{
	size_t i = 0, n = 0;

	while (line[i] && line[i] != '\n') {
		if (line[i] == ' ') {
			i++;
			continue;
		}
		if (n < max)
			w[n].start = i;
		while (line[i] && line[i] != '\n' && line[i] != ' ')
			i++;
		if (n < max)
			w[n].end = i;
		n++;
	}
	return n < max ? n : max;
}

/* Copies line[start, end) into buf, truncated to fit. */
static void copy_span(char *buf, size_t size, const char *line, size_t start, size_t end)
{
	snprintf(buf, size, "%.*s", (int)(end - start), line + start);
}

/* The length of line up to its newline. */
static size_t line_len(const char *line)
{
	return strcspn(line, "\n");
}

/*
 * Reads the column names and units from the two header lines. A unit sits under its
 * name, right-aligned with it in a number column, left-aligned in a text column.
 */
static void parse_header(struct figures *f, const char *names, const char *units)
{
	struct word w[DOC_MAX_COLS];
	size_t i, s, e, len = line_len(units);

	f->n_cols = split_words(names, w, DOC_MAX_COLS);
	for (i = 0; i < f->n_cols; i++) {
		copy_span(f->names[i], sizeof(f->names[i]), names, w[i].start, w[i].end);
		f->units[i][0] = '\0';
		if (w[i].end - 1 < len && units[w[i].end - 1] != ' ') {
			for (s = w[i].end - 1; s > 0 && units[s - 1] != ' '; s--)
				;
			copy_span(f->units[i], sizeof(f->units[i]), units, s, w[i].end);
		} else if (w[i].start < len && units[w[i].start] != ' ') {
			for (e = w[i].start; e < len && units[e] != ' '; e++)
				;
			copy_span(f->units[i], sizeof(f->units[i]), units, w[i].start, e);
		}
	}
}

/*
 * Splits a run's row into f's row r: every column but the first is one word, so the
 * last n_cols - 1 words are they and the words before them the strategy cell. The
 * trailing '*' of an incomplete run is dropped. 0, or -1 when the row does not fit.
 */
static int parse_row(struct figures *f, size_t r, const char *row, bool complete)
{
	struct word w[DOC_MAX_COLS * 2];
	size_t n = split_words(row, w, DOC_MAX_COLS * 2), first, i;

	if (!complete && n && w[n - 1].end - w[n - 1].start == 1 && row[w[n - 1].start] == '*')
		n--;
	if (f->n_cols < 2 || n < f->n_cols)
		return -1;
	first = n - (f->n_cols - 1);
	copy_span(f->cells[r][0], DOC_CELL, row, w[0].start, w[first - 1].end);
	for (i = first; i < n; i++)
		copy_span(f->cells[r][i - first + 1], DOC_CELL, row, w[i].start, w[i].end);
	return 0;
}

/* Prints run s's table into memory and splits it into f's row r. 0, or -1 with err. */
static int figures_of_run(struct figures *f, size_t r, const struct store_run *s, char *err, size_t errlen)
{
	char *text = NULL, *units, *row;
	size_t len = 0;
	FILE *m;
	int ret = -1;

	m = open_memstream(&text, &len);
	if (!m) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	report_print_table(m, &s->report);
	if (fclose(m) != 0 || !text) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	units = strchr(text, '\n');
	row = units ? strchr(units + 1, '\n') : NULL;
	if (!row) {
		snprintf(err, errlen, "run %lld: the figures table is not as expected", s->run_id);
		goto out;
	}
	if (r == 0)
		parse_header(f, text, units + 1);
	if (parse_row(f, r, row + 1, s->run.complete) < 0) {
		snprintf(err, errlen, "run %lld: the figures row is not as expected", s->run_id);
		goto out;
	}
	ret = 0;
out:
	free(text);
	return ret;
}

/* Fills f with the figures of every run of d. 0, or -1 with err; free f->cells either way. */
static int figures_build(const struct report_doc *d, struct figures *f, char *err, size_t errlen)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	f->cells = calloc(d->n_runs ? d->n_runs : 1, sizeof(*f->cells));
	if (!f->cells) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < d->n_runs; i++)
		if (figures_of_run(f, i, &d->runs[i], err, errlen) < 0)
			return -1;
	f->n_rows = d->n_runs;
	return 0;
}

/* Reads the machine's name, processors and memory. */
static void machine_read(struct machine *m)
{
	char line[256];
	unsigned long long kib;
	FILE *f;

	m->host[0] = '\0';
	if (gethostname(m->host, sizeof(m->host) - 1) < 0)
		snprintf(m->host, sizeof(m->host), "unknown");
	m->host[sizeof(m->host) - 1] = '\0';
	m->cores = sysconf(_SC_NPROCESSORS_ONLN);
	m->mem_gib = -1;
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kib) == 1)
			m->mem_gib = (double)kib / (1024.0 * 1024.0);
	fclose(f);
}

/* Whether invocation d->invocations[i] appeared at an earlier run. */
static bool seen_before(const struct report_doc *d, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (d->invocations[j] == d->invocations[i])
			return true;
	return false;
}

/* The notes under the charts: runs without a time series, incomplete runs. */
static void print_notes(FILE *out, const struct report_doc *d, const char *item, const char *end)
{
	size_t i, incomplete = 0;

	if (d->set->runs_without_series == d->n_runs)
		fprintf(out, "%sNo run has a time series in the store (it was recorded by a claimbench that did "
			"not keep one): the timeline is empty.%s\n", item, end);
	else if (d->set->runs_without_series)
		fprintf(out, "%s%zu of %zu runs have no time series in the store: the timeline shows the others.%s\n",
			item, d->set->runs_without_series, d->n_runs, end);
	for (i = 0; i < d->n_runs; i++)
		incomplete += !d->runs[i].run.complete;
	if (incomplete)
		fprintf(out, "%s%zu of %zu runs are incomplete (marked *): interrupted, or a worker aborted.%s\n", item,
			incomplete, d->n_runs, end);
}

/* What each chart shows, under its heading. */
static const char *const chart_captions[CHART_COUNT] = {
	[CHART_THROUGHPUT] = "Completed jobs per second against the number of workers, a line per strategy; "
			     "the mean over repeats with min-max bars.",
	[CHART_MAKESPAN] = "Start barrier to the last completion, per strategy and worker count, the mean over "
			   "repeats; the dashed mark is the ideal, the total work divided by the workers.",
	[CHART_SHARES] = "Each worker's share of the completed jobs (a bar per worker); a fair strategy keeps every "
			 "bar at the dashed fair share.",
	[CHART_LATENCY] = "Claim latency (start of a claim attempt to the job in hand, retries and lock waits "
			  "included) at p50, p90, p99, p99.9 and max, log scale.",
	[CHART_TIMELINE] = "Completions per 100 ms bucket (above) and completed jobs so far (below), the first "
			   "repetition of each strategy and worker count: blocking shows as gaps, convoys as bursts.",
	[CHART_INTEGRITY] = "Duplicate executions, overlapping executions of one job, and lost jobs, the mean over "
			    "repeats: a correct strategy shows none.",
};

/* ---- Markdown ---- */

/* Prints s in a Markdown table cell: '|' escaped, control characters as '?'. */
static void md_cell(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else
			putc((unsigned char)*s < 0x20 ? '?' : *s, out);
	}
}

/* Prints s as a Markdown code block, its fence longer than any backtick run inside. */
static void md_code(FILE *out, const char *s)
{
	size_t run = 0, longest = 0, i;

	for (i = 0; s[i]; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	longest = longest < 3 ? 3 : longest + 1;
	for (i = 0; i < longest; i++)
		putc('`', out);
	fprintf(out, "text\n%s%s", s, *s && s[strlen(s) - 1] == '\n' ? "" : "\n");
	for (i = 0; i < longest; i++)
		putc('`', out);
	putc('\n', out);
}

/* The figures table in Markdown: a row per run, its id first. */
static void md_figures(FILE *out, const struct report_doc *d, const struct figures *f)
{
	size_t r, c;

	fputs("| run |", out);
	for (c = 0; c < f->n_cols; c++) {
		fputc(' ', out);
		md_cell(out, f->names[c]);
		if (f->units[c][0])
			fprintf(out, " (%s)", f->units[c]);
		fputs(" |", out);
	}
	fputs("\n|---:|", out);
	for (c = 0; c < f->n_cols; c++)
		fputs(c < 2 ? "---|" : "---:|", out);
	putc('\n', out);
	for (r = 0; r < f->n_rows; r++) {
		fprintf(out, "| %lld%s |", d->runs[r].run_id, d->runs[r].run.complete ? "" : " *");
		for (c = 0; c < f->n_cols; c++) {
			putc(' ', out);
			md_cell(out, f->cells[r][c]);
			fputs(" |", out);
		}
		putc('\n', out);
	}
}

/* One line of an invocation's environment table: "key_prefix key | value joiner value2". */
struct env_row {
	const char *key_prefix;	/* words before the key ("setting ") or "" */
	const char *key;	/* the key */
	const char *value;	/* the value */
	const char *joiner;	/* text between value and value2, "" when there is no value2 */
	const char *value2;	/* a second value, or "" */
};

/* The most rows env_rows writes: six fixed ones and the settings. */
#define ENV_ROWS (6 + DB_MAX_SETTINGS)

/* Writes the environment rows of run s's invocation into rows (seed is room for the seed's text). Their number. */
static size_t env_rows(const struct store_run *s, struct env_row *rows, char *seed, size_t seed_len)
{
	size_t n = 0;

	snprintf(seed, seed_len, "%llu", s->report.seed);
	rows[n++] = (struct env_row){ "", "started at", s->report.started_at, "", "" };
	rows[n++] = (struct env_row){ "", "host", s->ctx.host, "", "" };
	rows[n++] = (struct env_row){ "", "claimbench", s->ctx.version, ", git revision ", s->ctx.git_revision };
	rows[n++] = (struct env_row){ "", "backend", s->report.backend, ", server version ", s->report.server_version };
	rows[n++] = (struct env_row){ "", "scenario", s->report.scenario, "", "" };
	rows[n++] = (struct env_row){ "", "seed", seed, "", "" };
	for (size_t k = 0; k < s->report.n_settings && n < ENV_ROWS; k++)
		rows[n++] = (struct env_row){ "setting ", s->report.settings[k].name, s->report.settings[k].value, "", "" };
	return n;
}

/* The environment of each invocation, then the machine the report was made on, in Markdown. */
static void md_environment(FILE *out, const struct report_doc *d, const struct machine *m)
{
	struct env_row rows[ENV_ROWS];
	char seed[32];

	fputs("\n## Environment\n", out);
	for (size_t i = 0; i < d->n_runs; i++) {
		const struct store_run *s = &d->runs[i];
		size_t n;

		if (seen_before(d, i))
			continue;
		fprintf(out, "\n### Invocation %lld\n\n| | |\n|---|---|\n", d->invocations[i]);
		n = env_rows(s, rows, seed, sizeof(seed));
		for (size_t r = 0; r < n; r++) {
			fprintf(out, "| %s", rows[r].key_prefix);
			md_cell(out, rows[r].key);
			fputs(" | ", out);
			md_cell(out, rows[r].value);
			fputs(rows[r].joiner, out);
			md_cell(out, rows[r].value2);
			fputs(" |\n", out);
		}
		fprintf(out, "\nScenario text of invocation %lld:\n\n", d->invocations[i]);
		md_code(out, s->ctx.scenario_text ? s->ctx.scenario_text : "(none stored)");
	}
	fputs("\n### Machine\n\n", out);
	fprintf(out, "This report was made by claimbench %s (git revision %s) on host ", CLAIMBENCH_VERSION,
		CLAIMBENCH_GIT_REVISION);
	md_cell(out, m->host);
	fprintf(out, ": %ld processors online, %.1f GiB of memory.\n", m->cores, m->mem_gib);
}

/* Opens dir/name for writing. The stream, or NULL with err. */
static FILE *open_doc(const char *dir, const char *name, char *path, size_t size, char *err, size_t errlen)
{
	FILE *out;

	snprintf(path, size, "%s/%s", dir, name);
	out = fopen(path, "w");
	if (!out)
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
	return out;
}

/* Closes out, written to path. 0, or -1 with err. */
static int close_doc(FILE *out, const char *path, char *err, size_t errlen)
{
	if (ferror(out) | (fclose(out) != 0)) {
		snprintf(err, errlen, "cannot write %s", path);
		return -1;
	}
	return 0;
}

int report_doc_markdown(const struct report_doc *d, char *err, size_t errlen)
{
	struct figures f;
	struct machine m;
	char path[4096];
	FILE *out = NULL;
	size_t i;
	int ret = -1;

	if (figures_build(d, &f, err, errlen) < 0)
		goto out;
	out = open_doc(d->dir, "report.md", path, sizeof(path), err, errlen);
	if (!out)
		goto out;
	machine_read(&m);
	fputs("# claimbench report: ", out);
	md_cell(out, d->subject);
	fputs("\n\n## Figures\n\nAs `claimbench show RUN` prints them; a run marked * is incomplete.\n\n", out);
	md_figures(out, d, &f);
	fputs("\n## Charts\n\nEach strategy keeps its colour in every chart; its other claim modes, sections "
	      "and worker counts are shades of it.\n", out);
	for (i = 0; i < d->n_charts; i++)
		fprintf(out, "\n### %s\n\n%s\n\n![%s](%s.png)\n\n[SVG](%s.svg) · [data](%s.tsv)\n", d->charts[i].title,
			chart_captions[d->charts[i].kind], d->charts[i].title, d->charts[i].name, d->charts[i].name,
			d->charts[i].name);
	putc('\n', out);
	print_notes(out, d, "- ", "");
	md_environment(out, d, &m);
	ret = close_doc(out, path, err, errlen);
out:
	free(f.cells);
	return ret;
}

/* ---- HTML ---- */

/* Prints s with &, <, >, " escaped and control characters but newline as '?'. */
static void html_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			putc((unsigned char)*s < 0x20 && *s != '\n' ? '?' : *s, out);
		}
	}
}

/* The figures table in HTML, each run's strategy with its colour beside it. */
static void html_figures(FILE *out, const struct report_doc *d, const struct figures *f)
{
	char rgb[8];
	size_t r, c, k;

	fputs("<table>\n<tr><th>run</th>", out);
	for (c = 0; c < f->n_cols; c++) {
		fputs("<th>", out);
		html_text(out, f->names[c]);
		if (f->units[c][0]) {
			fputs("<br><small>", out);
			html_text(out, f->units[c]);
			fputs("</small>", out);
		}
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (r = 0; r < f->n_rows; r++) {
		k = d->set->case_of[r];
		chart_shade(d->set->series[d->set->cases[k].series].strategy, d->set->cases[k].variant, rgb);
		fprintf(out, "<tr><td>%lld%s</td>", d->runs[r].run_id, d->runs[r].run.complete ? "" : " *");
		for (c = 0; c < f->n_cols; c++) {
			fputs(c < 2 ? "<td class=\"t\">" : "<td>", out);
			if (c == 0)
				fprintf(out, "<span class=\"chip\" style=\"background:%s\"></span>", rgb);
			html_text(out, f->cells[r][c]);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* Copies dir/NAME.svg into out from its <svg element on (the XML prolog dropped). 0, or -1 with err. */
static int html_svg(FILE *out, const char *dir, const char *name, char *err, size_t errlen)
{
	char path[4096], *text = NULL, *svg;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int ret = -1;

	snprintf(path, sizeof(path), "%s/%s.svg", dir, name);
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	len = getdelim(&text, &cap, '\0', f);
	svg = len > 0 ? strstr(text, "<svg") : NULL;
	if (!svg) {
		snprintf(err, errlen, "%s holds no <svg> element", path);
		goto out;
	}
	fputs(svg, out);
	ret = 0;
out:
	free(text);
	fclose(f);
	return ret;
}

/* The environment of each invocation, then the machine the report was made on, in HTML. */
static void html_environment(FILE *out, const struct report_doc *d, const struct machine *m)
{
	struct env_row rows[ENV_ROWS];
	char seed[32];

	fputs("<h2>Environment</h2>\n", out);
	for (size_t i = 0; i < d->n_runs; i++) {
		const struct store_run *s = &d->runs[i];
		size_t n;

		if (seen_before(d, i))
			continue;
		fprintf(out, "<h3>Invocation %lld</h3>\n<table class=\"env\">\n", d->invocations[i]);
		n = env_rows(s, rows, seed, sizeof(seed));
		for (size_t r = 0; r < n; r++) {
			fprintf(out, "<tr><th>%s", rows[r].key_prefix);
			html_text(out, rows[r].key);
			fputs("</th><td>", out);
			html_text(out, rows[r].value);
			fputs(rows[r].joiner, out);
			html_text(out, rows[r].value2);
			fputs("</td></tr>\n", out);
		}
		fprintf(out, "</table>\n<p>Scenario text of invocation %lld:</p>\n<pre>", d->invocations[i]);
		html_text(out, s->ctx.scenario_text ? s->ctx.scenario_text : "(none stored)");
		fputs("</pre>\n", out);
	}
	fprintf(out, "<h3>Machine</h3>\n<p>This report was made by claimbench %s (git revision %s) on host ",
		CLAIMBENCH_VERSION, CLAIMBENCH_GIT_REVISION);
	html_text(out, m->host);
	fprintf(out, ": %ld processors online, %.1f GiB of memory.</p>\n", m->cores, m->mem_gib);
}

/* The page's style: no external resource. */
static const char html_style[] =
	"body{font-family:sans-serif;margin:2em auto;max-width:1100px;color:#222}\n"
	"table{border-collapse:collapse;font-size:13px;margin:1em 0}\n"
	"th,td{border:1px solid #ccc;padding:3px 6px;text-align:right;vertical-align:top}\n"
	"td.t,table.env td,table.env th{text-align:left}\n"
	"th{background:#f3f3f3}\n"
	".chip{display:inline-block;width:.9em;height:.9em;margin-right:.4em;vertical-align:middle}\n"
	"svg{max-width:100%;height:auto;display:block}\n"
	"pre{background:#f6f6f6;padding:.8em;overflow:auto}\n";

int report_doc_html(const struct report_doc *d, char *err, size_t errlen)
{
	struct figures f;
	struct machine m;
	char path[4096];
	FILE *out = NULL;
	size_t i;
	int ret = -1;

	if (figures_build(d, &f, err, errlen) < 0)
		goto out;
	out = open_doc(d->dir, "report.html", path, sizeof(path), err, errlen);
	if (!out)
		goto out;
	machine_read(&m);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>claimbench report: ", out);
	html_text(out, d->subject);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>claimbench report: ", html_style);
	html_text(out, d->subject);
	fputs("</h1>\n<h2>Figures</h2>\n<p>As <code>claimbench show RUN</code> prints them; a run marked * is "
	      "incomplete.</p>\n", out);
	html_figures(out, d, &f);
	fputs("<h2>Charts</h2>\n<p>Each strategy keeps its colour in every chart; its other claim modes, sections "
	      "and worker counts are shades of it.</p>\n", out);
	for (i = 0; i < d->n_charts; i++) {
		fprintf(out, "<h3>%s</h3>\n<p>%s</p>\n", d->charts[i].title, chart_captions[d->charts[i].kind]);
		if (html_svg(out, d->dir, d->charts[i].name, err, errlen) < 0) {
			fclose(out);
			goto out;
		}
	}
	fputs("<ul>\n", out);
	print_notes(out, d, "<li>", "</li>");
	fputs("</ul>\n", out);
	html_environment(out, d, &m);
	fputs("</body>\n</html>\n", out);
	ret = close_doc(out, path, err, errlen);
out:
	free(f.cells);
	return ret;
}
