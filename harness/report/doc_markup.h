/*
 * How report.md and report.html spell the blocks of a report: report_doc.c writes the
 * document once, block by block, and a markup (doc_markdown.c, doc_html.c) turns each
 * block into its own syntax, escaping the text it is given.
 */
#ifndef CLAIMBENCH_DOC_MARKUP_H
#define CLAIMBENCH_DOC_MARKUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/report_doc.h"
#include "output/figures.h"

/* One line of an invocation's environment table: "key_prefix key | value joiner value2". */
struct env_row {
	const char *key_prefix;	/* words before the key ("setting ") or "" */
	const char *key;	/* the key */
	const char *value;	/* the value */
	const char *joiner;	/* text between value and value2, "" when there is no value2 */
	const char *value2;	/* a second value, or "" */
};

/* A column of a grid (doc_markup.grid). */
struct grid_column {
	const char *header;	/* its header */
	bool code;		/* its cells are values as given (code; one on several lines kept so); a NULL cell is "—" */
	bool number;		/* its cells are numbers, aligned right */
};

/* Room for a heading's anchor (doc_slug), NUL included. */
#define DOC_SLUG 128

/*
 * Writes into slug (DOC_SLUG bytes) the anchor of a heading's text as git hosts make it:
 * lower case, letters, digits, '-' and '_' kept, a space as '-', the rest dropped.
 */
void doc_slug(const char *text, char *slug);

/*
 * The cell of row r, column c of f as the documents draw it: figures_cell's, but "n/a"
 * for a number not known (show's "-"), so that a reader sees it was not measured.
 */
const char *doc_figure_cell(const struct figures *f, size_t r, size_t c);

/* One markup's blocks. Text arguments are plain text; the markup escapes them. */
struct doc_markup {
	const char *file;	/* the document's file name in the output directory */
	void (*begin)(FILE *out, const char *title);		/* the document's start and its title */
	void (*heading)(FILE *out, int level, const char *text);	/* a section heading, level 2 to 4, its anchor doc_slug's */
	void (*toc)(FILE *out, const char *const *titles, size_t n);	/* the contents: a link to each level-2 heading */
	void (*paragraph)(FILE *out, const char *text);		/* a paragraph; `text` in backquotes is code */
	void (*prose)(FILE *out, const char *text);		/* a paragraph of names given (sections): no code */
	/*
	 * A table of the rows of figures f listed in rows (n_rows of them; rows NULL: every row),
	 * row r being of set->runs[r], coloured as set grouped it.
	 */
	void (*figures)(FILE *out, const struct chart_set *set, const struct figures *f, const size_t *rows,
			size_t n_rows);
	/* A table of n_cols columns and n_rows rows of cells, row after row (NULL: none). */
	void (*grid)(FILE *out, const struct grid_column *cols, size_t n_cols, const char *const *cells, size_t n_rows);
	void (*fold_begin)(FILE *out, const char *summary);	/* what follows is folded under summary, open in print */
	void (*fold_end)(FILE *out);				/* the end of the folded part */
	/* Chart c drawn in d->dir, under its heading and caption. 0, or -1 with err. */
	int (*chart)(FILE *out, const struct out_dir *dir, const struct chart *c, char *err, size_t errlen);
	void (*list)(FILE *out, char (*items)[256], size_t n);	/* a bulleted list of n items */
	void (*pairs)(FILE *out, const struct env_row *rows, size_t n); /* a two-column key/value table */
	void (*code)(FILE *out, const char *text);		/* preformatted text */
	void (*end)(FILE *out);					/* the document's end */
};

/* report.md: Markdown that renders on a git host. */
extern const struct doc_markup doc_markdown;

/* report.html: one self-contained page, the charts inline as SVG. */
extern const struct doc_markup doc_html;

#endif
