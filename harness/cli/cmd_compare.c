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
#include "cli/commands.h"
#include "output/compare_print.h"
#include "output/report_read.h"
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
	const char *spec;		/* the argument as given */
	enum spec_kind kind;		/* what spec names */
	long long id;			/* the run or invocation id (SPEC_RUN, SPEC_INVOCATION) */
	const struct run_result *runs;	/* the runs loaded, n_runs of them: own_runs or file.runs */
	size_t n_runs;			/* entries in runs */
	struct run_result *own_runs;	/* copies of the stored runs (owned array; their pointers borrowed) */
	struct store_run_list stored;	/* the store's runs, that runs copy (owned) */
	struct report_file file;	/* the file's runs (owned) */
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
 * Parses the command line (argv[0] is "compare") into a. EXIT_DONE to go on, -1 when
 * --help was printed, EXIT_USAGE after printing the error.
 */
static int parse_args(int argc, char **argv, struct compare_args *a)
{
	const struct command *c = command_find("compare");
	enum command_start start;
	char err[512];
	int i;

	*a = (struct compare_args){ .sides = { { .label = "baseline" }, { .label = "candidate" } } };
	start = command_read(c, argc, argv, &a->settings);
	if (start != COMMAND_GO)
		return start == COMMAND_HELP_SHOWN ? -1 : EXIT_USAGE;
	if (argc - optind != 2) {
		snprintf(err, sizeof(err), "expected BASELINE and CANDIDATE, got %d argument%s", argc - optind,
			 argc - optind == 1 ? "" : "s");
		return command_usage_error(c, err);
	}
	for (i = 0; i < 2; i++) {
		a->sides[i].spec = argv[optind + i];
		if (parse_side(&a->sides[i], err, sizeof(err)) < 0)
			return command_usage_error(c, err);
	}
	return EXIT_DONE;
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
	    store_open_existing(a.settings.results, &db, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench compare: %s\n", err);
		goto out;
	}
	for (i = 0; i < 2; i++)
		if (load_side(db, a.settings.results, &a.sides[i]) < 0)
			goto out;
	if (compare_runs(a.sides[0].runs, a.sides[0].n_runs, a.sides[1].runs, a.sides[1].n_runs, &a.settings.tol, &res) < 0) {
		fprintf(stderr, "claimbench compare: out of memory\n");
		goto out;
	}
	shown = (struct compare_report){ .baseline = a.sides[0].spec, .baseline_runs = a.sides[0].n_runs,
					 .candidate = a.sides[1].spec, .candidate_runs = a.sides[1].n_runs,
					 .tol = &a.settings.tol, .res = &res };
	if (a.settings.compare_format == COMPARE_JSON) {
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
