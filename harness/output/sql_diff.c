/* A unified-style line diff of two SQL texts, along their longest common subsequence of lines. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/text.h"
#include "output/sql_diff.h"

/* A text cut into lines, pointing into it. */
struct sql_lines {
	const char *start[SQL_DIFF_MAX_LINES];	/* where each line starts */
	size_t len[SQL_DIFF_MAX_LINES];		/* its length, newline not counted */
	size_t n;				/* lines kept */
	bool overflow;				/* the text had more than SQL_DIFF_MAX_LINES lines */
};

/* Cuts text (NULL: empty) into l's lines. */
static void split_lines(const char *text, struct sql_lines *l)
{
	const char *end;

	l->n = 0;
	l->overflow = false;
	while (text && *text) {
		if (l->n == SQL_DIFF_MAX_LINES) {
			l->overflow = true;
			return;
		}
		end = strchr(text, '\n');
		l->start[l->n] = text;
		l->len[l->n] = end ? (size_t)(end - text) : strlen(text);
		l->n++;
		text = end ? end + 1 : text + strlen(text);
	}
}

/* Prints a line of the text behind mark, control characters but tabs as '?'. */
static void print_line(FILE *out, char mark, const char *start, size_t len)
{
	putc(mark, out);
	for (size_t i = 0; i < len; i++)
		putc((unsigned char)start[i] < 0x20 && start[i] != '\t' ? '?' : start[i], out);
	putc('\n', out);
}

/* True when line i of a and line j of b are the same text. */
static bool same_line(const struct sql_lines *a, size_t i, const struct sql_lines *b, size_t j)
{
	return a->len[i] == b->len[j] && memcmp(a->start[i], b->start[j], a->len[i]) == 0;
}

/* Prints every line of a behind mark. */
static void print_all(FILE *out, char mark, const char *text)
{
	const char *end;

	while (text && *text) {
		end = strchr(text, '\n');
		print_line(out, mark, text, end ? (size_t)(end - text) : strlen(text));
		text = end ? end + 1 : text + strlen(text);
	}
}

void sql_diff_print(FILE *out, const char *base, const char *cand)
{
	static struct sql_lines a, b;
	/* common[i][j]: the longest common run of lines of a from line i and b from line j. */
	static unsigned char common[SQL_DIFF_MAX_LINES + 1][SQL_DIFF_MAX_LINES + 1];
	size_t i, j;

	fputs("--- baseline\n+++ candidate\n", out);
	split_lines(base, &a);
	split_lines(cand, &b);
	if (a.overflow || b.overflow) {
		print_all(out, '-', base);
		print_all(out, '+', cand);
		return;
	}
	for (i = a.n + 1; i-- > 0;)
		for (j = b.n + 1; j-- > 0;) {
			if (i == a.n || j == b.n)
				common[i][j] = 0;
			else if (same_line(&a, i, &b, j))
				common[i][j] = (unsigned char)(common[i + 1][j + 1] + 1);
			else
				common[i][j] = common[i + 1][j] > common[i][j + 1] ? common[i + 1][j] : common[i][j + 1];
		}
	for (i = 0, j = 0; i < a.n || j < b.n;) {
		if (i < a.n && j < b.n && same_line(&a, i, &b, j)) {
			print_line(out, ' ', a.start[i], a.len[i]);
			i++, j++;
		} else if (i < a.n && (j == b.n || common[i + 1][j] >= common[i][j + 1])) {
			print_line(out, '-', a.start[i], a.len[i]);
			i++;
		} else {
			print_line(out, '+', b.start[j], b.len[j]);
			j++;
		}
	}
}

void sql_diff_print_blocks(FILE *out, const struct compare_param_diff *diffs, size_t n)
{
	char strategy[48];

	for (size_t i = 0; i < n; i++) {
		if (!diffs[i].sql)
			continue;
		text_clean(strategy, sizeof(strategy), diffs[i].group.strategy, SIZE_MAX);
		fprintf(out, "\nChanged SQL: `%s` of strategy `%s`\n\n```diff\n", diffs[i].name, strategy);
		sql_diff_print(out, diffs[i].base_value, diffs[i].cand_value);
		fputs("```\n", out);
	}
}
