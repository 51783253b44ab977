/*
 * `claimbench compare BASELINE CANDIDATE`: loads two sets of runs, each a stored run, a
 * stored invocation (store/store.h) or a JSON file of the output contract
 * (output/results_read.h), or with --last the store's latest invocations, lets
 * analysis/compare.c judge them and prints the verdicts (output/verdict_print.h). Exit 1
 * when a guarded metric regressed; 2, printing no verdict, when the workloads differ or
 * no group is on both sides.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "base/exit_status.h"
#include "base/parse.h"
#include "base/text.h"
#include "cli/commands.h"
#include "explore/explore_store.h"
#include "cli/option_table.h"
#include "plugin/sql_strategy.h"
#include "plugin/strategy.h"
#include "output/verdict_print.h"
#include "output/results_read.h"
#include "store/store.h"

/* What one side of the comparison names. */
enum spec_kind {
	SPEC_RUN,		/* a run id in the store */
	SPEC_INVOCATION,	/* every run of an invocation in the store ("inv:ID") */
	SPEC_FILE,		/* a JSON file of the output contract */
};

/* One side of the comparison: what its argument names and the runs loaded from it. */
struct side {
	const char *label;		/* "baseline" or "candidate", for messages */
	const char *spec;		/* the argument as given, or spec_text */
	char spec_text[32];		/* "inv:N" of an invocation --last chose */
	enum spec_kind kind;		/* what spec names */
	long long id;			/* the run or invocation id (SPEC_RUN, SPEC_INVOCATION) */
	const struct run_result *runs;	/* the runs loaded, n_runs of them: own_runs or file.runs */
	size_t n_runs;			/* entries in runs */
	struct run_result *own_runs;	/* copies of the stored runs (owned array; their pointers borrowed) */
	struct store_run_list stored;	/* the store's runs, that runs copy (owned) */
	struct results_file file;	/* the file's runs (owned) */
};

/* What the command line asked. */
struct compare_args {
	struct command_settings settings;	/* its options: --results, the tolerances, --format */
	struct side sides[2];			/* BASELINE and CANDIDATE */
};

/* Classifies s->spec: a run id, "inv:ID" or a file. 0, or -1 with err. */
static int parse_side(struct side *s, char *err, size_t errlen)
{
	const char *spec = s->spec;

	if (strncmp(spec, "inv:", 4) == 0) {
		s->kind = SPEC_INVOCATION;
		if (!parse_id(spec + 4, &s->id)) {
			snprintf(err, errlen, "%s: expected inv:ID with an invocation id from 1, got \"%s\"",
				 s->label, spec);
			return -1;
		}
	} else if (spec[0] && strspn(spec, "0123456789") == strlen(spec)) {
		s->kind = SPEC_RUN;
		if (!parse_id(spec, &s->id)) {
			snprintf(err, errlen, "%s: expected a run id from 1 (see claimbench history), got \"%s\"",
				 s->label, spec);
			return -1;
		}
	} else {
		s->kind = SPEC_FILE;
	}
	return 0;
}

/*
 * True when name is a stored run parameter, as `show` lists them: a command's run option,
 * a strategy's option, the SQL of a strategy defined in SQL ("claim-sql" ...), or
 * "backend": the runs' engine, backend and server version.
 */
static bool run_parameter(const char *name)
{
	const struct option_def *o = option_find(command_options, name);
	char key[32];

	for (int role = 0; role < SQL_ROLE_COUNT; role++) {
		snprintf(key, sizeof(key), "%s-sql", sql_role_key(role));
		if (strcmp(name, key) == 0)
			return true;
	}

	if (strcmp(name, "backend") == 0 || (o && o->place == OPTION_IN_RUN && !(o->flags & OPTION_NOT_STORED)))
		return true;
	for (size_t i = 0; i < strategy_registry_len; i++)
		if (strategy_registry[i]->options && option_find(strategy_registry[i]->options, name))
			return true;
	return false;
}

/* Checks that every name of --allow-diff is a run parameter. 0, or -1 with err. */
static int check_allowed(const char *list, char *err, size_t errlen)
{
	size_t len;
	char name[64];

	for (const char *item; (item = text_list_next(&list, &len));) {
		snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) - 1 ? len : sizeof(name) - 1), item);
		if (!run_parameter(name)) {
			snprintf(err, errlen, "--allow-diff: \"%s\" is not a run parameter (claimbench show RUN lists them)",
				 name);
			return -1;
		}
	}
	return 0;
}

/*
 * Parses the command line (argv[0] is "compare") into a. EXIT_DONE to go on, -1 when
 * --help was printed, EXIT_USAGE after printing the error.
 */
static int parse_args(int argc, char **argv, struct compare_args *a)
{
	const struct command *c = command_find("compare");
	enum command_start start;
	int i, given, wanted;
	char err[512];

	*a = (struct compare_args){ .sides = { { .label = "baseline" }, { .label = "candidate" } } };
	start = command_read(c, argc, argv, &a->settings);
	if (start != COMMAND_GO)
		return start == COMMAND_HELP_SHOWN ? -1 : EXIT_USAGE;
	given = argc - optind;
	wanted = a->settings.last ? given : 2;
	if (a->settings.last ? given > 1 : given != 2) {
		snprintf(err, sizeof(err), a->settings.last ? "--last takes at most a BASELINE, got %d arguments" :
			 "expected BASELINE and CANDIDATE (or --last), got %d argument%s", given, given == 1 ? "" : "s");
		return command_usage_error(c, err);
	}
	if (check_allowed(a->settings.scope.allowed_diffs, err, sizeof(err)) < 0)
		return command_usage_error(c, err);
	for (i = 0; i < wanted; i++) {
		a->sides[i].spec = argv[optind + i];
		if (parse_side(&a->sides[i], err, sizeof(err)) < 0)
			return command_usage_error(c, err);
	}
	return EXIT_DONE;
}

/*
 * Names the sides --last leaves open after the store's latest invocations: the
 * candidate the latest, the baseline (when not given) the one before. 0, or -1 after
 * printing why.
 */
static int choose_last(struct store *db, const char *path, struct compare_args *a)
{
	bool baseline_given = a->sides[0].spec != NULL;
	size_t want = baseline_given ? 1 : 2, found;
	long long ids[2];
	char err[1024];

	if (store_latest_invocations(db, ids, want, &found, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench compare: %s\n", err);
		return -1;
	}
	if (found < want) {
		fprintf(stderr, "claimbench compare: --last needs %zu invocation%s in %s, which holds %zu\n", want,
			want == 1 ? "" : "s", path, found);
		return -1;
	}
	for (size_t k = 0; k < want; k++) {
		struct side *s = &a->sides[baseline_given ? 1 : 1 - k];

		s->kind = SPEC_INVOCATION;
		s->id = ids[k];
		snprintf(s->spec_text, sizeof(s->spec_text), "inv:%lld", ids[k]);
		s->spec = s->spec_text;
	}
	return 0;
}

/* ---- loading from the store ---- */

/* Copies the runs of s->stored into a new s->runs. 0, or -1 with err. */
static int copy_stored(struct side *s, char *err, size_t errlen)
{
	s->own_runs = calloc(s->stored.n + 1, sizeof(*s->own_runs));
	if (!s->own_runs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < s->stored.n; i++)
		s->own_runs[i] = s->stored.runs[i].run;
	s->runs = s->own_runs;
	s->n_runs = s->stored.n;
	return 0;
}

/* Loads run s->id of the store into s. 0, or -1 with err. */
static int load_stored_run(struct store *db, const char *path, struct side *s, char *err, size_t errlen)
{
	char why[512];
	int rc;

	rc = store_run_list_add(db, s->id, &s->stored, why, sizeof(why));
	if (rc > 0)
		snprintf(err, errlen, "no run %lld in %s (see claimbench history)", s->id, path);
	else if (rc < 0)
		snprintf(err, errlen, "run %lld: %s", s->id, why);
	return rc == 0 ? copy_stored(s, err, errlen) : -1;
}

/*
 * Loads every run of invocation s->id into s. 0, -1 with err, or -2 with err when it is an
 * explore's (explore_store.h).
 */
static int load_invocation(struct store *db, const char *path, struct side *s, char *err, size_t errlen)
{
	size_t added;
	int rc;

	rc = store_run_list_add_invocation(db, s->id, &s->stored, &added, err, errlen);
	if (rc > 0)
		snprintf(err, errlen, "no invocation %lld in %s", s->id, path);
	if (rc != 0 || added)
		return rc == 0 ? copy_stored(s, err, errlen) : -1;
	rc = explore_refusal(db, s->id, "compare", err, errlen);
	if (rc == 0)
		snprintf(err, errlen, "invocation %lld in %s holds no runs", s->id, path);
	return rc > 0 ? -2 : -1;
}

/* ---- the sides ---- */

/*
 * Loads side s, from db (open when s names the store) or its file. 0, or after printing why
 * -1, or -2 when s names what compare does not compare (an explore invocation).
 */
static int load_side(struct store *db, const char *path, struct side *s)
{
	char err[1024];
	int rc;

	if (s->kind == SPEC_FILE) {
		rc = results_file_read(s->spec, &s->file, err, sizeof(err));
		s->runs = s->file.runs;
		s->n_runs = s->file.n_runs;
	} else if (s->kind == SPEC_INVOCATION) {
		rc = load_invocation(db, path, s, err, sizeof(err));
	} else {
		rc = load_stored_run(db, path, s, err, sizeof(err));
	}
	if (rc < 0)
		fprintf(stderr, "claimbench compare: %s %s: %s\n", s->label, s->spec, err);
	return rc;
}

/* Frees what load_side allocated in s. */
static void free_side(struct side *s)
{
	store_run_list_free(&s->stored);
	free(s->own_runs);
	results_file_free(&s->file);
}

/* ---- the command ---- */

/* Prints the workload's differences that no --allow-diff allows, and how to allow them. */
static void print_refused_diffs(const struct compare_result *res)
{
	const struct compare_param_diff *d;
	char value[2][64], strategy[48];
	bool first = true;

	fprintf(stderr, "claimbench compare: the two sides ran different workloads, so their figures cannot be compared:\n");
	for (size_t i = 0; i < res->n_diffs; i++) {
		d = &res->diffs[i];
		if (d->allowed)
			continue;
		text_clean(value[0], sizeof(value[0]), d->base_value, SIZE_MAX);
		text_clean(value[1], sizeof(value[1]), d->cand_value, SIZE_MAX);
		text_clean(strategy, sizeof(strategy), d->group.strategy, SIZE_MAX);
		fprintf(stderr, "  %s: baseline %s, candidate %s (first in %s at %d workers)\n", d->name, value[0],
			value[1], strategy, d->group.workers);
	}
	fputs("Compare them anyway with --allow-diff ", stderr);
	for (size_t i = 0; i < res->n_diffs; i++) {
		if (res->diffs[i].allowed)
			continue;
		fprintf(stderr, "%s%s", first ? "" : ",", res->diffs[i].name);
		first = false;
	}
	fputs(", or pick runs of one workload.\n", stderr);
}

/* Says which runs ran out of jobs before their end, and why compare will not gate on them. */
static void print_dry_runs(const struct compare_args *a, const struct compare_result *res)
{
	const struct compare_dry_run *d = &res->first_dry;
	char strategy[48];

	text_clean(strategy, sizeof(strategy), d->group.strategy, SIZE_MAX);
	fprintf(stderr, "claimbench compare: %zu run%s of the baseline and %zu of the candidate ran out of jobs before "
			"their end; the first, the %s's %s %s x%d #%d, %.2f s into its %g s\n",
		res->dry_runs[0], res->dry_runs[0] == 1 ? "" : "s", res->dry_runs[1], a->sides[d->side].label, strategy,
		d->group.claim_mode ? d->group.claim_mode : "", d->group.workers, d->repeat, d->at_s, d->duration_s);
	fputs("A run that ran dry measured the backlog's size as much as the strategy: its figures are not gated. Give "
	      "it more --jobs or a shorter --duration.\n", stderr);
}

/*
 * True, after saying why on stderr, when res must not be shown as verdicts: a side with no
 * run in scope, the workloads differ, no group is on both sides, or a run ran dry.
 */
static bool refuse(const struct compare_args *a, const struct compare_result *res)
{
	for (int i = 0; i < 2; i++) {
		if (res->runs_in_scope[i])
			continue;
		fprintf(stderr, "claimbench compare: the %s %s has no run of --strategy %s\n", a->sides[i].label,
			a->sides[i].spec, a->settings.scope.strategies);
		return true;
	}
	if (res->refused_diffs) {
		print_refused_diffs(res);
		return true;
	}
	if (res->dry_runs[0] || res->dry_runs[1]) {
		print_dry_runs(a, res);
		return true;
	}
	if (!res->n_rows) {
		fprintf(stderr, "claimbench compare: no group (strategy, claim mode, workers, section, sweep point, engine) is on "
				"both sides: %s has %zu run%s, %s %zu, none alike; nothing was compared\n",
			a->sides[0].spec, a->sides[0].n_runs, a->sides[0].n_runs == 1 ? "" : "s", a->sides[1].spec,
			a->sides[1].n_runs);
		return true;
	}
	return false;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_result res = { 0 };
	struct compare_report report;
	struct verdict_list shown = { 0 };
	struct compare_args a;
	char err[1024];
	struct store *db = NULL;
	int status, i;

	status = parse_args(argc, argv, &a);
	if (status < 0)
		return EXIT_DONE;
	if (status != EXIT_DONE)
		return status;
	status = EXIT_ENVIRONMENT;
	if ((a.settings.last || a.sides[0].kind != SPEC_FILE || a.sides[1].kind != SPEC_FILE) &&
	    store_open_existing(a.settings.results, &db, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench compare: %s\n", err);
		goto out;
	}
	if (a.settings.last && choose_last(db, a.settings.results, &a) < 0)
		goto out;
	for (i = 0; i < 2; i++) {
		int rc = load_side(db, a.settings.results, &a.sides[i]);

		if (rc < 0) {
			status = rc == -2 ? EXIT_USAGE : EXIT_ENVIRONMENT;
			goto out;
		}
	}
	if (compare_runs(a.sides[0].runs, a.sides[0].n_runs, a.sides[1].runs, a.sides[1].n_runs, &a.settings.tol,
			 &a.settings.scope, &res) < 0) {
		fprintf(stderr, "claimbench compare: out of memory\n");
		goto out;
	}
	status = EXIT_USAGE;
	if (refuse(&a, &res))
		goto out;
	report = (struct compare_report){ .baseline = a.sides[0].spec, .baseline_runs = a.sides[0].n_runs,
					  .candidate = a.sides[1].spec, .candidate_runs = a.sides[1].n_runs,
					  .tol = &a.settings.tol, .res = &res };
	if (compare_verdicts(&report, &shown) < 0 ||
	    (a.settings.compare_format == COMPARE_JSON && verdict_print_json(stdout, &shown) < 0)) {
		fprintf(stderr, "claimbench compare: out of memory\n");
		goto out;
	}
	if (a.settings.compare_format == COMPARE_MARKDOWN)
		verdict_print_markdown(stdout, &shown);
	else if (a.settings.compare_format == COMPARE_JUNIT)
		verdict_print_junit(stdout, &shown);
	else if (a.settings.compare_format != COMPARE_JSON)
		verdict_print_table(stdout, &shown);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "claimbench compare: cannot write the output\n");
		goto out;
	}
	status = res.regressions ? EXIT_EXPECTATION : EXIT_DONE;
out:
	verdict_list_free(&shown);
	compare_result_free(&res);
	free_side(&a.sides[0]);
	free_side(&a.sides[1]);
	store_close(db);
	return status;
}
