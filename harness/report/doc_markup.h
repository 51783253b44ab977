/*
 * How report.md and report.html spell the blocks of a report: report_doc.c writes the
 * document once, block by block, and a markup (doc_markdown.c, doc_html.c) turns each
 * block into its own syntax, escaping the text it is given.
 */
#ifndef CLAIMBENCH_DOC_MARKUP_H
#define CLAIMBENCH_DOC_MARKUP_H

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

/* One markup's blocks. Text arguments are plain text; the markup escapes them. */
struct doc_markup {
	const char *file;	/* the document's file name in the output directory */
	void (*begin)(FILE *out, const char *title);		/* the document's start and its title */
	void (*heading)(FILE *out, int level, const char *text);	/* a section heading, level 2 or 3 */
	void (*paragraph)(FILE *out, const char *text);		/* a paragraph; `text` in backquotes is code */
	/* A table of figures whose row r is of set->runs[r], coloured as set grouped it. */
	void (*figures)(FILE *out, const struct chart_set *set, const struct figures *f);
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
