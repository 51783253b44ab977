/*
 * The verdicts as markdown, for a pull request's comment (verdict_print.h): the verdicts
 * first, then the changed SQL, then the whole table folded.
 */
#include "output/sql_diff.h"
#include "output/verdict_print.h"

/* Prints a bullet per verdict whose gate is gate: label, its group in words, its figures. */
static void print_bullets(FILE *out, const struct verdict_list *list, enum verdict_gate gate, const char *label)
{
	for (size_t i = 0; i < list->n; i++) {
		if (list->verdicts[i].gate != gate)
			continue;
		fprintf(out, "- %s: ", label);
		verdict_print_group_words(out, list->verdicts[i].group);
		fprintf(out, ", %s\n", list->verdicts[i].figures);
	}
}

/* Prints the folded table's heading and alignment rows. */
static void print_table_head(FILE *out, const struct verdict_list *list)
{
	for (size_t k = 0; k < list->n_md_columns; k++)
		fprintf(out, "| %s ", list->md_columns[k].title);
	fputs("|\n", out);
	for (size_t k = 0; k < list->n_md_columns; k++)
		fputs(list->md_columns[k].right ? "|---:" : "|---", out);
	fputs("|\n", out);
}

void verdict_print_markdown(FILE *out, const struct verdict_list *list)
{
	fputs(list->md_outcome, out);
	print_bullets(out, list, VERDICT_GATE_REGRESSION, "REGRESSION");
	print_bullets(out, list, VERDICT_GATE_UNDECIDED, "undecided");
	fputs(list->md_context, out);
	sql_diff_print_blocks(out, list->diffs, list->n_diffs);
	if (list->md_notes)
		fputs(list->md_notes, out);
	fprintf(out, "\n<details><summary>All %zu metrics</summary>\n\n", list->n);
	print_table_head(out, list);
	for (size_t i = 0; i < list->n; i++) {
		for (size_t k = 0; k < list->n_md_columns; k++)
			fprintf(out, "| %s ", list->verdicts[i].md_cells[k]);
		fputs("|\n", out);
	}
	fputs("\n</details>\n", out);
}
