/*
 * `claimbench manpage`: the manual page claimbench(1) in roff, made from the command
 * table and the option tables, so that it says what --help says. `make install` installs
 * what it prints.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/exit_status.h"
#include "cli/commands.h"
#include "plugin/strategy.h"
#include "generated/version.h"

/* Writes text for roff: backslashes and hyphens escaped, a line's leading '.' or '\'' guarded. */
static void roff(FILE *out, const char *text)
{
	bool line_start = true;

	for (; *text; text++) {
		if (line_start && (*text == '.' || *text == '\''))
			fputs("\\&", out);
		if (*text == '\\')
			fputs("\\e", out);
		else if (*text == '-')
			fputs("\\-", out);
		else
			putc(*text, out);
		line_start = *text == '\n';
	}
}

/* Writes a tagged paragraph: tag, then text under it (both escaped: a leading dot is no macro). */
static void roff_tagged(FILE *out, const char *tag, const char *text)
{
	fputs(".TP\n", out);
	roff(out, tag);
	putc('\n', out);
	roff(out, text);
	putc('\n', out);
}

/* The environment variables the manual page lists: each name and what it does. */
static const struct {
	const char *name;	/* the variable (or variables) */
	const char *text;	/* what it does */
} environment[] = {
	{ "CLAIMBENCH_PG_BINDIR", "the directory of PostgreSQL's server programs (initdb, pg_ctl) for the throwaway "
				  "server; none: use none, and fall back to a temporary SQLite file." },
	{ "CLAIMBENCH_CACHE_DIR", "where the throwaway PostgreSQL's template cluster (initdb's output, copied by later "
				  "throwaway servers) is kept (default $XDG_CACHE_HOME/claimbench, else "
				  "~/.cache/claimbench); none: keep and use none." },
	{ "CLAIMBENCH_SCRIPTS", "the directory holding the chart templates (charts/common.gp)." },
	{ "TMPDIR", "where throwaway servers and files are made (default /tmp)." },
	{ "PGPASSWORD, PGPASSFILE, PGSERVICE", "the better places for a password than --db; any password given in "
					       "--db is masked in what claimbench keeps or prints, and in what ps "
					       "shows." },
};

/* Writes one option row as a tagged paragraph: the option, its value's name, its help and default. */
static void roff_option(FILE *out, const struct option_def *o)
{
	fputs(".TP\n\\fB", out);
	roff(out, "--");
	roff(out, o->name);
	fputs("\\fR", out);
	if (o->arg) {
		fputs(" \\fI", out);
		roff(out, o->arg);
		fputs("\\fR", out);
	}
	putc('\n', out);
	roff(out, o->help);
	if (o->def && o->type != OPTION_FLAG) {
		roff(out, " (default ");
		roff(out, o->def);
		putc(')', out);
	}
	fputs(".\n", out);
}

/* Writes one command's section: its synopsis, what it does, its options. */
static void roff_command(FILE *out, const struct command *c)
{
	struct option_set set;
	char err[256];

	fputs(".SS ", out);
	roff(out, c->name);
	fputs("\n.B ", out);
	roff(out, c->synopsis);
	fputs("\n.PP\n", out);
	roff(out, c->about ? c->about : c->summary);
	fputs("\n", out);
	if (c->options < 0 || option_set_build(&set, command_options, (enum command_id)c->options, err, sizeof(err)) < 0)
		goto tail;
	for (size_t i = 0; i < set.n_command_rows; i++)
		roff_option(out, set.rows[i]);
	for (size_t s = 0; (c->options == COMMAND_RUN || c->options == COMMAND_EXPLORE) && s < strategy_registry_len; s++) {
		const struct strategy_ops *st = strategy_registry[s];

		if (!st->options || !st->options->name)
			continue;
		fputs(".PP\nOptions of the strategy \\fB", out);
		roff(out, st->name);
		fputs("\\fR (a value sets every strategy that has the option):\n", out);
		for (const struct option_def *o = st->options; o->name; o++)
			roff_option(out, o);
	}
tail:
	if (c->tail) {
		fputs(".PP\n", out);
		roff(out, c->tail);
	}
}

int cmd_manpage(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--help") == 0) {
		command_print_usage(command_find("manpage"), NULL, stdout);
		return EXIT_DONE;
	}
	if (argc > 1) {
		fprintf(stderr, "claimbench manpage: unexpected argument \"%s\"\n(see claimbench manpage --help)\n", argv[1]);
		return EXIT_USAGE;
	}
	printf(".TH CLAIMBENCH 1 \"\" \"claimbench %s\" \"User Commands\"\n", CLAIMBENCH_VERSION);
	fputs(".SH NAME\nclaimbench \\- a testing and benchmark harness for queue\\-claiming strategies\n"
	      ".SH SYNOPSIS\n.B claimbench\n.I COMMAND\n[\\fIoptions\\fR]\n"
	      ".SH DESCRIPTION\n", stdout);
	roff(stdout, "claimbench runs the ways many concurrent workers take jobs from a database table "
		     "(naive select, FOR UPDATE, NOWAIT with back-off, SKIP LOCKED, a ticket queue, UPDATE ... "
		     "RETURNING) with a multithreaded load generator against PostgreSQL, SQLite or MariaDB, and measures "
		     "throughput, fairness, claim latency and duplicate or lost work, exactly, from its own ledger "
		     "of every execution. With no database given it starts a throwaway PostgreSQL server of its own.\n");
	fputs(".SH COMMANDS\n", stdout);
	for (const struct command *c = commands; c->name; c++)
		roff_command(stdout, c);
	fputs(".SH ENVIRONMENT\n", stdout);
	for (size_t i = 0; i < sizeof(environment) / sizeof(environment[0]); i++)
		roff_tagged(stdout, environment[i].name, environment[i].text);
	fputs(".SH FILES\n", stdout);
	roff_tagged(stdout, "results/claimbench.db", "the result store every run is appended to (--results).");
	fputs(".SH SEE ALSO\n", stdout);
	roff(stdout, "The docs/ folder of the source: metrics.md (every metric's definition), scenarios.md (the "
		     "scenario format), json-contract.md (the JSON output), design-notes.md.\n");
	return EXIT_DONE;
}
