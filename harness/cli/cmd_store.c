/* `claimbench history`, `show` and `export`: the result store read back. */
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "base/exit_status.h"
#include "cli/args.h"
#include "cli/invocation.h"
#include "cli/commands.h"
#include "output/report.h"
#include "store/store.h"

/* Long-only options get codes past the ASCII range. */
enum store_option_code {
	OPT_RESULTS = 256, OPT_LIMIT, OPT_FORMAT, OPT_HELP,
};

/* The runs history lists when --limit is not given. */
#define HISTORY_DEFAULT_LIMIT 20

/* A macro's value as a string literal, for usage texts. */
#define STRINGIFY(x) #x
#define TEXT_OF(x) STRINGIFY(x)

/* The export formats. */
enum export_format {
	EXPORT_NONE,	/* --format not given */
	EXPORT_CSV,	/* report_print_csv */
	EXPORT_JSON,	/* report_print_json */
};

/* What a store command was asked. */
struct store_args {
	const char *results;		/* --results: the store's path */
	long limit;			/* --limit (history): runs to list, 0 for all */
	enum export_format format;	/* --format (export) */
	long long run_id;		/* RUN (show, export) */
};

/* One store command's name, options and usage. */
struct store_command {
	const char *name;		/* the command word */
	const struct option *options;	/* the options it takes, --help among them */
	bool takes_run;			/* whether it takes a RUN argument */
	const char *usage;		/* its --help text */
};

static const struct option history_options[] = {
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static const struct option show_options[] = {
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static const struct option export_options[] = {
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static const struct store_command history_command = {
	.name = "history",
	.options = history_options,
	.takes_run = false,
	.usage = "usage: claimbench history [--results PATH] [--limit N]\n"
		 "Lists the stored runs, newest first: id, when it was stored, strategy, claim mode,\n"
		 "workers, makespan, throughput, duplicates, lost jobs, Jain's fairness index, complete.\n"
		 "\n"
		 "  --results PATH   the result store (default " STORE_DEFAULT_PATH ")\n"
		 "  --limit N        list at most N runs, 0 for all (default " TEXT_OF(HISTORY_DEFAULT_LIMIT) ")\n",
};

static const struct store_command show_command = {
	.name = "show",
	.options = show_options,
	.takes_run = true,
	.usage = "usage: claimbench show RUN [--results PATH]\n"
		 "Prints stored run RUN (an id from claimbench history) as claimbench run's table, then its\n"
		 "parameters and its invocation: host, claimbench version, git revision, server settings and\n"
		 "scenario text.\n"
		 "\n"
		 "  --results PATH   the result store (default " STORE_DEFAULT_PATH ")\n",
};

static const struct store_command export_command = {
	.name = "export",
	.options = export_options,
	.takes_run = true,
	.usage = "usage: claimbench export RUN --format csv|json [--results PATH]\n"
		 "Prints stored run RUN (an id from claimbench history) as claimbench run --format csv or\n"
		 "json printed it.\n"
		 "\n"
		 "  --format csv|json   the output format (required)\n"
		 "  --results PATH      the result store (default " STORE_DEFAULT_PATH ")\n",
};

/* Reads --format's value into a. 0, or -1 with err. */
static int parse_format(const char *value, struct store_args *a, char *err, size_t errlen)
{
	static const char *const names[] = { "csv", "json", NULL };
	int v = parse_word("format", value, names, err, errlen);

	a->format = v == 1 ? EXPORT_JSON : EXPORT_CSV;
	return v < 0 ? -1 : 0;
}

/* Applies the value of option code (--results, --limit or --format) to the struct store_args at ctx. 0, or -1 with err. */
static int apply_option(int code, const char *value, void *ctx, char *err, size_t errlen)
{
	struct store_args *a = ctx;

	if (code == OPT_LIMIT)
		return parse_long("limit", value, 0, INT_MAX, &a->limit, err, errlen);
	if (code == OPT_FORMAT)
		return parse_format(value, a, err, errlen);
	a->results = value;
	return 0;
}

/* Reads RUN into a. 0, or -1 with err. */
static int parse_run_id(const char *text, struct store_args *a, char *err, size_t errlen)
{
	if (!parse_id(text, &a->run_id)) {
		snprintf(err, errlen,
			 "RUN: expected a run id (a whole number from 1; see claimbench history), got \"%s\"", text);
		return -1;
	}
	return 0;
}

/* Checks what the options alone cannot: RUN's presence, export's format. 0, or -1 with err. */
static int parse_operands(const struct store_command *cmd, int argc, char **argv, struct store_args *a,
			  char *err, size_t errlen)
{
	if (cmd->takes_run) {
		if (optind >= argc) {
			snprintf(err, errlen, "missing RUN (a run id; see claimbench history)");
			return -1;
		}
		if (parse_run_id(argv[optind++], a, err, errlen) < 0)
			return -1;
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument \"%s\"", argv[optind]);
		return -1;
	}
	if (cmd == &export_command && a->format == EXPORT_NONE) {
		snprintf(err, errlen, "missing --format csv or --format json");
		return -1;
	}
	return 0;
}

/*
 * Parses cmd's command line (argv[0] is its name) into a. EXIT_DONE to go on, -1 when
 * --help was printed, EXIT_USAGE after printing the error.
 */
static int parse_args(const struct store_command *cmd, int argc, char **argv, struct store_args *a)
{
	char err[512];

	*a = (struct store_args){ .results = STORE_DEFAULT_PATH, .limit = HISTORY_DEFAULT_LIMIT };
	switch (args_options(argc, argv, cmd->options, OPT_HELP, cmd->usage, apply_option, a, err, sizeof(err))) {
	case ARGS_HELP:
		return -1;
	case ARGS_ERROR:
		goto usage;
	case ARGS_OK:
		break;
	}
	if (parse_operands(cmd, argc, argv, a, err, sizeof(err)) < 0)
		goto usage;
	return EXIT_DONE;
usage:
	fprintf(stderr, "claimbench %s: %s\n(see claimbench %s --help)\n", cmd->name, err, cmd->name);
	return EXIT_USAGE;
}

/*
 * Parses cmd's command line, opens the store and, for a command with RUN, loads the run.
 * EXIT_DONE with *db open (and s filled), or the exit status after printing why.
 */
static int prepare_command(const struct store_command *cmd, int argc, char **argv, struct store_args *a,
			   struct store **db, struct store_run *s)
{
	char err[1024];
	int status, rc;

	status = parse_args(cmd, argc, argv, a);
	if (status < 0)
		return EXIT_DONE;
	if (status != EXIT_DONE)
		return status;
	if (store_open_existing(a->results, db, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench %s: %s\n", cmd->name, err);
		return EXIT_ENVIRONMENT;
	}
	if (!cmd->takes_run)
		return EXIT_DONE;
	rc = store_load(*db, a->run_id, s, err, sizeof(err));
	if (rc == 0)
		return EXIT_DONE;
	if (rc > 0)
		fprintf(stderr, "claimbench %s: no run %lld in %s (see claimbench history)\n", cmd->name, a->run_id,
			a->results);
	else
		fprintf(stderr, "claimbench %s: run %lld: %s\n", cmd->name, a->run_id, err);
	store_close(*db);
	*db = NULL;
	return EXIT_ENVIRONMENT;
}

/* Flushes stdout. EXIT_DONE, or EXIT_ENVIRONMENT after saying that it could not be written. */
static int finish_output(const struct store_command *cmd)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "claimbench %s: cannot write the output\n", cmd->name);
		return EXIT_ENVIRONMENT;
	}
	return EXIT_DONE;
}

/* Prints s with control characters shown as '?', each line after the first indented by indent. */
static void print_clean(FILE *out, const char *s, const char *indent)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n' && s[1])
			fprintf(out, "\n%s", indent);
		else if (c != '\n')
			putc(c < 0x20 || c == 0x7f ? '?' : c, out);
	}
}

/* Prints a "label: value" line, value cleaned; "-" when value is NULL. */
static void print_field(FILE *out, const char *label, const char *value)
{
	fprintf(out, "%s: ", label);
	print_clean(out, value ? value : "-", "");
	putc('\n', out);
}

/* Prints the run's parameters, one "name = value" line each. */
static void print_params(FILE *out, const struct run_result *run)
{
	fputs("parameters:", out);
	if (!run->n_params)
		fputs(" none stored", out);
	for (size_t i = 0; i < run->n_params; i++) {
		fputs("\n  ", out);
		print_clean(out, run->params[i].name, "");
		fputs(" = ", out);
		print_clean(out, run->params[i].value, "");
	}
	putc('\n', out);
}

/* Prints the invocation of s: host, version, revision, scenario, settings and scenario text. */
static void print_invocation(FILE *out, const struct store_run *s)
{
	size_t i;

	print_field(out, "host", s->ctx.host);
	print_field(out, "claimbench", s->ctx.version);
	print_field(out, "git revision", s->ctx.git_revision);
	print_field(out, "started at", s->report.started_at);
	print_field(out, "scenario", s->report.scenario);
	fprintf(out, "seed: %llu\n", s->report.seed);
	fputs("server settings:", out);
	if (!s->report.n_settings)
		fputs(" none stored", out);
	for (i = 0; i < s->report.n_settings; i++) {
		fputs("\n  ", out);
		print_clean(out, s->report.settings[i].name, "");
		fputs(" = ", out);
		print_clean(out, s->report.settings[i].value, "");
	}
	fputs("\nscenario text:", out);
	if (s->ctx.scenario_text) {
		fputs("\n  ", out);
		print_clean(out, s->ctx.scenario_text, "  ");
	} else {
		fputs(" none stored", out);
	}
	putc('\n', out);
}

int cmd_history(int argc, char **argv)
{
	struct store_args a;
	struct store *db = NULL;
	char err[1024];
	int status;

	status = prepare_command(&history_command, argc, argv, &a, &db, NULL);
	if (!db)
		return status;
	if (store_list(db, stdout, (int)a.limit, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench history: reading %s: %s\n", a.results, err);
		status = EXIT_ENVIRONMENT;
	} else {
		status = finish_output(&history_command);
	}
	store_close(db);
	return status;
}

int cmd_show(int argc, char **argv)
{
	struct store_run s = { 0 };
	struct store_args a;
	struct store *db = NULL;
	int status;

	status = prepare_command(&show_command, argc, argv, &a, &db, &s);
	if (!db)
		return status;
	printf("run %lld, stored %s\n\n", s.run_id, s.recorded_at);
	if (report_print_table(stdout, &s.report) < 0) {
		fprintf(stderr, "claimbench show: out of memory\n");
		status = EXIT_ENVIRONMENT;
		goto out;
	}
	putc('\n', stdout);
	print_params(stdout, &s.run);
	print_invocation(stdout, &s);
	status = finish_output(&show_command);
out:
	store_run_free(&s);
	store_close(db);
	return status;
}

int cmd_export(int argc, char **argv)
{
	struct store_run s = { 0 };
	struct store_args a;
	struct store *db = NULL;
	int status, rc;

	status = prepare_command(&export_command, argc, argv, &a, &db, &s);
	if (!db)
		return status;
	rc = a.format == EXPORT_CSV ? report_print_csv(stdout, &s.report) : report_print_json(stdout, &s.report);
	if (rc < 0) {
		fprintf(stderr, "claimbench export: out of memory\n");
		status = EXIT_ENVIRONMENT;
	} else {
		status = finish_output(&export_command);
	}
	store_run_free(&s);
	store_close(db);
	return status;
}
