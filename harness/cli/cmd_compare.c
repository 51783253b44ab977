/*
 * `claimbench compare BASELINE CANDIDATE`: loads two sets of runs, each a stored run, a
 * stored invocation (store/store.h) or a JSON file of the output contract
 * (output/report_read.h), lets analysis/compare.c judge them and prints the verdicts
 * (output/compare_print.h). Exit 1 when a guarded metric regressed.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "base/exit_status.h"
#include "base/parse.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "output/compare_print.h"
#include "output/report_read.h"
#include "store/store.h"

/* Long-only options get codes past the ASCII range. */
enum compare_option_code {
	OPT_RESULTS = 256, OPT_THROUGHPUT_DROP, OPT_JAIN_DROP, OPT_ALLOW_DUPLICATES, OPT_ALLOW_LOSSES, OPT_FORMAT,
	OPT_HELP,
};

/* What one side of the comparison names. */
enum spec_kind {
	SPEC_RUN,		/* a run id in the store */
	SPEC_INVOCATION,	/* every run of an invocation in the store ("inv:ID") */
	SPEC_FILE,		/* a JSON file of the output contract */
};

/* One side of the comparison: what its argument names and the runs loaded from it. */
struct side {
	const char *label;		/* "baseline" or "candidate", for messages */
	const char *spec;		/* the argument as given */
	enum spec_kind kind;		/* what spec names */
	long long id;			/* the run or invocation id (SPEC_RUN, SPEC_INVOCATION) */
	const struct run_result *runs;	/* the runs loaded, n_runs of them: own_runs or file.runs */
	size_t n_runs;			/* entries in runs */
	struct run_result *own_runs;	/* copies of the stored runs (owned array; their pointers borrowed) */
	struct store_run_list stored;	/* the store's runs, that runs copy (owned) */
	struct report_file file;	/* the file's runs (owned) */
};

/* The output formats. */
enum compare_format {
	COMPARE_TABLE,	/* one line per group and metric, for a person */
	COMPARE_JSON,	/* an object with regressions and comparisons */
};

/* What the command line asked. */
struct compare_args {
	const char *results;		/* --results: the store's path */
	struct compare_tolerance tol;	/* the tolerances, defaults overridden by options */
	enum compare_format format;	/* --format */
	struct side sides[2];		/* BASELINE and CANDIDATE */
};

static const struct option options[] = {
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "throughput-drop", required_argument, NULL, OPT_THROUGHPUT_DROP },
	{ "jain-drop", required_argument, NULL, OPT_JAIN_DROP },
	{ "allow-duplicates", no_argument, NULL, OPT_ALLOW_DUPLICATES },
	{ "allow-losses", no_argument, NULL, OPT_ALLOW_LOSSES },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* A macro's value as a string literal, for the usage text. */
#define STRINGIFY(x) #x
#define TEXT_OF(x) STRINGIFY(x)

static const char usage[] =
	"usage: claimbench compare BASELINE CANDIDATE [options]\n"
	"Compares the candidate's runs with the baseline's, grouped by strategy, claim mode and\n"
	"workers: for each group on both sides and each metric, the means, the change and whether\n"
	"it is significant at 95 % (Welch's t-test; n/a with fewer than 2 runs on a side). Exits 1\n"
	"when a guarded metric regressed beyond its tolerance.\n"
	"\n"
	"BASELINE and CANDIDATE are each\n"
	"  42          run 42 of the result store (see claimbench history)\n"
	"  inv:7       every run of invocation 7 of the result store\n"
	"  FILE        a JSON file of claimbench run --format json or claimbench export --format json\n"
	"              (a file whose name is all digits: ./42)\n"
	"\n"
	"  --results PATH           the result store (default " STORE_DEFAULT_PATH ")\n"
	"  --throughput-drop PCT    regression when mean throughput falls more than PCT %\n"
	"                           (default " TEXT_OF(COMPARE_THROUGHPUT_DROP_PCT) ")\n"
	"  --jain-drop X            regression when mean Jain's index falls more than X\n"
	"                           (default " TEXT_OF(COMPARE_JAIN_DROP) ")\n"
	"  --allow-duplicates       duplicates where the baseline had none are no regression\n"
	"  --allow-losses           lost jobs where the baseline had none are no regression\n"
	"  --format table|json      the output format (default table)\n"
	"\n"
	"Verdicts: ok, better or worse (significant changes), REGRESSION (beyond a tolerance).\n"
	"Exit status: 0 no regression, 1 a regression, 2 usage error, 3 a side cannot be read.\n";

/* ---- the command line ---- */

/* Reads --format's value into a. 0, or -1 with err. */
static int parse_format(const char *value, struct compare_args *a, char *err, size_t errlen)
{
	static const char *const names[] = { "table", "json", NULL };
	int v = parse_word("format", value, names, err, errlen);

	a->format = v == 1 ? COMPARE_JSON : COMPARE_TABLE;
	return v < 0 ? -1 : 0;
}

/* Applies option code, with value when it takes one, to the struct compare_args at ctx. 0, or -1 with err. */
static int apply_option(int code, const char *value, void *ctx, char *err, size_t errlen)
{
	struct compare_args *a = ctx;

	switch (code) {
	case OPT_THROUGHPUT_DROP:
		return parse_double("throughput-drop", value, 0, 100, &a->tol.throughput_drop_pct, err, errlen);
	case OPT_JAIN_DROP:
		return parse_double("jain-drop", value, 0, 1, &a->tol.jain_drop, err, errlen);
	case OPT_ALLOW_DUPLICATES:
		a->tol.allow_duplicates = true;
		return 0;
	case OPT_ALLOW_LOSSES:
		a->tol.allow_losses = true;
		return 0;
	case OPT_FORMAT:
		return parse_format(value, a, err, errlen);
	default:
		a->results = value;
		return 0;
	}
}


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
 * Parses the command line (argv[0] is "compare") into a. EXIT_DONE to go on, -1 when
 * --help was printed, EXIT_USAGE after printing the error.
 */
static int parse_args(int argc, char **argv, struct compare_args *a)
{
	char err[512];
	int i;

	*a = (struct compare_args){ .results = STORE_DEFAULT_PATH, .format = COMPARE_TABLE };
	compare_default_tolerance(&a->tol);
	a->sides[0].label = "baseline";
	a->sides[1].label = "candidate";
	switch (args_options(argc, argv, options, OPT_HELP, usage, apply_option, a, err, sizeof(err))) {
	case ARGS_HELP:
		return -1;
	case ARGS_ERROR:
		goto usage;
	case ARGS_OK:
		break;
	}
	if (argc - optind != 2) {
		snprintf(err, sizeof(err), "expected BASELINE and CANDIDATE, got %d argument%s", argc - optind,
			 argc - optind == 1 ? "" : "s");
		goto usage;
	}
	for (i = 0; i < 2; i++) {
		a->sides[i].spec = argv[optind + i];
		if (parse_side(&a->sides[i], err, sizeof(err)) < 0)
			goto usage;
	}
	return EXIT_DONE;
usage:
	fprintf(stderr, "claimbench compare: %s\n(see claimbench compare --help)\n", err);
	return EXIT_USAGE;
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

/* Loads every run of invocation s->id into s. 0, or -1 with err. */
static int load_invocation(struct store *db, const char *path, struct side *s, char *err, size_t errlen)
{
	size_t added;
	int rc;

	rc = store_run_list_add_invocation(db, s->id, &s->stored, &added, err, errlen);
	if (rc > 0)
		snprintf(err, errlen, "no invocation %lld in %s", s->id, path);
	else if (rc == 0 && added == 0)
		snprintf(err, errlen, "invocation %lld in %s holds no runs", s->id, path);
	return rc == 0 && added ? copy_stored(s, err, errlen) : -1;
}

/* ---- the sides ---- */

/* Loads side s, from db (open when s names the store) or its file. 0, or -1 after printing why. */
static int load_side(struct store *db, const char *path, struct side *s)
{
	char err[1024];
	int rc;

	if (s->kind == SPEC_FILE) {
		rc = report_file_read(s->spec, &s->file, err, sizeof(err));
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
	report_file_free(&s->file);
}

/* ---- the command ---- */

int cmd_compare(int argc, char **argv)
{
	struct compare_result res = { 0 };
	struct compare_report shown;
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
	if ((a.sides[0].kind != SPEC_FILE || a.sides[1].kind != SPEC_FILE) &&
	    store_open_existing(a.results, &db, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench compare: %s\n", err);
		goto out;
	}
	for (i = 0; i < 2; i++)
		if (load_side(db, a.results, &a.sides[i]) < 0)
			goto out;
	if (compare_runs(a.sides[0].runs, a.sides[0].n_runs, a.sides[1].runs, a.sides[1].n_runs, &a.tol, &res) < 0) {
		fprintf(stderr, "claimbench compare: out of memory\n");
		goto out;
	}
	shown = (struct compare_report){ .baseline = a.sides[0].spec, .baseline_runs = a.sides[0].n_runs,
					 .candidate = a.sides[1].spec, .candidate_runs = a.sides[1].n_runs,
					 .tol = &a.tol, .res = &res };
	if (a.format == COMPARE_JSON) {
		if (compare_print_json(stdout, &shown) < 0) {
			fprintf(stderr, "claimbench compare: out of memory\n");
			goto out;
		}
	} else {
		compare_print_table(stdout, &shown);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "claimbench compare: cannot write the output\n");
		goto out;
	}
	status = res.regressions ? EXIT_EXPECTATION : EXIT_DONE;
out:
	compare_result_free(&res);
	free_side(&a.sides[0]);
	free_side(&a.sides[1]);
	store_close(db);
	return status;
}
