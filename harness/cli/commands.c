/* The table of subcommands and the --help text made from it. */
#include <string.h>

#include "base/exit_status.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "output/results_print.h"

const struct command commands[] = {
	{
		.name = "run",
		.summary = "run strategies against a queue table and print the measurements",
		.synopsis = "claimbench run [options] [SCENARIO.ini]",
		.about = "Runs each strategy at each worker count on a fresh queue table and prints the measurements.\n"
			 "With no option it runs the classic scenario (seed 001): every strategy, 200 jobs,\n"
			 "10 workers, 100 ms of work each, on a throwaway PostgreSQL (or, when no PostgreSQL\n"
			 "server programs are installed, on a temporary SQLite file).\n",
		.tail = "Exit status: 0 done, 1 an expectation failed, 2 usage error, 3 database or environment error\n"
			"(the results could not be stored among them), 4 run incomplete (interrupted, or a worker\n"
			"aborted). A first Ctrl-C or SIGTERM stops the run and keeps what was measured; a second\n"
			"ends the process at once.\n",
		.legend = results_print_legend,
		.options = COMMAND_RUN,
		.run = cmd_run,
	},
	{
		.name = "explore",
		.summary = "run every interleaving of the workers' statements and check each outcome",
		.synopsis = "claimbench explore [--claims C] [--crash] [--sample N] [--schedule TRACE] [--expect E] [run's options]",
		.about = "K workers (default 2) each make C claims (default 2) on a queue of J jobs (default 2).\n"
			 "Every statement a worker sends is a step: a scheduler lets one step go at a time and waits\n"
			 "until each worker waits at its next step, has finished, or is blocked in the server on\n"
			 "another's lock; every interleaving is run depth-first, each from fresh tables (or, with\n"
			 "--sample N, N seeded random ones), and each schedule's outcome is checked: duplicates, lost,\n"
			 "stuck and zombie jobs, deadlocks, lock errors, empty claims while a job was claimable.\n"
			 "Prints per strategy and mode the schedules run and the findings, and the shortest schedule\n"
			 "with a violation statement by statement with its trace, which --schedule replays, and\n"
			 "stores it in the result store (--results; claimbench history, claimbench show inv:N).\n"
			 "Explore's own options come first below; run's set the strategies, modes, workers (default 2\n"
			 "here), jobs (default 2 here), lease, reaper and fence, and a scenario file may give them;\n"
			 "its [explore-expect] lines (name = STRATEGY[:MODE].KIND OP N) are checked as --expect is.\n"
			 "Run's other options (--repeat, --duration, the faults, --verify ...) are refused, on the\n"
			 "command line and in the file (exit 2). PostgreSQL only: --db sqlite: and mariadb: are\n"
			 "refused (exit 2) before anything connects (docs/explore.md).\n",
		.tail = "Exit status: 0 done, 1 an expectation failed, 2 usage error (a trace that does not apply,\n"
			"an option explore does not honour, SQLite or MariaDB, a --claims or --max-steps that\n"
			"overflows a schedule's 512 choices), 3 database or environment error (a result store that refused an explore: its\n"
			"results are kept in a file stderr names), 4 interrupted.\n",
		.options = COMMAND_EXPLORE,
		.run = cmd_explore,
	},
	{
		.name = "list",
		.summary = "list the strategies, their claim modes, backends and options; or the metrics, guards or backends",
		.synopsis = "claimbench list [metrics | guards | backends]",
		.about = "Lists every strategy: its claim modes on each backend (* marks the default, - means\n"
			 "it cannot run there), what it does, and the options of those that have their own.\n"
			 "`claimbench list metrics` prints every metric instead, as a Markdown table (its path,\n"
			 "column, table cell, summary, how compare judges it, its definition): docs/metric-list.md.\n"
			 "`claimbench list guards` prints every guard; `claimbench list backends` every backend:\n"
			 "how --db selects it, the SQL it speaks, its throwaway and what it can do.\n",
		.options = -1,
		.run = cmd_list,
	},
	{
		.name = "history",
		.summary = "list the runs and explores in the result store, newest first",
		.synopsis = "claimbench history [--results PATH] [--limit N]",
		.about = "Lists the stored runs, newest first: id, the invocation it belongs to, when it was\n"
			 "stored, strategy, claim mode, workers, makespan, throughput, duplicates, lost jobs,\n"
			 "Jain's fairness index, complete, and the command that made it (run, ab). An explore's\n"
			 "strategy and mode is a line too (id -, command explore with its schedules and those with\n"
			 "a violation): claimbench show inv:N prints it.\n",
		.tail = "Exit status: 0 done, 2 usage error, 3 the store cannot be read.\n",
		.options = COMMAND_HISTORY,
		.run = cmd_history,
	},
	{
		.name = "show",
		.summary = "print one stored run, or an invocation, and where it came from",
		.synopsis = "claimbench show RUN | inv:N [--results PATH]",
		.about = "Prints stored run RUN (an id from claimbench history) as claimbench run's table, then its\n"
			 "parameters and its invocation: command, host, claimbench version, git revision, server\n"
			 "settings and scenario text. inv:N prints invocation N: an explore's tables as claimbench\n"
			 "explore printed them (the schedule shown and its trace) with the expectations' verdicts,\n"
			 "or each run of a run's, then the invocation.\n",
		.tail = "Exit status: 0 done, 2 usage error, 3 the store, the run or the invocation cannot be read.\n",
		.options = COMMAND_SHOW,
		.run = cmd_show,
	},
	{
		.name = "export",
		.summary = "print one stored run as CSV or JSON",
		.synopsis = "claimbench export RUN --format csv|json [--results PATH]",
		.about = "Prints stored run RUN (an id from claimbench history) as claimbench run --format csv or\n"
			 "json printed it.\n",
		.tail = "Exit status: 0 done, 2 usage error, 3 the store or the run cannot be read.\n",
		.options = COMMAND_EXPORT,
		.run = cmd_export,
	},
	{
		.name = "compare",
		.summary = "compare a candidate's runs with a baseline's; exit 1 on a regression",
		.synopsis = "claimbench compare {BASELINE CANDIDATE | [BASELINE] --last} [options]",
		.about = "Compares the candidate's runs with the baseline's, grouped by strategy, claim mode,\n"
			 "workers, scenario section, sweep point and engine (backend and server version): for each\n"
			 "group on both sides and each metric, the means, the change and whether it is significant\n"
			 "at 95 % (Welch's t-test; n/a with fewer than 2 runs on a side). First it checks that both\n"
			 "sides ran the same workload: a run parameter (work-ms, jobs, duration, arrival-rate, seed,\n"
			 "...) with other values on the two sides is refused unless --allow-diff names it, and so are\n"
			 "runs of two engines unless --allow-diff names backend (each line then names both).\n"
			 "\n"
			 "BASELINE and CANDIDATE are each\n"
			 "  42          run 42 of the result store (see claimbench history)\n"
			 "  inv:7       every run of invocation 7 of the result store (claimbench run prints it)\n"
			 "  FILE        a JSON file of claimbench run --format json or claimbench export --format json\n"
			 "              of at most 64 MiB (a file whose name is all digits: ./42)\n",
		.tail = "Verdicts: ok; better or worse (significant changes; worse also beyond a tolerance but not\n"
			"significant); REGRESSION: a guarded metric (throughput, Jain's index) beyond its tolerance\n"
			"and significantly so, or with one run on a side where significance cannot be tested; new\n"
			"duplicates, zombie completions or lost jobs at once. Run --repeat 3 or more on both sides\n"
			"to tell a change from noise.\n"
			"Exit status: 0 no regression, 1 a regression, 2 usage error, the workloads differ, no\n"
			"group is on both sides or a side is an explore invocation, 3 a side cannot be read.\n",
		.options = COMMAND_COMPARE,
		.run = cmd_compare,
	},
	{
		.name = "ab",
		.summary = "run two scenarios in turn on one server and compare them round by round; exit 1 on a regression",
		.synopsis = "claimbench ab BASELINE.ini CANDIDATE.ini [--rounds N] [--tolerance PCT] [options]",
		.about = "Runs the two scenarios in turn on one database, round after round (AB, BA, AB, ...), each\n"
			 "run on fresh tables, on the throwaway server as claimbench run does unless --db names one,\n"
			 "and stores each side's runs as an invocation of the result store. Then, for each group\n"
			 "(strategy, claim mode, workers, section, sweep point) of both and each metric, it pairs\n"
			 "the rounds and prints the change with its 95 % confidence interval (paired t), ~ where\n"
			 "the interval holds 0, each side's spread over the rounds and the minimum detectable\n"
			 "effect: the smallest change these rounds find 80 % of the time.\n"
			 "\n"
			 "  --rounds N               rounds, from 2 to 100 (default 5)\n"
			 "  --tolerance PCT          a cost per job (work counted, not timed) worse by more than\n"
			 "                           this, significantly, is a regression (default 5)\n"
			 "  --timing-tolerance PCT   the same for a timing: throughput, latency, makespan (default 10)\n"
			 "  --db CONNINFO            the database both run on (run's --db); default: a throwaway\n"
			 "  --results PATH           the result store (default results/claimbench.db)\n"
			 "  --format F               the verdicts as a table (default), json (one object), markdown\n"
			 "                           (a pull request's comment: the verdicts, the changed SQL, the\n"
			 "                           table folded) or junit (a test case per gated metric per group)\n"
			 "  --junit PATH             also write the JUnit XML document to PATH (created or replaced)\n"
			 "  --fail-on-undecided      an undecided metric fails the gate (exit 1) as a regression does\n"
			 "\n"
			 "A cost or timing is a regression when its 95 % interval lies wholly beyond its tolerance\n"
			 "the worse way, whatever its detectable effect; no regression when the interval lies wholly\n"
			 "within the tolerance; undecided when it holds the tolerance, said with the rounds that\n"
			 "would decide it. A line per section says which metrics its groups gate. docs/ci.md has a\n"
			 "CI job and the rounds a 2-core runner needs.\n",
		.tail = "Verdicts: ~ no significant change; better; worse (significant, not a regression);\n"
			"REGRESSION: a cost or timing whose interval lies wholly beyond --tolerance or\n"
			"--timing-tolerance; duplicates or lost jobs where the baseline had none; undecided: the\n"
			"interval holds the tolerance.\n"
			"Exit status: 0 no regression, 1 a regression (or an undecided metric under\n"
			"--fail-on-undecided) or a failed candidate (its own SQL aborted its runs: a FAILED line),\n"
			"2 usage error or not comparable (a bad scenario, the two run different groups, a timed\n"
			"run ran out of jobs, the baseline's own SQL aborted its runs), 3 database or environment\n"
			"error, 4 interrupted, or a run ended by its environment.\n",
		.options = -1,
		.run = cmd_ab,
	},
	{
		.name = "report",
		.summary = "draw charts of stored runs and write report.md and report.html",
		.synopsis = "claimbench report [RUN... | inv:N | --last] [--out DIR] [--results PATH]",
		.about = "Draws charts of stored runs with gnuplot (PNG and SVG: throughput against workers,\n"
			 "makespan, each worker's share, claim-latency percentiles, completions over time,\n"
			 "duplicates/overlaps/losses; for guarded runs holders over time and waits for a\n"
			 "grant) and writes report.md and report.html beside them.\n"
			 "\n"
			 "  RUN...           run ids, as claimbench history lists them\n"
			 "  inv:N            every run of invocation N\n",
		.tail = "Needs gnuplot (apt-get install gnuplot-nox). The chart templates (charts/*.gp) are found\n"
			"in $CLAIMBENCH_SCRIPTS when it is set, else in ../share/claimbench (installed) or\n"
			"../scripts (source tree) beside the binary.\n"
			"Exit status: 0 done, 2 usage error or an explore invocation (claimbench show inv:N prints\n"
			"it), 3 the store, gnuplot or the output directory fails.\n",
		.options = COMMAND_REPORT,
		.run = cmd_report,
	},
	{
		.name = "cleanup",
		.summary = "remove the throwaway servers, files and tables that dead claimbench runs left behind",
		.synopsis = "claimbench cleanup [--db CONNINFO] [--dry-run]",
		.about = "Finds what claimbench processes that are no longer running (killed, crashed) left\n"
			 "behind, by the owner notes claimbench writes: throwaway PostgreSQL clusters and\n"
			 "temporary SQLite directories under $TMPDIR (or /tmp), whose servers it stops, and, with\n"
			 "--db, queue and ticket tables in that database, and what an adapter's library made for\n"
			 "a dead run (its manifest's tables, schemas and cleanup, found by the run's marker table).\n"
			 "It removes them, each as the user who owns it; what belongs to a live process, or to\n"
			 "another host, is left alone and listed.\n",
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
	if (c->legend) {
		putc('\n', out);
		c->legend(out);
	}
}

enum command_start command_read(const struct command *c, int argc, char **argv, struct command_settings *settings)
{
	struct option_set set;
	char err[512];

	if (option_set_build(&set, command_options, (enum command_id)c->options, err, sizeof(err)) < 0)
		goto bad;
	switch (command_parse(&set, argc, argv, settings, err, sizeof(err))) {
	case ARGS_HELP:
		command_print_usage(c, &set, stdout);
		return COMMAND_HELP_SHOWN;
	case ARGS_ERROR:
		goto bad;
	case ARGS_OK:
		break;
	}
	return COMMAND_GO;
bad:
	command_usage_error(c, err);
	return COMMAND_BAD;
}

int command_usage_error(const struct command *c, const char *err)
{
	fprintf(stderr, "claimbench %s: %s\n(see claimbench %s --help)\n", c->name, err, c->name);
	return EXIT_USAGE;
}
