/*
 * `claimbench ab BASELINE.ini CANDIDATE.ini --rounds N`: runs the two scenarios in turn
 * on one database (cli/ab_session.h), round after round, then compares each metric of
 * each group on both sides with the paired test of analysis/ab.h and prints the verdicts
 * (output/verdict_print.h). Exit 1 when a gated metric regressed (or, with --fail-on-undecided,
 * when one is undecided); 2 when the command line or
 * a scenario is wrong, or the sides are not comparable (a group on one side only, a run
 * that ran dry).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/ab.h"
#include "base/exit_status.h"
#include "base/parse.h"
#include "cli/ab_session.h"
#include "cli/options.h"
#include "cli/commands.h"
#include "engine/signals.h"
#include "output/verdict_print.h"

/* Rounds ab runs by default, and at most. */
#define AB_ROUNDS_DEFAULT 5
#define AB_ROUNDS_MAX 100

/* The getopt codes of ab's options. */
enum ab_option {
	OPT_ROUNDS = 256,	/* --rounds N */
	OPT_TOLERANCE,		/* --tolerance PCT */
	OPT_TIMING_TOLERANCE,	/* --timing-tolerance PCT */
	OPT_DB,			/* --db CONNINFO */
	OPT_RESULTS,		/* --results PATH */
	OPT_FORMAT,		/* --format table|json|markdown|junit */
	OPT_JUNIT,		/* --junit PATH */
	OPT_FAIL_ON_UNDECIDED,	/* --fail-on-undecided */
	OPT_HELP,		/* --help */
};

/* ab's options, for getopt_long. */
static const struct option ab_options[] = {
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
	{ "timing-tolerance", required_argument, NULL, OPT_TIMING_TOLERANCE },
	{ "db", required_argument, NULL, OPT_DB },
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "fail-on-undecided", no_argument, NULL, OPT_FAIL_ON_UNDECIDED },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* What the command line asked. */
struct ab_args {
	const char *files[2];		/* BASELINE.ini and CANDIDATE.ini */
	long rounds;			/* --rounds */
	struct ab_tolerance tol;	/* --tolerance, --timing-tolerance */
	const char *db;			/* --db, or NULL: the throwaway */
	const char *results;		/* --results, or NULL: run's default store */
	int format;			/* --format: an enum compare_format */
	const char *junit;		/* --junit: a file to write the JUnit XML document into as well, or NULL */
	bool fail_on_undecided;		/* --fail-on-undecided: an undecided metric fails as a regression does */
};

/* Applies one option to the struct ab_args ctx. 0, or -1 with err. */
static int apply_option(int code, const char *value, void *ctx, char *err, size_t errlen)
{
	struct ab_args *a = ctx;
	int word;

	switch (code) {
	case OPT_ROUNDS:
		return parse_long("rounds", value, 2, AB_ROUNDS_MAX, &a->rounds, err, errlen);
	case OPT_TOLERANCE:
		return parse_double("tolerance", value, 0, 100, &a->tol.cost_pct, err, errlen);
	case OPT_TIMING_TOLERANCE:
		return parse_double("timing-tolerance", value, 0, 100, &a->tol.timing_pct, err, errlen);
	case OPT_DB:
		a->db = value;
		return 0;
	case OPT_RESULTS:
		a->results = value;
		return 0;
	case OPT_FORMAT:
		word = parse_word("format", value, compare_formats, err, errlen);
		a->format = word;
		return word < 0 ? -1 : 0;
	case OPT_JUNIT:
		a->junit = value;
		return 0;
	case OPT_FAIL_ON_UNDECIDED:
		a->fail_on_undecided = true;
		return 0;
	}
	snprintf(err, errlen, "unknown option");
	return -1;
}

/*
 * Parses the command line (argv[0] is "ab") into a. EXIT_DONE to go on, -1 when --help
 * was printed, EXIT_USAGE after printing the error.
 */
static int parse_args(int argc, char **argv, struct ab_args *a)
{
	const struct command *c = command_find("ab");
	char err[512];
	int given;

	*a = (struct ab_args){ .rounds = AB_ROUNDS_DEFAULT,
			       .tol = { .cost_pct = AB_COST_TOLERANCE_PCT, .timing_pct = AB_TIMING_TOLERANCE_PCT } };
	switch (args_options(argc, argv, ab_options, OPT_HELP, NULL, apply_option, a, err, sizeof(err))) {
	case ARGS_HELP:
		command_print_usage(c, NULL, stdout);
		return -1;
	case ARGS_ERROR:
		return command_usage_error(c, err);
	case ARGS_OK:
		break;
	}
	given = argc - optind;
	if (given != 2) {
		snprintf(err, sizeof(err), "expected BASELINE.ini and CANDIDATE.ini, got %d argument%s", given,
			 given == 1 ? "" : "s");
		return command_usage_error(c, err);
	}
	a->files[0] = argv[optind];
	a->files[1] = argv[optind + 1];
	return EXIT_DONE;
}

/*
 * Parses file as `claimbench run FILE` with ab's --db and --results into inv. EXIT_DONE,
 * or EXIT_USAGE after saying why, naming the side (also for a group through a pooler,
 * which ab does not run), before anything starts.
 */
static int parse_side(const struct ab_args *a, const char *label, const char *file, struct run_invocation *inv)
{
	char *argv[8], err[1024];
	int argc = 0;

	argv[argc++] = "run";
	if (a->db) {
		argv[argc++] = "--db";
		argv[argc++] = (char *)a->db;
	}
	if (a->results) {
		argv[argc++] = "--results";
		argv[argc++] = (char *)a->results;
	}
	argv[argc++] = (char *)file;
	argv[argc] = NULL;
	if (invocation_parse(command_options, COMMAND_RUN, NULL, argc, argv, inv, err, sizeof(err)) != INVOCATION_RUN) {
		fprintf(stderr, "claimbench ab: %s %s: %s\n", label, file, err);
		return EXIT_USAGE;
	}
	for (size_t g = 0; g < inv->n_groups; g++)
		if (inv->groups[g].pooler != POOLER_NONE) {
			fprintf(stderr, "claimbench ab: %s %s: pooler = %s: ab runs without a pooler; compare pooled "
				"runs with claimbench run\n", label, file, pooler_mode_names[inv->groups[g].pooler]);
			return EXIT_USAGE;
		}
	return EXIT_DONE;
}

/* Says on stderr which groups are on one side only: the sides are not comparable. */
static void print_lone(const struct ab_args *a, const struct ab_result *res)
{
	fprintf(stderr, "claimbench ab: %s and %s do not run the same groups (strategy, claim mode, workers, section, "
		"sweep point), so they cannot be compared:\n", a->files[0], a->files[1]);
	for (size_t i = 0; i < res->n_lone; i++) {
		fprintf(stderr, "  only in the %s: ", res->lone[i].side == SIDE_BASELINE ? "baseline" : "candidate");
		verdict_print_group_words(stderr, &res->lone[i].group);
		putc('\n', stderr);
	}
}

/*
 * Says on stderr, when a side has runs that ran dry, that they cannot be compared. True
 * when one has.
 */
static bool refuse_dry(const struct ab_args *a, const struct ab_result *res)
{
	if (!res->dry_runs[0] && !res->dry_runs[1])
		return false;
	for (int i = 0; i < 2; i++)
		if (res->dry_runs[i])
			fprintf(stderr, "claimbench ab: %zu run%s of the %s %s ran dry: every job was taken before the end "
				"and claims came back empty after (dry.ran_dry)\n", res->dry_runs[i],
				res->dry_runs[i] == 1 ? "" : "s", i ? "candidate" : "baseline", a->files[i]);
	fputs("claimbench ab: a run that ran out of jobs measured less than its duration; nothing compared (give "
	      "it more jobs, or a shorter duration)\n", stderr);
	return true;
}

/* Compares the rounds s ran into res. 0, or -1 when out of memory (said). */
static int compare_rounds(const struct ab_session *s, size_t rounds, const struct ab_tolerance *tol,
			  struct ab_result *res)
{
	struct ab_side sides[2];

	for (int i = 0; i < 2; i++)
		sides[i] = (struct ab_side){ .runs = s->sides[i].result.results, .round = s->sides[i].round,
					     .n = s->sides[i].result.n_results };
	if (ab_compare(&sides[0], &sides[1], rounds, tol, res) < 0) {
		fprintf(stderr, "claimbench ab: out of memory\n");
		return -1;
	}
	return 0;
}

/*
 * Runs the rounds into s, checking after the first that the sides run the same groups.
 * EXIT_DONE, EXIT_USAGE (not comparable, said), EXIT_INCOMPLETE or EXIT_ENVIRONMENT.
 */
static int run_rounds(const struct ab_args *a, struct ab_session *s)
{
	struct ab_result first = { 0 };
	int status;

	for (size_t k = 0; k < (size_t)a->rounds; k++) {
		status = ab_session_round(s, k);
		if (status != EXIT_DONE)
			return status;
		if (k > 0)
			continue;
		if (compare_rounds(s, 1, &a->tol, &first) < 0)
			return EXIT_ENVIRONMENT;
		status = first.n_lone || first.dry_runs[0] || first.dry_runs[1] ? EXIT_USAGE : EXIT_DONE;
		if (first.n_lone)
			print_lone(a, &first);
		else
			refuse_dry(a, &first);
		ab_result_free(&first);
		if (status != EXIT_DONE)
			return status;
	}
	return EXIT_DONE;
}

/*
 * After rounds that ended incomplete (status EXIT_INCOMPLETE) with no signal: a side whose
 * own SQL ended a run of it (run_result.strategy_failure) is said so on stderr (and, for
 * the candidate in a's table format, in a FAILED line on stdout); the baseline's is the
 * job's to fix (EXIT_USAGE), the candidate's a failed candidate (EXIT_EXPECTATION). Else
 * status: interrupted, or the environment's.
 */
static int judge_incomplete(const struct ab_args *a, const struct ab_session *s, int status)
{
	if (status != EXIT_INCOMPLETE || signals_interrupted())
		return status;
	for (int i = 0; i < 2; i++) {
		const struct invocation_result *r = &s->sides[i].result;

		for (size_t j = 0; j < r->n_results; j++) {
			if (!r->results[j].strategy_failure[0])
				continue;
			if (i == 0) {
				fprintf(stderr, "claimbench ab: not comparable: the baseline's own SQL aborted its runs (%s); "
					"fix the baseline\n", r->results[j].strategy_failure);
				return EXIT_USAGE;
			}
			if (a->format == COMPARE_TABLE || a->format == COMPARE_MARKDOWN)
				printf("FAILED: the candidate's own SQL aborted its runs: %s\n",
				       r->results[j].strategy_failure);
			fprintf(stderr, "claimbench ab: the candidate failed: its own SQL aborted its runs (%s); nothing "
				"compared\n", r->results[j].strategy_failure);
			return EXIT_EXPECTATION;
		}
	}
	return status;
}

/* Writes the JUnit XML document of shown into f, --junit's file, and closes it. 0, or -1 after saying why. */
static int write_junit(FILE *f, const char *path, const struct verdict_list *shown)
{
	int rc = 0;

	verdict_print_junit(f, shown);
	if (ferror(f))
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	if (rc < 0)
		fprintf(stderr, "claimbench ab: --junit %s: cannot write it\n", path);
	return rc;
}

/*
 * Prints res in a's format, and its JUnit document into junit (--junit's file, opened
 * before the rounds; closed here) when not NULL; the changed SQL the markdown shows is
 * found by compare_runs over the sides' runs. 0, or -1 after saying why.
 */
static int print_verdicts(const struct ab_args *a, const struct ab_session *s, const struct ab_result *res,
			  FILE **junit)
{
	const struct invocation_result *sides[2] = { &s->sides[0].result, &s->sides[1].result };
	struct ab_report report = { .baseline = a->files[0], .candidate = a->files[1], .rounds = (size_t)a->rounds,
				   .backend = s->db->name, .invocations = { sides[0]->invocation_id, sides[1]->invocation_id },
				   .tol = &a->tol, .fail_on_undecided = a->fail_on_undecided, .res = res };
	const struct compare_tolerance tol = { .throughput_drop_pct = COMPARE_THROUGHPUT_DROP_PCT,
					       .jain_drop = COMPARE_JAIN_DROP };
	const struct compare_scope scope = { 0 };
	struct compare_result diffs = { 0 };
	struct verdict_list shown = { 0 };
	int rc = -1;

	if (compare_runs(sides[0]->results, sides[0]->n_results, sides[1]->results, sides[1]->n_results, &tol, &scope,
			 &diffs) < 0) {
		fprintf(stderr, "claimbench ab: out of memory\n");
		goto out;
	}
	report.diffs = diffs.diffs;
	report.n_diffs = diffs.n_diffs;
	if (ab_verdicts(&report, &shown) < 0 || (a->format == COMPARE_JSON && verdict_print_json(stdout, &shown) < 0)) {
		fprintf(stderr, "claimbench ab: out of memory\n");
		goto out;
	}
	if (a->format == COMPARE_TABLE)
		verdict_print_table(stdout, &shown);
	else if (a->format == COMPARE_MARKDOWN)
		verdict_print_markdown(stdout, &shown);
	else if (a->format == COMPARE_JUNIT)
		verdict_print_junit(stdout, &shown);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "claimbench ab: cannot write the output\n");
		goto out;
	}
	if (*junit && write_junit(*junit, a->junit, &shown) < 0) {
		*junit = NULL;
		goto out;
	}
	*junit = NULL;
	rc = 0;
out:
	verdict_list_free(&shown);
	compare_result_free(&diffs);
	return rc;
}

int cmd_ab(int argc, char **argv)
{
	static struct run_invocation invs[2];
	static struct ab_session s;
	struct ab_result res = { 0 };
	FILE *junit = NULL;
	struct ab_args a;
	char err[1024];
	int status;

	status = parse_args(argc, argv, &a);
	if (status < 0)
		return EXIT_DONE;
	if (status != EXIT_DONE)
		return status;
	/* --junit's file is made before minutes of rounds, so that a path it cannot be written to fails at once. */
	if (a.junit && !(junit = fopen(a.junit, "w"))) {
		fprintf(stderr, "claimbench ab: --junit %s: %s\n", a.junit, strerror(errno));
		return EXIT_ENVIRONMENT;
	}
	for (int i = 0; i < 2 && status == EXIT_DONE; i++)
		status = parse_side(&a, i ? "candidate" : "baseline", a.files[i], &invs[i]);
	if (status != EXIT_DONE)
		goto out_free;
	status = ab_session_open(&s, &invs[0], &invs[1], (size_t)a.rounds, err, sizeof(err));
	if (status != EXIT_DONE) {
		fprintf(stderr, "claimbench ab: %s%s\n", signals_interrupted() ? "interrupted: " : "", err);
		goto out_close;
	}
	status = judge_incomplete(&a, &s, run_rounds(&a, &s));
	if (status == EXIT_INCOMPLETE)
		fprintf(stderr, "claimbench ab: rounds incomplete%s; nothing compared\n",
			signals_interrupted() ? " (interrupted)" : " (a worker aborted, or a run could not progress)");
	if (status != EXIT_DONE)
		goto out_keep;
	status = EXIT_ENVIRONMENT;
	if (compare_rounds(&s, (size_t)a.rounds, &a.tol, &res) < 0)
		goto out_keep;
	status = EXIT_USAGE;
	if (refuse_dry(&a, &res))
		goto out_keep;
	status = EXIT_ENVIRONMENT;
	if (print_verdicts(&a, &s, &res, &junit) < 0)
		goto out_keep;
	status = ab_gate_fails(&res, a.fail_on_undecided) ? EXIT_EXPECTATION : EXIT_DONE;
out_keep:
	if (ab_session_keep(&s) != EXIT_DONE && status != EXIT_INCOMPLETE)
		status = EXIT_ENVIRONMENT;
out_close:
	ab_result_free(&res);
	ab_session_close(&s);
out_free:
	if (junit)
		fclose(junit);
	invocation_free(&invs[0]);
	invocation_free(&invs[1]);
	return status;
}
