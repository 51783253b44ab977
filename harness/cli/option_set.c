/* The rows one command line is read with: getopt's table, --help, defaults and applying a value. */
#include <stdio.h>
#include <string.h>

#include "cli/option_table.h"
#include "plugin/sql_strategy.h"
#include "plugin/strategy.h"
#include "model/run_param.h"

/* Where --help text wraps, and the column the descriptions start at. */
#define HELP_WIDTH 100
#define HELP_INDENT 25

/* Adds row o to set unless a row of its name is there already. 0, or -1 with err when set is full. */
static int add_row(struct option_set *set, const struct option_def *o, char *err, size_t errlen)
{
	if (option_set_find(set, o->name))
		return 0;
	if (set->n_rows == OPTION_SET_MAX) {
		snprintf(err, errlen, "more than %d options", OPTION_SET_MAX);
		return -1;
	}
	set->longopts[set->n_rows] = (struct option){
		.name = o->name,
		.has_arg = o->type == OPTION_FLAG ? no_argument : required_argument,
		.val = OPTION_CODE(set->n_rows),
	};
	set->rows[set->n_rows++] = o;
	return 0;
}

int option_set_build(struct option_set *set, const struct option_def *table, enum command_id command, char *err,
		     size_t errlen)
{
	memset(set, 0, sizeof(*set));
	for (const struct option_def *o = table; o->name; o++)
		if ((o->commands & COMMAND_BIT(command)) && add_row(set, o, err, errlen) < 0)
			return -1;
	set->n_command_rows = set->n_rows;
	for (size_t i = 0; command == COMMAND_RUN && i < strategy_registry_len; i++)
		for (const struct option_def *o = strategy_registry[i]->options; o && o->name; o++)
			if (add_row(set, o, err, errlen) < 0)
				return -1;
	set->longopts[set->n_rows] = (struct option){ .name = "help", .has_arg = no_argument,
						      .val = OPTION_CODE(set->n_rows) };
	return 0;
}

const struct option_def *option_set_find(const struct option_set *set, const char *name)
{
	for (size_t i = 0; i < set->n_rows; i++)
		if (strcmp(set->rows[i]->name, name) == 0)
			return set->rows[i];
	return NULL;
}

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

int run_config_defaults(struct run_config *cfg, const struct option_def *table, char *err, size_t errlen)
{
	for (const struct option_def *o = table; o->name; o++)
		if (o->place == OPTION_IN_RUN && option_apply_default(o, cfg, err, errlen) < 0)
			return -1;
	for (size_t i = 0; i < strategy_registry_len; i++)
		for (const struct option_def *o = strategy_registry[i]->options; o && o->name; o++)
			if (option_apply_default(o, cfg->strategy_configs[i].bytes, err, errlen) < 0)
				return -1;
	return 0;
}

int run_config_apply(struct run_config *cfg, const struct option_def *o, const char *value, char *err,
		     size_t errlen)
{
	if (o->place != OPTION_IN_STRATEGY)
		return option_apply(o, value, cfg, err, errlen);
	for (size_t i = 0; i < strategy_registry_len; i++) {
		const struct option_def *own = option_find(strategy_registry[i]->options, o->name);

		if (own && option_apply(own, value, cfg->strategy_configs[i].bytes, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* What command_parse's option loop applies a value with. */
struct command_line_context {
	const struct option_set *set;		/* the rows, by getopt code */
	struct command_settings *settings;	/* where the values land */
};

/* args_apply_fn of command_parse. */
static int apply_command_option(int code, const char *value, void *ctx, char *err, size_t errlen)
{
	struct command_line_context *c = ctx;

	return option_apply(c->set->rows[OPTION_ROW(code)], value, c->settings, err, errlen);
}

enum args_outcome command_parse(const struct option_set *set, int argc, char **argv,
				struct command_settings *settings, char *err, size_t errlen)
{
	struct command_line_context ctx = { .set = set, .settings = settings };

	memset(settings, 0, sizeof(*settings));
	for (size_t i = 0; i < set->n_command_rows; i++)
		if (set->rows[i]->place == OPTION_IN_COMMAND && option_apply_default(set->rows[i], settings, err, errlen) < 0)
			return ARGS_ERROR;
	return args_options(argc, argv, set->longopts, OPTION_CODE(set->n_rows), NULL, apply_command_option, &ctx, err,
			    errlen);
}

/*
 * Adds, for a strategy defined in SQL (def; NULL: none), its statements as the scenario
 * wrote them ("claim-sql" ...), so that a stored run says which SQL ran. 0, or -1 when
 * out of memory.
 */
static int add_defined_sql(struct run_result *r, const struct sql_strategy *def)
{
	char name[32];

	for (int role = 0; def && role < SQL_ROLE_COUNT; role++) {
		if (!def->roles[role].given)
			continue;
		snprintf(name, sizeof(name), "%s-sql", sql_role_key(role));
		if (run_param_add(r, name, def->roles[role].written) < 0)
			return -1;
	}
	return 0;
}

int run_params_fill(struct run_result *r, const struct option_def *table, const struct run_config *cfg,
		    const struct strategy_ops *st)
{
	char value[1024];

	for (const struct option_def *o = table; o->name; o++) {
		if (o->place != OPTION_IN_RUN || (o->flags & OPTION_NOT_STORED))
			continue;
		option_format(o, cfg, value, sizeof(value));
		if (run_param_add(r, o->name, value) < 0)
			return -1;
	}
	if (!st)
		return 0;
	for (const struct option_def *o = st->options; o && o->name; o++) {
		if (o->flags & OPTION_NOT_STORED)
			continue;
		option_format(o, strategy_config(cfg, st), value, sizeof(value));
		if (run_param_add(r, o->name, value) < 0)
			return -1;
	}
	return add_defined_sql(r, sql_strategy_of(st));
}
