/*
 * The option machinery (options.h): a row's value read and written back, the rows one
 * command line is read with and their getopt table, reading a command line, the --help
 * text, and run's rows applied to a run group's config and kept as a stored run's parameters.
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "cli/options.h"
#include "model/run_descriptor.h"
#include "plugin/sql_strategy.h"
#include "plugin/strategy.h"

/* Where --help text wraps, and the column the descriptions start at. */
#define HELP_WIDTH 100
#define HELP_INDENT 25

/* Where row o's value is in the struct at base. */
static void *place_of(const struct option_def *o, void *base)
{
	return (char *)base + o->offset;
}

/* A bound of a row as a long, clamped to what a long holds (a double bound may lie past LONG_MAX). */
static long bound(double v)
{
	if (v >= (double)LONG_MAX)
		return LONG_MAX;
	if (v <= (double)LONG_MIN)
		return LONG_MIN;
	return (long)v;
}

/* A flag's value: NULL (given) or "true" is true, "false" false. 0, or -1 with err. */
static int parse_flag(const struct option_def *o, const char *text, bool *out, char *err, size_t errlen)
{
	if (!text || strcmp(text, "true") == 0) {
		*out = true;
		return 0;
	}
	if (strcmp(text, "false") == 0) {
		*out = false;
		return 0;
	}
	snprintf(err, errlen, "--%s: expected true or false, got \"%s\"", o->name, text);
	return -1;
}

int option_apply(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	void *dst = place_of(o, base);
	long v;
	int word;

	if (o->type == OPTION_FLAG)
		return parse_flag(o, text, dst, err, errlen);
	if (!text) {
		snprintf(err, errlen, "option --%s needs a value", o->name);
		return -1;
	}
	switch (o->type) {
	case OPTION_INT:
		if (parse_long(o->name, text, bound(o->min), bound(o->max), &v, err, errlen) < 0)
			return -1;
		*(int *)dst = (int)v;
		return 0;
	case OPTION_LONG:
		return parse_long(o->name, text, bound(o->min), bound(o->max), dst, err, errlen);
	case OPTION_U64:
		if (parse_long(o->name, text, bound(o->min), bound(o->max), &v, err, errlen) < 0)
			return -1;
		*(uint64_t *)dst = (uint64_t)v;
		return 0;
	case OPTION_DOUBLE:
		return parse_double(o->name, text, o->min, o->max, dst, err, errlen);
	case OPTION_WORD:
		word = parse_word(o->name, text, o->words, err, errlen);
		if (word < 0)
			return -1;
		*(int *)dst = word;
		return 0;
	case OPTION_TEXT:
		*(const char **)dst = text;
		return 0;
	case OPTION_CUSTOM:
		return o->parse(o, text, base, err, errlen);
	case OPTION_FLAG:
		break;
	}
	snprintf(err, errlen, "--%s: an option of no known type", o->name);
	return -1;
}

int option_apply_default(const struct option_def *o, void *base, char *err, size_t errlen)
{
	void *dst = place_of(o, base);

	if (o->def)
		return option_apply(o, o->def, base, err, errlen);
	switch (o->type) {
	case OPTION_INT:
		*(int *)dst = 0;
		return 0;
	case OPTION_WORD:
		*(int *)dst = -1;
		return 0;
	case OPTION_LONG:
		*(long *)dst = 0;
		return 0;
	case OPTION_U64:
		*(uint64_t *)dst = 0;
		return 0;
	case OPTION_DOUBLE:
		*(double *)dst = 0;
		return 0;
	case OPTION_FLAG:
		*(bool *)dst = false;
		return 0;
	case OPTION_TEXT:
		*(const char **)dst = NULL;
		return 0;
	case OPTION_CUSTOM:
		return o->parse(o, NULL, base, err, errlen);
	}
	snprintf(err, errlen, "--%s: an option of no known type", o->name);
	return -1;
}

void option_format(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const void *src = (const char *)base + o->offset;
	const char *text;

	switch (o->type) {
	case OPTION_INT:
		snprintf(buf, len, "%d", *(const int *)src);
		return;
	case OPTION_LONG:
		snprintf(buf, len, "%ld", *(const long *)src);
		return;
	case OPTION_U64:
		snprintf(buf, len, "%" PRIu64, *(const uint64_t *)src);
		return;
	case OPTION_DOUBLE:
		snprintf(buf, len, "%.15g", *(const double *)src);
		return;
	case OPTION_WORD:
		snprintf(buf, len, "%s", *(const int *)src < 0 ? "" : o->words[*(const int *)src]);
		return;
	case OPTION_FLAG:
		snprintf(buf, len, "%s", *(const bool *)src ? "true" : "false");
		return;
	case OPTION_TEXT:
		text = *(const char *const *)src;
		snprintf(buf, len, "%s", text ? text : "");
		return;
	case OPTION_CUSTOM:
		o->format(o, base, buf, len);
		return;
	}
	snprintf(buf, len, "?");
}

const struct option_def *option_find(const struct option_def *table, const char *name)
{
	for (; table && table->name; table++)
		if (strcmp(table->name, name) == 0)
			return table;
	return NULL;
}

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
	for (size_t i = 0; (command == COMMAND_RUN || command == COMMAND_EXPLORE) && i < strategy_registry_len; i++)
		for (const struct option_def *o = strategy_registry[i]->options; o && o->name; o++)
			if (add_row(set, o, err, errlen) < 0)
				return -1;
	set->longopts[set->n_rows] = (struct option){ .name = "help", .has_arg = no_argument,
						      .val = OPTION_CODE(set->n_rows) };
	for (const struct option_def *o = table; command == COMMAND_EXPLORE && o->name; o++) {
		if (!(o->commands & COMMAND_BIT(COMMAND_RUN)) || (o->commands & COMMAND_BIT(COMMAND_EXPLORE)) ||
		    option_set_find(set, o->name) || option_set_refuses(set, o->name))
			continue;
		if (set->n_refused == OPTION_SET_MAX) {
			snprintf(err, errlen, "more than %d refused options", OPTION_SET_MAX);
			return -1;
		}
		set->longopts[set->n_rows + 1 + set->n_refused] = (struct option){
			.name = o->name,
			.has_arg = o->type == OPTION_FLAG ? no_argument : required_argument,
			.val = OPTION_REFUSED_CODE(set->n_refused),
		};
		set->refused[set->n_refused++] = o;
	}
	return 0;
}

const struct option_def *option_set_refuses(const struct option_set *set, const char *name)
{
	for (size_t i = 0; i < set->n_refused; i++)
		if (strcmp(set->refused[i]->name, name) == 0)
			return set->refused[i];
	return NULL;
}

void option_set_refusal(const struct option_def *o, char *err, size_t errlen)
{
	snprintf(err, errlen, "--%s is run's: explore does not honour it", o->name);
}

const struct option_def *option_set_find(const struct option_set *set, const char *name)
{
	for (size_t i = 0; i < set->n_rows; i++)
		if (strcmp(set->rows[i]->name, name) == 0)
			return set->rows[i];
	return NULL;
}

enum args_outcome args_options(int argc, char **argv, const struct option *options, int help_code,
			       const char *usage, args_apply_fn apply, void *ctx, char *err, size_t errlen)
{
	int code;

	opterr = 0;
	optind = 1;
	while ((code = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		if (code == help_code) {
			if (usage)
				fputs(usage, stdout);
			return ARGS_HELP;
		}
		if (code == ':' || code == '?') {
			snprintf(err, errlen, code == ':' ? "option %s needs a value" : "unknown option %s",
				 argv[optind - 1]);
			return ARGS_ERROR;
		}
		if (apply(code, optarg, ctx, err, errlen) < 0)
			return ARGS_ERROR;
	}
	return ARGS_OK;
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
