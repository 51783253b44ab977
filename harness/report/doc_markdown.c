/* The Markdown spelling of a report's blocks (doc_markup.h): every block after the title starts with a blank line. */
#include <string.h>

#include "report/doc_markup.h"

/*
 * Prints s with control characters as '?'. In a table cell, which holds what a store or a
 * user named (strategies, hosts, settings), '|' (which ends a cell) is escaped, '<', '>'
 * and '&' become entities, so that no name is taken as HTML, and a line break (in a
 * strategy's SQL) is a space.
 */
static void md_text(FILE *out, const char *s, bool cell)
{
	for (; s && *s; s++) {
		if (cell && *s == '|')
			fputs("\\|", out);
		else if (cell && *s == '<')
			fputs("&lt;", out);
		else if (cell && *s == '>')
			fputs("&gt;", out);
		else if (cell && *s == '&')
			fputs("&amp;", out);
		else if (cell && *s == '\n')
			putc(' ', out);
		else
			putc((unsigned char)*s < 0x20 ? '?' : *s, out);
	}
}

/* The title as a level-1 heading. */
static void md_begin(FILE *out, const char *title)
{
	fputs("# ", out);
	md_text(out, title, false);
	putc('\n', out);
}

/* A heading of level hashes. */
static void md_heading(FILE *out, int level, const char *text)
{
	fprintf(out, "\n%.*s ", level, "######");
	md_text(out, text, false);
	putc('\n', out);
}

/* A paragraph; backquoted code stays as it is, which is Markdown already. */
static void md_paragraph(FILE *out, const char *text)
{
	putc('\n', out);
	md_text(out, text, false);
	putc('\n', out);
}

/* The figures table: a row per run, its id first. */
static void md_figures(FILE *out, const struct chart_set *set, const struct figures *f)
{
	size_t r, c;

	fputs("\n| run |", out);
	for (c = 0; c < f->n_columns; c++) {
		putc(' ', out);
		md_text(out, f->columns[c].header, true);
		if (f->columns[c].unit[0])
			fprintf(out, " (%s)", f->columns[c].unit);
		fputs(" |", out);
	}
	fputs("\n|---:|", out);
	for (c = 0; c < f->n_columns; c++)
		fputs(f->columns[c].text ? "---|" : "---:|", out);
	putc('\n', out);
	for (r = 0; r < f->n_rows; r++) {
		fprintf(out, "| %lld%s |", set->runs[r].run.run_id, set->runs[r].run.complete ? "" : " *");
		for (c = 0; c < f->n_columns; c++) {
			putc(' ', out);
			md_text(out, figures_cell(f, r, c), true);
			fputs(" |", out);
		}
		putc('\n', out);
	}
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
		md_text(out, items[i], false);
		putc('\n', out);
	}
}

/* A table of two columns with empty headers. */
static void md_pairs(FILE *out, const struct env_row *rows, size_t n)
{
	fputs("\n| | |\n|---|---|\n", out);
	for (size_t r = 0; r < n; r++) {
		fprintf(out, "| %s", rows[r].key_prefix);
		md_text(out, rows[r].key, true);
		fputs(" | ", out);
		md_text(out, rows[r].value, true);
		fputs(rows[r].joiner, out);
		md_text(out, rows[r].value2, true);
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
	.paragraph = md_paragraph,
	.figures = md_figures,
	.chart = md_chart,
	.list = md_list,
	.pairs = md_pairs,
	.code = md_code,
	.end = md_end,
};
