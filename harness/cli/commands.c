/* The table of subcommands and the --help text made from it. */
#include <string.h>

#include "cli/commands.h"

const struct command commands[] = {
	{
		.name = "run",
		.summary = "run strategies against a queue table and print the measurements",
		.synopsis = "claimbench run [options]",
		.about = "Runs each strategy at each worker count on a fresh queue table and prints the measurements.\n"
			 "With no option it runs the classic scenario (seed 001): every strategy, 200 jobs,\n"
			 "10 workers, 100 ms of work each, on a throwaway PostgreSQL (or, when no PostgreSQL\n"
			 "server programs are installed, on a temporary SQLite file).\n",
		.tail = "Exit status: 0 done, 1 an expectation failed, 2 usage error, 3 database or environment error\n"
			"(the results could not be stored among them), 4 run incomplete (interrupted, or a worker\n"
			"aborted). A first Ctrl-C or SIGTERM stops the run and keeps what was measured; a second\n"
			"ends the process at once.\n",
		.options = COMMAND_RUN,
		.run = cmd_run,
	},
	{
		.name = "list",
		.summary = "list the strategies, their claim modes, backends and options",
		.synopsis = "claimbench list",
		.about = "Lists every strategy: its claim modes on each backend (* marks the default, - means\n"
			 "it cannot run there), what it does, and the options of those that have their own.\n",
		.options = -1,
		.run = cmd_list,
	},
	{
		.name = "history",
		.summary = "list the runs in the result store, newest first",
		.synopsis = "claimbench history [--results PATH] [--limit N]",
		.options = -1,
		.run = cmd_history,
	},
	{
		.name = "show",
		.summary = "print one stored run and the invocation it came from",
		.synopsis = "claimbench show RUN [--results PATH]",
		.options = -1,
		.run = cmd_show,
	},
	{
		.name = "export",
		.summary = "print one stored run as CSV or JSON",
		.synopsis = "claimbench export RUN --format csv|json [--results PATH]",
		.options = -1,
		.run = cmd_export,
	},
	{
		.name = "compare",
		.summary = "compare a candidate's runs with a baseline's; exit 1 on a regression",
		.synopsis = "claimbench compare BASELINE CANDIDATE [options]",
		.options = -1,
		.run = cmd_compare,
	},
	{
		.name = "report",
		.summary = "draw charts of stored runs and write report.md and report.html",
		.synopsis = "claimbench report [RUN... | inv:N | --last] [--out DIR] [--results PATH]",
		.options = -1,
		.run = cmd_report,
	},
	{
		.name = "cleanup",
		.summary = "remove the throwaway servers, files and tables that dead claimbench runs left behind",
		.synopsis = "claimbench cleanup [--db CONNINFO] [--dry-run]",
		.about = "Finds what claimbench processes that are no longer running (killed, crashed) left\n"
			 "behind, by the owner notes claimbench writes: throwaway PostgreSQL clusters and\n"
			 "temporary SQLite directories under $TMPDIR (or /tmp), whose servers it stops, and, with\n"
			 "--db, queue and ticket tables in that database. It removes them, each as the user who\n"
			 "owns it; what belongs to a live process, or to another host, is left alone and listed.\n",
		.tail = "Exit status: 0 done, 2 usage error, 3 the database is unreachable or something could not\n"
			"be removed.\n",
		.options = COMMAND_CLEANUP,
		.run = cmd_cleanup,
	},
	{
		.name = "manpage",
		.summary = "print this manual page, claimbench(1), in roff (make install installs it)",
		.synopsis = "claimbench manpage",
		.about = "Prints the manual page claimbench(1) in roff, made from the same tables as --help.\n",
		.options = -1,
		.run = cmd_manpage,
	},
	{ .name = NULL },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

void command_print_usage(const struct command *c, const struct option_set *set, FILE *out)
{
	fprintf(out, "usage: %s\n", c->synopsis);
	if (c->about)
		fputs(c->about, out);
	if (set) {
		putc('\n', out);
		option_set_print(set, out);
	}
	if (c->tail)
		fprintf(out, "\n%s", c->tail);
}
