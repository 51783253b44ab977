/* The HTML spelling of a report's blocks (doc_markup.h): one page with no external resource. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart_colour.h"
#include "report/doc_markup.h"

/*
 * The page's style: prose kept to a readable width, tables and charts as wide as they are
 * (a table wider than the window scrolls in its own box); in print, landscape pages, every
 * table whole in small type, each part on a page of its own, folded parts open.
 */
static const char html_style[] =
	"body{font-family:sans-serif;margin:2em;color:#222}\n"
	"p,li,h1,h2,h3,h4,summary{max-width:70em}\n"
	".scroll{overflow-x:auto;max-width:100%;margin:1em 0}\n"
	"table{border-collapse:collapse;font-size:12px}\n"
	"th,td{border:1px solid #ccc;padding:2px 4px;text-align:right;vertical-align:top}\n"
	"td.t,table.env td,table.env th,table.grid td.t,table.grid th{text-align:left}\n"
	"td.t{white-space:nowrap}\ntable.grid td.t{white-space:normal}\n"
	"th{background:#f3f3f3}\n"
	"table.grid pre{margin:0;padding:.3em;background:#f6f6f6}\n"
	".chip{display:inline-block;width:.9em;height:.9em;margin-right:.4em;vertical-align:middle}\n"
	"svg{max-width:1100px;width:100%;height:auto;display:block}\n"
	"pre{background:#f6f6f6;padding:.8em;overflow:auto}\n"
	"nav.toc{border:1px solid #ddd;background:#fafafa;padding:.2em 1.2em;display:inline-block}\n"
	"details{margin:.5em 0}\nsummary{cursor:pointer;font-weight:bold}\n"
	"@media print{\n"
	"@page{size:A4 landscape;margin:10mm}\n"
	"body{margin:0;font-size:10px}\n"
	".scroll{overflow:visible}\n"
	"table{font-size:7px}\nth,td{padding:1px 2px}\n"
	"tr,svg,pre{break-inside:avoid}\n"
	"h2{break-before:page}\nh3,h4{break-after:avoid}\n"
	"pre{white-space:pre-wrap;overflow:visible}\n"
	"details::details-content{content-visibility:visible;display:block}\n"
	"summary{list-style:none}\n"
	"nav.toc{border:none}\n"
	"}\n";

/* Prints at most max bytes of s with &, <, >, " escaped and control characters but newline as '?'. */
static void html_textn(FILE *out, const char *s, size_t max)
{
	for (size_t i = 0; s && i < max && s[i]; i++) {
		switch (s[i]) {
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
			putc((unsigned char)s[i] < 0x20 && s[i] != '\n' ? '?' : s[i], out);
		}
	}
}

/* Prints s escaped. */
static void html_text(FILE *out, const char *s)
{
	html_textn(out, s, SIZE_MAX);
}

/* The page's head, its style inline, and the title as <h1>. */
static void html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
	html_text(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", html_style);
	html_text(out, title);
	fputs("</h1>\n", out);
}

/* A heading <hN>; a level-2 one with its anchor as id, for the contents to link to. */
static void html_heading(FILE *out, int level, const char *text)
{
	char slug[DOC_SLUG];

	doc_slug(text, slug);
	if (level == 2)
		fprintf(out, "<h2 id=\"%s\">", slug);
	else
		fprintf(out, "<h%d>", level);
	html_text(out, text);
	fprintf(out, "</h%d>\n", level);
}

/* The contents: a numbered list of links to the level-2 headings. */
static void html_toc(FILE *out, const char *const *titles, size_t n)
{
	char slug[DOC_SLUG];

	fputs("<nav class=\"toc\"><p><b>Contents</b></p>\n<ol>\n", out);
	for (size_t i = 0; i < n; i++) {
		doc_slug(titles[i], slug);
		fprintf(out, "<li><a href=\"#%s\">", slug);
		html_text(out, titles[i]);
		fputs("</a></li>\n", out);
	}
	fputs("</ol>\n</nav>\n", out);
}

/* A paragraph of plain text, escaped, backquotes as they are. */
static void html_prose(FILE *out, const char *text)
{
	fputs("<p>", out);
	html_text(out, text);
	fputs("</p>\n", out);
}

/* A paragraph; a span between two backquotes becomes <code>, a lone backquote stays as it is. */
static void html_paragraph(FILE *out, const char *text)
{
	const char *open, *close;

	fputs("<p>", out);
	while ((open = strchr(text, '`')) && (close = strchr(open + 1, '`'))) {
		html_textn(out, text, (size_t)(open - text));
		fputs("<code>", out);
		html_textn(out, open + 1, (size_t)(close - open - 1));
		fputs("</code>", out);
		text = close + 1;
	}
	html_text(out, text);
	fputs("</p>\n", out);
}

/* The figures table of the rows asked (all when rows is NULL), each run's strategy with its colour beside it. */
static void html_figures(FILE *out, const struct chart_set *set, const struct figures *f, const size_t *rows,
			 size_t n_rows)
{
	char rgb[8];
	size_t i, r, c, k;

	fputs("<div class=\"scroll\"><table>\n<tr><th>run</th>", out);
	for (c = 0; c < f->n_columns; c++) {
		fputs("<th title=\"", out);
		html_text(out, f->columns[c].gloss);
		fputs("\">", out);
		html_text(out, f->columns[c].header);
		if (f->columns[c].unit[0]) {
			fputs("<br><small>", out);
			html_text(out, f->columns[c].unit);
			fputs("</small>", out);
		}
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (i = 0; i < (rows ? n_rows : f->n_rows); i++) {
		r = rows ? rows[i] : i;
		k = set->case_of[r];
		chart_shade(set->series[set->cases[k].series].colour, set->cases[k].variant, rgb);
		fprintf(out, "<tr><td>%lld%s</td>", set->runs[r].run.run_id, set->runs[r].run.complete ? "" : " *");
		for (c = 0; c < f->n_columns; c++) {
			fputs(f->columns[c].text ? "<td class=\"t\">" : "<td>", out);
			if (c == 0)
				fprintf(out, "<span class=\"chip\" style=\"background:%s\"></span>", rgb);
			html_text(out, doc_figure_cell(f, r, c));
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table></div>\n", out);
}

/* One cell of a grid's code column: "—" for NULL, <pre> for a value of several lines, else <code>. */
static void html_value(FILE *out, const char *v)
{
	const char *tag = v && strchr(v, '\n') ? "pre" : "code";

	if (!v) {
		fputs("\u2014", out);
		return;
	}
	fprintf(out, "<%s>", tag);
	html_text(out, v);
	fprintf(out, "</%s>", tag);
}

/* A table of class grid in its scrolling box. */
static void html_grid(FILE *out, const struct grid_column *cols, size_t n_cols, const char *const *cells,
		      size_t n_rows)
{
	fputs("<div class=\"scroll\"><table class=\"grid\">\n<tr>", out);
	for (size_t c = 0; c < n_cols; c++) {
		fputs("<th>", out);
		html_text(out, cols[c].header);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (size_t r = 0; r < n_rows; r++) {
		fputs("<tr>", out);
		for (size_t c = 0; c < n_cols; c++) {
			const char *v = cells[r * n_cols + c];

			fputs(cols[c].number ? "<td>" : "<td class=\"t\">", out);
			if (cols[c].code)
				html_value(out, v);
			else
				html_text(out, v ? v : "");
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table></div>\n", out);
}

/* <details> open, its <summary>. */
static void html_fold_begin(FILE *out, const char *summary)
{
	fputs("<details><summary>", out);
	html_text(out, summary);
	fputs("</summary>\n", out);
}

/* </details>. */
static void html_fold_end(FILE *out)
{
	fputs("</details>\n", out);
}

/* Copies NAME.svg of dir into out from its <svg element on (the XML prolog dropped). 0, or -1 with err. */
static int html_chart(FILE *out, const struct out_dir *dir, const struct chart *c, char *err, size_t errlen)
{
	char name[256], *text = NULL, *svg;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int ret = -1;

	snprintf(name, sizeof(name), "%s.svg", c->name);
	f = out_dir_read(dir, name, err, errlen);
	if (!f)
		return -1;
	len = getdelim(&text, &cap, '\0', f);
	svg = len > 0 ? strstr(text, "<svg") : NULL;
	if (!svg) {
		snprintf(err, errlen, "%s/%s holds no <svg> element", dir->path, name);
		goto out;
	}
	fputs(svg, out);
	ret = 0;
out:
	free(text);
	fclose(f);
	return ret;
}

/* A <ul> of the items. */
static void html_list(FILE *out, char (*items)[256], size_t n)
{
	fputs("<ul>\n", out);
	for (size_t i = 0; i < n; i++) {
		fputs("<li>", out);
		html_text(out, items[i]);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

/* A table of class env: the key in <th>, the value in <td>. */
static void html_pairs(FILE *out, const struct env_row *rows, size_t n)
{
	fputs("<div class=\"scroll\"><table class=\"env\">\n", out);
	for (size_t r = 0; r < n; r++) {
		fprintf(out, "<tr><th>%s", rows[r].key_prefix);
		html_text(out, rows[r].key);
		fputs("</th><td>", out);
		html_text(out, rows[r].value);
		fputs(rows[r].joiner, out);
		html_text(out, rows[r].value2);
		fputs("</td></tr>\n", out);
	}
	fputs("</table></div>\n", out);
}

/* Preformatted text in <pre>. */
static void html_code(FILE *out, const char *text)
{
	fputs("<pre>", out);
	html_text(out, text);
	fputs("</pre>\n", out);
}

/* The closing tags of body and html. */
static void html_end(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}

const struct doc_markup doc_html = {
	.file = "report.html",
	.begin = html_begin,
	.heading = html_heading,
	.toc = html_toc,
	.paragraph = html_paragraph,
	.prose = html_prose,
	.figures = html_figures,
	.grid = html_grid,
	.fold_begin = html_fold_begin,
	.fold_end = html_fold_end,
	.chart = html_chart,
	.list = html_list,
	.pairs = html_pairs,
	.code = html_code,
	.end = html_end,
};
