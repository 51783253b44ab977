/* The Markdown spelling of a report's blocks (doc_markup.h): every block after the title starts with a blank line. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/doc_markup.h"

/* Where md_textn writes text, which says what it escapes. */
enum md_place {
	MD_CELL,	/* a table cell: '|' escaped, '<', '>', '&' entities, a line break a space */
	MD_LINE,	/* a title, heading or link text: '<', '>', '&' entities, '`' escaped */
	MD_PROSE,	/* a paragraph's text outside code: '<', '>', '&' entities, '`' kept (code spans) */
	MD_CODE,	/* inside a code span: as it is */
};

/*
 * Prints at most max bytes of s (nothing when NULL) with control characters as '?',
 * escaped as place says, so that no name a store or a user gave (strategies, sections,
 * hosts, settings) is taken as HTML or Markdown: in a cell, '|' (which ends it) too and a
 * line break (in a strategy's SQL) as a space.
 */
static void md_textn(FILE *out, const char *s, size_t max, enum md_place place)
{
	if (!s)
		return;
	for (const char *end = s + strnlen(s, max); s < end; s++) {
		if (place == MD_CELL && *s == '|')
			fputs("\\|", out);
		else if (place != MD_CODE && *s == '<')
			fputs("&lt;", out);
		else if (place != MD_CODE && *s == '>')
			fputs("&gt;", out);
		else if (place != MD_CODE && *s == '&')
			fputs("&amp;", out);
		else if (place == MD_LINE && *s == '`')
			fputs("\\`", out);
		else if (place == MD_CELL && *s == '\n')
			putc(' ', out);
		else
			putc((unsigned char)*s < 0x20 ? '?' : *s, out);
	}
}

const char *doc_figure_cell(const struct figures *f, size_t r, size_t c)
{
	const char *cell = figures_cell(f, r, c);

	return !f->columns[c].text && strcmp(cell, "-") == 0 ? "n/a" : cell;
}

void doc_slug(const char *text, char *slug)
{
	size_t n = 0;

	for (; *text && n + 1 < DOC_SLUG; text++) {
		unsigned char c = (unsigned char)*text;

		if (isalnum(c) || c == '-' || c == '_')
			slug[n++] = (char)tolower(c);
		else if (c == ' ')
			slug[n++] = '-';
	}
	slug[n] = '\0';
}

/* md_textn of the whole of s. */
static void md_text(FILE *out, const char *s, enum md_place place)
{
	md_textn(out, s, SIZE_MAX, place);
}

/* The title as a level-1 heading. */
static void md_begin(FILE *out, const char *title)
{
	fputs("# ", out);
	md_text(out, title, MD_LINE);
	putc('\n', out);
}

/* A heading of level hashes. */
static void md_heading(FILE *out, int level, const char *text)
{
	fprintf(out, "\n%.*s ", level, "######");
	md_text(out, text, MD_LINE);
	putc('\n', out);
}

/* The contents: a numbered list of links to the level-2 headings. */
static void md_toc(FILE *out, const char *const *titles, size_t n)
{
	char slug[DOC_SLUG];

	fputs("\n**Contents**\n\n", out);
	for (size_t i = 0; i < n; i++) {
		doc_slug(titles[i], slug);
		fprintf(out, "%zu. [", i + 1);
		md_text(out, titles[i], MD_LINE);
		fprintf(out, "](#%s)\n", slug);
	}
}

/* A paragraph; a span between two backquotes stays code as it is, the text around it escaped. */
static void md_paragraph(FILE *out, const char *text)
{
	const char *open, *close;

	putc('\n', out);
	while ((open = strchr(text, '`')) && (close = strchr(open + 1, '`'))) {
		md_textn(out, text, (size_t)(open - text), MD_PROSE);
		md_textn(out, open, (size_t)(close - open + 1), MD_CODE);
		text = close + 1;
	}
	md_text(out, text, MD_PROSE);
	putc('\n', out);
}

/* The figures table of the rows asked (all when rows is NULL): a row per run, its id first. */
static void md_figures(FILE *out, const struct chart_set *set, const struct figures *f, const size_t *rows,
		       size_t n_rows)
{
	size_t i, r, c;

	fputs("\n| run |", out);
	for (c = 0; c < f->n_columns; c++) {
		putc(' ', out);
		md_text(out, f->columns[c].header, MD_CELL);
		if (f->columns[c].unit[0])
			fprintf(out, " (%s)", f->columns[c].unit);
		fputs(" |", out);
	}
	fputs("\n|---:|", out);
	for (c = 0; c < f->n_columns; c++)
		fputs(f->columns[c].text ? "---|" : "---:|", out);
	putc('\n', out);
	for (i = 0; i < (rows ? n_rows : f->n_rows); i++) {
		r = rows ? rows[i] : i;
		fprintf(out, "| %lld%s |", set->runs[r].run.run_id, set->runs[r].run.complete ? "" : " *");
		for (c = 0; c < f->n_columns; c++) {
			putc(' ', out);
			md_text(out, doc_figure_cell(f, r, c), MD_CELL);
			fputs(" |", out);
		}
		putc('\n', out);
	}
}

/*
 * Prints the len bytes at s as a code span in a table cell: fenced by more backquotes than
 * it holds in a row, '|' escaped (as a table cell needs even in code), control characters '?'.
 */
static void md_code_span(FILE *out, const char *s, size_t len)
{
	size_t run = 0, longest = 0, i;

	for (i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	for (i = 0; i <= longest; i++)
		putc('`', out);
	if (longest)
		putc(' ', out);
	for (i = 0; i < len; i++) {
		if (s[i] == '|')
			fputs("\\|", out);
		else
			putc((unsigned char)s[i] < 0x20 ? '?' : s[i], out);
	}
	if (longest)
		putc(' ', out);
	for (i = 0; i <= longest; i++)
		putc('`', out);
}

/*
 * One cell of a grid's code column: "—" for NULL, else each line joined by <br>, as a code
 * span, or as escaped text when it holds '<', '>' or '&' (which a code span would show as
 * written, entities and all, and which as such no renderer may take for HTML).
 */
static void md_value(FILE *out, const char *v)
{
	size_t len;

	if (!v) {
		fputs("\u2014", out);
		return;
	}
	for (;;) {
		len = strcspn(v, "\n");
		if (strcspn(v, "<>&") < len)
			md_textn(out, v, len, MD_CELL);
		else
			md_code_span(out, v, len);
		if (!v[len])
			return;
		fputs("<br>", out);
		v += len + 1;
	}
}

/* A table: a header row, then a row per n_cols cells. */
static void md_grid(FILE *out, const struct grid_column *cols, size_t n_cols, const char *const *cells,
		    size_t n_rows)
{
	size_t r, c;

	fputs("\n|", out);
	for (c = 0; c < n_cols; c++) {
		putc(' ', out);
		md_text(out, cols[c].header, MD_CELL);
		fputs(" |", out);
	}
	fputs("\n|", out);
	for (c = 0; c < n_cols; c++)
		fputs(cols[c].number ? "---:|" : "---|", out);
	putc('\n', out);
	for (r = 0; r < n_rows; r++) {
		putc('|', out);
		for (c = 0; c < n_cols; c++) {
			putc(' ', out);
			if (cols[c].code)
				md_value(out, cells[r * n_cols + c]);
			else
				md_text(out, cells[r * n_cols + c], MD_CELL);
			fputs(" |", out);
		}
		putc('\n', out);
	}
}

/* A paragraph of plain text: every character escaped, backquotes too. */
static void md_prose(FILE *out, const char *text)
{
	putc('\n', out);
	md_text(out, text, MD_LINE);
	putc('\n', out);
}

/* An HTML <details> (git hosts render it), its summary escaped as HTML. */
static void md_fold_begin(FILE *out, const char *summary)
{
	fputs("\n<details><summary>", out);
	md_text(out, summary, MD_CELL);
	fputs("</summary>\n", out);
}

/* </details>, on a line of its own after a blank one. */
static void md_fold_end(FILE *out)
{
	fputs("\n</details>\n", out);
}

/* The chart's PNG inline, with links to its SVG and data. Always 0. */
static int md_chart(FILE *out, const struct out_dir *dir, const struct chart *c, char *err, size_t errlen)
{
	(void)dir;
	(void)err;
	(void)errlen;
	fprintf(out, "\n![%s](%s.png)\n\n[SVG](%s.svg) · [data](%s.tsv)\n", c->title, c->name, c->name, c->name);
	return 0;
}

/* A "- item" line per item. */
static void md_list(FILE *out, char (*items)[256], size_t n)
{
	putc('\n', out);
	for (size_t i = 0; i < n; i++) {
		fputs("- ", out);
		md_text(out, items[i], MD_PROSE);
		putc('\n', out);
	}
}

/* A table of two columns with empty headers. */
static void md_pairs(FILE *out, const struct env_row *rows, size_t n)
{
	fputs("\n| | |\n|---|---|\n", out);
	for (size_t r = 0; r < n; r++) {
		fprintf(out, "| %s", rows[r].key_prefix);
		md_text(out, rows[r].key, MD_CELL);
		fputs(" | ", out);
		md_text(out, rows[r].value, MD_CELL);
		fputs(rows[r].joiner, out);
		md_text(out, rows[r].value2, MD_CELL);
		fputs(" |\n", out);
	}
}

/* A code block, its fence longer than any backtick run inside. */
static void md_code(FILE *out, const char *s)
{
	size_t run = 0, longest = 0, i;

	for (i = 0; s[i]; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	longest = longest < 3 ? 3 : longest + 1;
	putc('\n', out);
	for (i = 0; i < longest; i++)
		putc('`', out);
	fprintf(out, "text\n%s%s", s, *s && s[strlen(s) - 1] == '\n' ? "" : "\n");
	for (i = 0; i < longest; i++)
		putc('`', out);
	putc('\n', out);
}

/* Nothing: Markdown has no closing. */
static void md_end(FILE *out)
{
	(void)out;
}

const struct doc_markup doc_markdown = {
	.file = "report.md",
	.begin = md_begin,
	.heading = md_heading,
	.toc = md_toc,
	.paragraph = md_paragraph,
	.prose = md_prose,
	.figures = md_figures,
	.grid = md_grid,
	.fold_begin = md_fold_begin,
	.fold_end = md_fold_end,
	.chart = md_chart,
	.list = md_list,
	.pairs = md_pairs,
	.code = md_code,
	.end = md_end,
};
