/*
 * Unit tests of option rows (cli/options.c) on a hand-made table of every type, and of
 * the shipped tables: the commands' rows and every strategy's.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "cli/options.h"
#include "cli/option_table.h"
#include "plugin/strategy.h"

/* A struct with a member of every option type. */
struct sample {
	int count;		/* OPTION_INT */
	long big;		/* OPTION_LONG */
	uint64_t seed;		/* OPTION_U64 */
	double ratio;		/* OPTION_DOUBLE */
	int colour;		/* OPTION_WORD */
	bool loud;		/* OPTION_FLAG */
	const char *label;	/* OPTION_TEXT */
	int pair[2];		/* OPTION_CUSTOM: "a/b" */
};

static const char *const colours[] = { "red", "green", "blue", NULL };

/* Reads "a/b" into pair; NULL: 1/1. */
static int parse_pair(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct sample *s = base;

	if (!text) {
		s->pair[0] = s->pair[1] = 1;
		return 0;
	}
	if (sscanf(text, "%d/%d", &s->pair[0], &s->pair[1]) != 2) {
		snprintf(err, errlen, "--%s: expected A/B, got \"%s\"", o->name, text);
		return -1;
	}
	return 0;
}

/* Writes pair as "a/b". */
static void format_pair(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct sample *s = base;

	(void)o;
	snprintf(buf, len, "%d/%d", s->pair[0], s->pair[1]);
}

static const struct option_def rows[] = {
	{ .name = "count", .type = OPTION_INT, .offset = offsetof(struct sample, count), .min = 1, .max = 10, .def = "3" },
	{ .name = "big", .type = OPTION_LONG, .offset = offsetof(struct sample, big), .min = 0, .max = 1e12 },
	{ .name = "seed", .type = OPTION_U64, .offset = offsetof(struct sample, seed), .min = 0, .max = 1e30 },
	{ .name = "ratio", .type = OPTION_DOUBLE, .offset = offsetof(struct sample, ratio), .min = 0, .max = 1,
	  .def = "0.25" },
	{ .name = "colour", .type = OPTION_WORD, .offset = offsetof(struct sample, colour), .words = colours,
	  .def = "green" },
	{ .name = "loud", .type = OPTION_FLAG, .offset = offsetof(struct sample, loud) },
	{ .name = "label", .type = OPTION_TEXT, .offset = offsetof(struct sample, label) },
	{ .name = "pair", .type = OPTION_CUSTOM, .offset = offsetof(struct sample, pair), .parse = parse_pair,
	  .format = format_pair },
	{ .name = NULL },
};

/* row name's value in s as text (static buffer). */
static const char *text_of(const struct sample *s, const char *name)
{
	static char buf[64];

	option_format(option_find(rows, name), s, buf, sizeof(buf));
	return buf;
}

static void test_defaults(void)
{
	struct sample s;
	char err[256] = "";
	bool ok = true;

	memset(&s, 0xff, sizeof(s));
	for (const struct option_def *o = rows; o->name; o++)
		ok &= option_apply_default(o, &s, err, sizeof(err)) == 0;
	CHECK(ok, "every row takes its default (%s)", err);
	CHECK(s.count == 3 && s.big == 0 && s.seed == 0 && s.ratio == 0.25 && s.colour == 1 && !s.loud &&
	      s.label == NULL && s.pair[0] == 1 && s.pair[1] == 1,
	      "a default is def parsed, else zero, false, none, or the custom parser's own");
	CHECK(strcmp(text_of(&s, "colour"), "green") == 0 && strcmp(text_of(&s, "ratio"), "0.25") == 0 &&
	      strcmp(text_of(&s, "loud"), "false") == 0 && strcmp(text_of(&s, "label"), "") == 0 &&
	      strcmp(text_of(&s, "pair"), "1/1") == 0, "values format back as they would be given");
}

static void test_values(void)
{
	struct sample s = { 0 };
	char err[256] = "";

	CHECK(option_apply(option_find(rows, "big"), "1000000000000", &s, err, sizeof(err)) == 0 &&
	      s.big == 1000000000000L && strcmp(text_of(&s, "big"), "1000000000000") == 0, "a long (%s)", err);
	CHECK(option_apply(option_find(rows, "seed"), "9223372036854775807", &s, err, sizeof(err)) == 0 &&
	      s.seed == 9223372036854775807ULL, "a bound past LONG_MAX is clamped to it (%s)", err);
	CHECK(option_apply(option_find(rows, "colour"), "blue", &s, err, sizeof(err)) == 0 && s.colour == 2,
	      "a word lands as its index");
	CHECK(option_apply(option_find(rows, "loud"), NULL, &s, err, sizeof(err)) == 0 && s.loud,
	      "a flag given on the command line is true");
	CHECK(option_apply(option_find(rows, "loud"), "false", &s, err, sizeof(err)) == 0 && !s.loud,
	      "a flag set false in a scenario");
	CHECK(option_apply(option_find(rows, "label"), "abc", &s, err, sizeof(err)) == 0 && strcmp(s.label, "abc") == 0,
	      "text is kept as given");
	CHECK(option_apply(option_find(rows, "pair"), "4/5", &s, err, sizeof(err)) == 0 && s.pair[1] == 5 &&
	      strcmp(text_of(&s, "pair"), "4/5") == 0, "a custom row parses and formats through its functions");
}

/* Checks that row name refuses text with a message holding want. */
static void check_refused(const char *name, const char *text, const char *want)
{
	struct sample s = { 0 };
	char err[256] = "";
	int rc = option_apply(option_find(rows, name), text, &s, err, sizeof(err));

	CHECK(rc < 0 && strstr(err, want) != NULL, "--%s \"%s\" is refused: %s", name, text ? text : "(none)", err);
}

static void test_refusals(void)
{
	check_refused("count", "0", "--count: expected a whole number from 1 to 10, got \"0\"");
	check_refused("count", "11", "from 1 to 10");
	check_refused("count", "3x", "got \"3x\"");
	check_refused("count", "", "got \"\"");
	check_refused("count", NULL, "option --count needs a value");
	check_refused("ratio", "1.5", "--ratio: expected a number from 0 to 1");
	check_refused("ratio", "nan", "--ratio: expected a number");
	check_refused("colour", "mauve", "--colour: expected one of red, green, blue, got \"mauve\"");
	check_refused("loud", "maybe", "--loud: expected true or false, got \"maybe\"");
	check_refused("pair", "4", "--pair: expected A/B");
	CHECK_EQ(option_find(rows, "missing"), NULL, "option_find: NULL for an unknown name");
}

/* Checks one strategy's rows: placed in its settings, within them, with defaults that parse. */
static void check_strategy_rows(const struct strategy_ops *st)
{
	static union strategy_config cfg;
	char err[256] = "";

	CHECK(st->config_size <= STRATEGY_CONFIG_MAX, "%s: its settings fit a slot (%zu bytes)", st->name,
	      st->config_size);
	for (const struct option_def *o = st->options; o && o->name; o++) {
		const struct option_def *clash = option_find(command_options, o->name);

		CHECK(o->place == OPTION_IN_STRATEGY && o->offset < st->config_size && o->help && o->type != OPTION_TEXT,
		      "%s --%s: placed in its settings, within them, with help", st->name, o->name);
		CHECK_EQ(option_apply_default(o, cfg.bytes, err, sizeof(err)), 0, "%s --%s: its default parses (%s)",
		      st->name, o->name, err);
		CHECK(!clash, "%s --%s: no command option has that name", st->name, o->name);
		for (size_t i = 0; i < strategy_registry_len; i++) {
			const struct option_def *twin = option_find(strategy_registry[i]->options, o->name);

			if (twin && twin != o)
				CHECK(twin->type == o->type && twin->min == o->min && twin->max == o->max,
				      "--%s of %s and %s takes the same values", o->name, st->name,
				      strategy_registry[i]->name);
		}
	}
}

static void test_shipped_tables(void)
{
	struct run_config cfg;
	char err[256] = "";
	size_t n = 0;

	CHECK_EQ(strategy_registry_len, sizeof(cfg.strategy_configs) / sizeof(cfg.strategy_configs[0]),
	      "every registered strategy has a settings slot");
	for (size_t i = 0; i < strategy_registry_len; i++) {
		check_strategy_rows(strategy_registry[i]);
		CHECK_EQ(strategy_index(strategy_registry[i]), i, "strategy_index(%s) is its place",
		      strategy_registry[i]->name);
	}
	for (const struct option_def *o = command_options; o->name; o++, n++) {
		CHECK(o->help && o->commands && (o->type == OPTION_FLAG) == (o->arg == NULL),
		      "--%s: help, commands, and a value name unless it is a flag", o->name);
		CHECK(option_find(o + 1, o->name) == NULL || !(option_find(o + 1, o->name)->commands & o->commands),
		      "--%s: one row per name and command", o->name);
		CHECK(!(o->flags & OPTION_SWEEP) || o->place == OPTION_IN_RUN, "--%s sweeps only as a run option", o->name);
	}
	CHECK(n > 20, "the commands' table has its rows (%zu)", n);
	memset(&cfg, 0, sizeof(cfg));
	CHECK_EQ(run_config_defaults(&cfg, command_options, err, sizeof(err)), 0, "every default parses (%s)", err);
}

int main(void)
{
	test_defaults();
	test_values();
	test_refusals();
	test_shipped_tables();
	return check_exit_status();
}
