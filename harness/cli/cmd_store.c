/* `claimbench history`, `show` and `export`: the result store read back (show inv:N: an invocation's runs or explores). */
#include <getopt.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "base/text.h"
#include "base/exit_status.h"
#include "cli/commands.h"
#include "cli/option_table.h"
#include "explore/explore_store.h"
#include "model/config.h"
#include "output/figures.h"
#include "output/results_print.h"
#include "store/store.h"

/* One store command: its row of the command table, and whether it takes a RUN operand. */
struct store_command {
	const char *name;	/* its name in the command table */
	bool takes_run;		/* it takes a RUN operand */
};

static const struct store_command history_command = { .name = "history", .takes_run = false };
static const struct store_command show_command = { .name = "show", .takes_run = true };
static const struct store_command export_command = { .name = "export", .takes_run = true };

/* What a store command was asked. */
struct store_args {
	struct command_settings settings;	/* its options: --results, --limit, --format */
	long long run_id;			/* RUN (show, export); 0 when show was given inv:N */
	long long invocation_id;		/* inv:N (show); 0 when not given */
};

/* Checks what the options alone cannot: RUN's presence, export's format. 0, or -1 with err. */
static int parse_operands(const struct store_command *cmd, int argc, char **argv, struct store_args *a,
			  char *err, size_t errlen)
{
	if (cmd->takes_run) {
		if (optind >= argc) {
			snprintf(err, errlen, "missing RUN (a run id%s; see claimbench history)",
				 cmd == &show_command ? ", or inv:N" : "");
			return -1;
		}
		if (cmd == &show_command && strncmp(argv[optind], "inv:", 4) == 0) {
			if (!parse_id(argv[optind] + 4, &a->invocation_id)) {
				snprintf(err, errlen, "expected inv:N with an invocation id from 1 (see claimbench history), "
					 "got \"%s\"", argv[optind]);
				return -1;
			}
		} else if (!parse_id(argv[optind], &a->run_id)) {
			snprintf(err, errlen,
				 "RUN: expected a run id (a whole number from 1; see claimbench history), got \"%s\"",
				 argv[optind]);
			return -1;
		}
		optind++;
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument \"%s\"", argv[optind]);
		return -1;
	}
	if (cmd == &export_command && a->settings.export_format < 0) {
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
	const struct command *c = command_find(cmd->name);
	enum command_start start;
	char err[512];

	start = command_read(c, argc, argv, &a->settings);
	if (start != COMMAND_GO)
		return start == COMMAND_HELP_SHOWN ? -1 : EXIT_USAGE;
	if (parse_operands(cmd, argc, argv, a, err, sizeof(err)) < 0)
		return command_usage_error(c, err);
	return EXIT_DONE;
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
	if (store_open_existing(a->settings.results, db, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench %s: %s\n", cmd->name, err);
		return EXIT_ENVIRONMENT;
	}
	if (!cmd->takes_run || a->invocation_id)
		return EXIT_DONE;
	rc = store_load(*db, a->run_id, s, err, sizeof(err));
	if (rc == 0)
		return EXIT_DONE;
	if (rc > 0)
		fprintf(stderr, "claimbench %s: no run %lld in %s (see claimbench history)\n", cmd->name, a->run_id,
			a->settings.results);
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

/*
 * Prints the text s of many lines cleaned as text_clean_char does, each line after the
 * first indented by indent; a final newline is dropped.
 */
static void print_lines(FILE *out, const char *s, const char *indent)
{
	for (; *s; s++) {
		if (*s == '\n' && s[1])
			fprintf(out, "\n%s", indent);
		else if (*s != '\n')
			putc(text_clean_char(*s), out);
	}
}

/* Prints the one-line text s cleaned as text_clean_char does (a newline shown as '?'). */
static void print_clean(FILE *out, const char *s)
{
	for (; *s; s++)
		putc(text_clean_char(*s), out);
}

/* Prints a "label: value" line, value cleaned (a newline in it shown as '?'); "-" when value is NULL. */
static void print_field(FILE *out, const char *label, const char *value)
{
	fprintf(out, "%s: ", label);
	print_clean(out, value ? value : "-");
	putc('\n', out);
}

/*
 * Whether the stored parameter name is a guarded workload's own (a row of the options that
 * sets the run's guarded plan, --workload itself aside): a queue run's value of it is a
 * default that meant nothing to it.
 */
static bool guarded_param(const char *name)
{
	const size_t from = offsetof(struct run_config, guarded), to = from + sizeof(struct guarded_plan);

	for (const struct option_def *o = command_options; o->name; o++)
		if (o->place == OPTION_IN_RUN && strcmp(o->name, name) == 0)
			return o->offset >= from && o->offset < to && strcmp(name, "workload") != 0;
	return false;
}

/* Prints the run's parameters, one "name = value" line each; a queue run's without the guarded workloads'. */
static void print_params(FILE *out, const struct run_result *run)
{
	const bool guarded = figures_is_guarded(run);

	fputs("parameters:", out);
	if (!run->n_params)
		fputs(" none stored", out);
	for (size_t i = 0; i < run->n_params; i++) {
		if (!guarded && guarded_param(run->params[i].name))
			continue;
		fputs("\n  ", out);
		print_clean(out, run->params[i].name);
		fputs(" = ", out);
		print_clean(out, run->params[i].value);
	}
	putc('\n', out);
}

/* Prints the head lookup's plans of run, before and after it, each line indented; nothing when none was read. */
static void print_plans(FILE *out, const struct run_result *run)
{
	for (int k = 0; k < PROBE_MOMENTS; k++) {
		if (!run->probes[k].plan)
			continue;
		fprintf(out, "plan of the head lookup %s the run:\n  ", probe_moment_names[k]);
		print_lines(out, run->probes[k].plan, "  ");
		putc('\n', out);
	}
}

/* Prints the invocation of s: host, version, revision, scenario, settings and scenario text. */
static void print_invocation(FILE *out, const struct store_run *s)
{
	size_t i;

	print_field(out, "command", s->ctx.command);
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
		print_clean(out, s->report.settings[i].name);
		fputs(" = ", out);
		print_clean(out, s->report.settings[i].value);
	}
	fputs("\nscenario text:", out);
	if (s->ctx.scenario_text) {
		fputs("\n  ", out);
		print_lines(out, s->ctx.scenario_text, "  ");
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
	if (store_list(db, stdout, (int)a.settings.limit, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench history: reading %s: %s\n", a.settings.results, err);
		status = EXIT_ENVIRONMENT;
	} else {
		status = finish_output(&history_command);
	}
	store_close(db);
	return status;
}

/* Prints run s as show RUN does before its invocation: the table, parameters and plans. 0, or -1 when out of memory. */
static int print_run(FILE *out, const struct store_run *s)
{
	fprintf(out, "run %lld of invocation %lld, stored %s\n\n", s->run.run_id, s->report.invocation_id, s->recorded_at);
	if (results_print_table(out, &s->report) < 0)
		return -1;
	putc('\n', out);
	print_params(out, &s->run);
	print_plans(out, &s->run);
	return 0;
}

/* Prints the explores of list, each as explore printed it with its verdicts (explore_print_stored). */
static void print_explores(FILE *out, const struct explore_stored *list)
{
	for (size_t i = 0; i < list->n; i++) {
		explore_print_stored(out, &list->items[i].result);
		putc('\n', out);
	}
}

/* Prints the runs of ids (n of them) of db as show RUN prints each, without their invocation. 0, or -1 with err. */
static int print_runs(struct store *db, const long long *ids, size_t n, char *err, size_t errlen)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct store_run s = { 0 };

		rc = store_load(db, ids[i], &s, err, errlen);
		if (rc > 0)
			snprintf(err, errlen, "run %lld is gone", ids[i]);
		if (rc == 0 && i)
			putc('\n', stdout);
		if (rc == 0 && print_run(stdout, &s) < 0) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		}
		store_run_free(&s);
	}
	return rc == 0 ? 0 : -1;
}

/*
 * Prints invocation invocation_id of db: an explore invocation's tables as explore printed
 * them, a run invocation's runs as show RUN prints each, then, once, the invocation. The
 * exit status.
 */
static int show_invocation(struct store *db, const struct store_args *a)
{
	struct explore_stored explores = { 0 };
	struct store_run inv = { 0 };
	long long *ids = NULL;
	size_t n = 0;
	char err[1024];
	int status = EXIT_ENVIRONMENT, rc;

	rc = explore_store_load(db, a->invocation_id, &explores, err, sizeof(err));
	if (rc == 0 && !explores.n)
		rc = store_invocation_runs(db, a->invocation_id, &ids, &n, err, sizeof(err));
	if (rc > 0) {
		fprintf(stderr, "claimbench show: no invocation %lld in %s (see claimbench history)\n", a->invocation_id,
			a->settings.results);
		goto out;
	}
	if (rc == 0 && explores.n) {
		printf("invocation %lld: %zu explore%s\n\n", a->invocation_id, explores.n, explores.n == 1 ? "" : "s");
		print_explores(stdout, &explores);
	}
	if (rc == 0 && n) {
		rc = print_runs(db, ids, n, err, sizeof(err));
		putc('\n', stdout);
	}
	if (rc == 0 && (explores.n || n)) {
		rc = store_invocation_load(db, a->invocation_id, &inv, err, sizeof(err));
		if (rc > 0)
			snprintf(err, sizeof(err), "the invocation is gone");
		if (rc == 0)
			print_invocation(stdout, &inv);
	}
	if (rc != 0) {
		fprintf(stderr, "claimbench show: inv:%lld: %s\n", a->invocation_id, err);
		goto out;
	}
	if (!explores.n && !n)
		printf("invocation %lld holds no run and no explore\n", a->invocation_id);
	status = finish_output(&show_command);
out:
	free(ids);
	store_run_free(&inv);
	explore_stored_free(&explores);
	return status;
}

int cmd_show(int argc, char **argv)
{
	struct store_run s = { 0 };
	struct store_args a = { .invocation_id = 0 };
	struct store *db = NULL;
	int status;

	status = prepare_command(&show_command, argc, argv, &a, &db, &s);
	if (!db)
		return status;
	if (a.invocation_id) {
		status = show_invocation(db, &a);
	} else if (print_run(stdout, &s) < 0) {
		fprintf(stderr, "claimbench show: out of memory\n");
		status = EXIT_ENVIRONMENT;
	} else {
		print_invocation(stdout, &s);
		status = finish_output(&show_command);
	}
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
	rc = a.settings.export_format == EXPORT_CSV ? results_print_csv(stdout, &s.report) : results_print_json(stdout, &s.report);
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
