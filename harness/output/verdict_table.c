/*
 * The verdicts as a table (verdict_print.h), and what every printer of the list shares: a
 * figure at the tables' precision, a group in words, the list's release.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/text.h"
#include "output/verdict_print.h"

void verdict_number_text(char *buf, size_t size, double v, bool sign)
{
	double a = fabs(v);
	int decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : 3;

	if (!isfinite(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, sign ? "%+.*f" : "%.*f", decimals, v);
}

void verdict_group_label(const struct compare_group *g, char *out, size_t len)
{
	char label[256];

	if (g->system && g->version)
		snprintf(label, sizeof(label), "%s (%s %s)", g->strategy ? g->strategy : "", g->system, g->version);
	else
		snprintf(label, sizeof(label), "%s", g->strategy ? g->strategy : "");
	text_clean(out, len, label, SIZE_MAX);
}

void verdict_print_group_words(FILE *out, const struct compare_group *g)
{
	char strategy[128], mode[16], text[96];

	verdict_group_label(g, strategy, sizeof(strategy));
	text_clean(mode, sizeof(mode), g->claim_mode, SIZE_MAX);
	fprintf(out, "%s %s %d worker%s", strategy, mode, g->workers, g->workers == 1 ? "" : "s");
	if (g->section && *g->section) {
		text_clean(text, sizeof(text), g->section, SIZE_MAX);
		fprintf(out, " in [%s]", text);
	}
	if (g->sweep && *g->sweep) {
		text_clean(text, sizeof(text), g->sweep, SIZE_MAX);
		fprintf(out, " at %s", text);
	}
}

void verdict_group_text(char *buf, size_t size, const struct compare_group *g)
{
	FILE *mem = size > 1 ? fmemopen(buf, size - 1, "w") : NULL;

	if (size)
		buf[0] = buf[size - 1] = '\0';
	if (!mem)
		return;
	verdict_print_group_words(mem, g);
	fclose(mem);
}

bool verdict_same_group(const struct compare_group *a, const struct compare_group *b)
{
	return a->strategy == b->strategy && a->claim_mode == b->claim_mode && a->workers == b->workers &&
	       a->section == b->section && a->sweep == b->sweep;
}

char *verdict_text(void (*print)(FILE *, const void *), const void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return NULL;
	print(mem, ctx);
	if (fclose(mem) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

void verdict_list_free(struct verdict_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		json_object_put(list->verdicts[i].json);
	free(list->verdicts);
	free(list->table_head);
	free(list->table_notes);
	free(list->table_summary);
	free(list->md_outcome);
	free(list->md_context);
	free(list->md_notes);
	json_object_put(list->json_head);
	json_object_put(list->json_tail);
	*list = (struct verdict_list){ 0 };
}

/* Prints a line of the table: two spaces, then each column's text (titles, or a verdict's cells) at its width. */
static void print_line(FILE *out, const struct verdict_list *list, const char (*cells)[VERDICT_CELL_SIZE])
{
	fputs("  ", out);
	for (size_t k = 0; k < list->n_columns; k++)
		fprintf(out, "%s%*s", list->columns[k].gap, list->columns[k].width,
			cells ? cells[k] : list->columns[k].title);
	putc('\n', out);
}

/* Prints a line per verdict whose gate is gate: label, its group in words, its figures. */
static void print_figures(FILE *out, const struct verdict_list *list, enum verdict_gate gate, const char *label)
{
	for (size_t i = 0; i < list->n; i++) {
		if (list->verdicts[i].gate != gate)
			continue;
		fputs(label, out);
		verdict_print_group_words(out, list->verdicts[i].group);
		fprintf(out, ", %s\n", list->verdicts[i].figures);
	}
}

void verdict_print_table(FILE *out, const struct verdict_list *list)
{
	const struct verdict *v;

	fputs(list->table_head, out);
	for (size_t i = 0; i < list->n; i++) {
		v = &list->verdicts[i];
		if (i == 0 || !verdict_same_group(v->group, list->verdicts[i - 1].group)) {
			fputs(v->heading, out);
			print_line(out, list, NULL);
		}
		print_line(out, list, v->cells);
	}
	fputs(list->table_notes, out);
	print_figures(out, list, VERDICT_GATE_REGRESSION, "REGRESSION: ");
	print_figures(out, list, VERDICT_GATE_UNDECIDED, "UNDECIDED: ");
	fputs(list->table_summary, out);
}
