/* The --help text of option rows and option sets (option_help.h). */
#include <stdio.h>
#include <string.h>

#include "cli/option_help.h"
#include "plugin/strategy.h"

/* Where --help text wraps, and the column the descriptions start at. */
#define HELP_WIDTH 100
#define HELP_INDENT 25

/* Prints text from column *col, breaking lines at spaces before HELP_WIDTH and indenting them by HELP_INDENT. */
static void print_wrapped(FILE *out, const char *text, int *col)
{
	while (*text) {
		size_t word = strcspn(text, " ");

		if (*col > HELP_INDENT && *col + 1 + (int)word > HELP_WIDTH) {
			fprintf(out, "\n%*s", HELP_INDENT, "");
			*col = HELP_INDENT;
		} else if (*col > HELP_INDENT) {
			putc(' ', out);
			(*col)++;
		}
		fprintf(out, "%.*s", (int)word, text);
		*col += (int)word;
		text += word;
		text += strspn(text, " ");
	}
}

void option_print(FILE *out, const struct option_def *o)
{
	char tail[96];
	int col = fprintf(out, "  --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");

	if (col >= HELP_INDENT - 1)
		fprintf(out, "\n%*s", HELP_INDENT, "");
	else
		fprintf(out, "%*s", HELP_INDENT - col, "");
	col = HELP_INDENT;
	print_wrapped(out, o->help, &col);
	if (o->def && o->type != OPTION_FLAG) {
		snprintf(tail, sizeof(tail), "(default %s)", o->def);
		print_wrapped(out, tail, &col);
	}
	putc('\n', out);
}

/* Whether strategy st has an option called name. */
static bool strategy_has(const struct strategy_ops *st, const char *name)
{
	return option_find(st->options, name) != NULL;
}

/* Prints the sentence that names the options whose lists sweep, if any. */
static void print_sweepers(const struct option_set *set, FILE *out)
{
	int col = 0;
	char name[64];

	for (size_t i = 0; i < set->n_rows; i++) {
		if (!(set->rows[i]->flags & OPTION_SWEEP))
			continue;
		if (!col) {
			fputs("\nA comma-separated list given to any of these sweeps, one run group per value:\n", out);
			col = HELP_INDENT;
			fprintf(out, "%*s", HELP_INDENT, "");
		}
		snprintf(name, sizeof(name), "--%s", set->rows[i]->name);
		print_wrapped(out, name, &col);
	}
	if (col)
		putc('\n', out);
}

void option_set_print(const struct option_set *set, FILE *out)
{
	for (size_t i = 0; i < set->n_command_rows; i++)
		option_print(out, set->rows[i]);
	fprintf(out, "  --help%*s%s\n", HELP_INDENT - 8, "", "this text");
	if (set->n_rows == set->n_command_rows)
		return;
	fputs("\nstrategy options (a value sets every strategy that has the option):\n", out);
	for (size_t s = 0; s < strategy_registry_len; s++) {
		const struct strategy_ops *st = strategy_registry[s];

		if (!st->options || !st->options->name)
			continue;
		fprintf(out, " %s:\n", st->name);
		for (size_t i = set->n_command_rows; i < set->n_rows; i++)
			if (strategy_has(st, set->rows[i]->name))
				option_print(out, set->rows[i]);
	}
	print_sweepers(set, out);
}
