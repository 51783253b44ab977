/*
 * `claimbench compare BASELINE CANDIDATE`: loads two sets of runs, each a stored run, a
 * stored invocation or a JSON file of the output contract, lets compare.c judge them
 * and prints the verdicts. Exit 1 when a guarded metric regressed.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/parse.h"
#include "base/exit_status.h"
#include "cli/args.h"
#include "cli/invocation.h"
#include "cli/commands.h"
#include "analysis/compare.h"
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
	struct run_result *runs;	/* the runs loaded, n_runs of them (owned array; borrows from stored or doc) */
	size_t n_runs;			/* entries in runs */
	struct store_run_list stored;	/* the store's runs, that runs copy (owned) */
	json_object *doc;		/* the parsed file, whose strings runs point to (owned) */
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

/* Points s->runs at the runs of s->stored. 0, or -1 with err. */
static int copy_stored(struct side *s, char *err, size_t errlen)
{
	s->runs = calloc(s->stored.n + 1, sizeof(*s->runs));
	if (!s->runs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < s->stored.n; i++)
		s->runs[i] = s->stored.runs[i].run;
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

/* ---- loading from a JSON file ---- */

/* Reads the whole file path into a new NUL-terminated *text of *len bytes. 0, or -1 with err. */
static int read_file(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	char *buf = NULL, *grown;
	size_t cap = 0, used = 0, got;
	FILE *f;

	f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (cap - used < 4096) {
			cap = cap ? 2 * cap : 65536;
			grown = realloc(buf, cap + 1);
			if (!grown) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			buf = grown;
		}
		got = fread(buf + used, 1, cap - used, f);
		used += got;
	} while (got);
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		goto fail;
	}
	fclose(f);
	buf[used] = '\0';
	*text = buf;
	*len = used;
	return 0;
fail:
	fclose(f);
	free(buf);
	return -1;
}

/* Parses text (len bytes) as one strict JSON value into *doc. 0, or -1 with err naming path. */
static int parse_json(const char *path, const char *text, size_t len, json_object **doc, char *err,
		      size_t errlen)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	size_t end;
	int ret = -1;

	*doc = NULL;
	if (len > INT_MAX) {
		snprintf(err, errlen, "%s: too large for a result file", path);
		return -1;
	}
	tok = json_tokener_new();
	if (!tok) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	*doc = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	if (jerr == json_tokener_continue) {
		snprintf(err, errlen, "%s is not JSON: it ends inside a value", path);
		goto out;
	}
	if (jerr != json_tokener_success) {
		snprintf(err, errlen, "%s is not JSON: %s at byte %zu", path, json_tokener_error_desc(jerr),
			 json_tokener_get_parse_end(tok));
		goto out;
	}
	for (end = json_tokener_get_parse_end(tok); end < len && strchr(" \t\r\n", text[end]); end++)
		;
	if (end < len) {
		snprintf(err, errlen, "%s is not JSON: something follows the value at byte %zu", path, end);
		goto out;
	}
	ret = 0;
out:
	if (ret < 0) {
		json_object_put(*doc);
		*doc = NULL;
	}
	json_tokener_free(tok);
	return ret;
}

/*
 * The member at dotted path ("fairness.jain") of object obj in *out (NULL for JSON null).
 * 0, or -1 when a step of the path is missing or not an object.
 */
static int member_at(json_object *obj, const char *path, json_object **out)
{
	char key[64];
	const char *dot;
	size_t n;

	for (;;) {
		if (!json_object_is_type(obj, json_type_object))
			return -1;
		dot = strchr(path, '.');
		if (!dot)
			return json_object_object_get_ex(obj, path, out) ? 0 : -1;
		n = (size_t)(dot - path);
		if (n >= sizeof(key))
			return -1;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(obj, key, &obj))
			return -1;
		path = dot + 1;
	}
}

/* Where a run object of a file is, for messages. */
struct run_place {
	const char *path;	/* the file */
	size_t index;		/* the run's index in results */
};

/* Says in err that member key of the run at p is missing or of the wrong type. Returns -1. */
static int bad_member(const struct run_place *p, const char *key, const char *want, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: results[%zu]: \"%s\" is missing or not %s (see the output contract, DESIGN.md)",
		 p->path, p->index, key, want);
	return -1;
}

/* Reads string member key of run into *out (pointing into run). 0, or -1 with err. */
static int get_string(const struct run_place *p, json_object *run, const char *key, const char **out, char *err,
		      size_t errlen)
{
	json_object *v;

	if (member_at(run, key, &v) < 0 || !json_object_is_type(v, json_type_string))
		return bad_member(p, key, "a string", err, errlen);
	*out = json_object_get_string(v);
	return 0;
}

/* Reads integer member key of run, from 1 to INT_MAX, into *out. 0, or -1 with err. */
static int get_workers(const struct run_place *p, json_object *run, const char *key, int *out, char *err,
		       size_t errlen)
{
	json_object *v;
	int64_t n;

	if (member_at(run, key, &v) < 0 || !json_object_is_type(v, json_type_int))
		return bad_member(p, key, "a whole number", err, errlen);
	n = json_object_get_int64(v);
	if (n < 1 || n > INT_MAX)
		return bad_member(p, key, "a whole number from 1", err, errlen);
	*out = (int)n;
	return 0;
}

/* Reads number member path of run into *out; null as NaN. 0, or -1 with err. */
static int get_number(const struct run_place *p, json_object *run, const char *path, double *out, char *err,
		      size_t errlen)
{
	json_object *v;

	if (member_at(run, path, &v) < 0)
		return bad_member(p, path, "a number or null", err, errlen);
	if (!v) {
		*out = NAN;
		return 0;
	}
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return bad_member(p, path, "a number or null", err, errlen);
	*out = json_object_get_double(v);
	return 0;
}

/* Reads count member key of run (a whole number from 0) into *out. 0, or -1 with err. */
static int get_count(const struct run_place *p, json_object *run, const char *key, uint64_t *out, char *err,
		     size_t errlen)
{
	json_object *v;

	if (member_at(run, key, &v) < 0 || !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return bad_member(p, key, "a whole number from 0", err, errlen);
	*out = json_object_get_uint64(v);
	return 0;
}

/* Reads what compare needs of the run object at p into r. 0, or -1 with err. */
static int read_run(const struct run_place *p, json_object *run, struct run_result *r, char *err, size_t errlen)
{
	struct run_metrics *m = &r->metrics;

	if (!json_object_is_type(run, json_type_object)) {
		snprintf(err, errlen, "%s: results[%zu] is not an object", p->path, p->index);
		return -1;
	}
	if (get_string(p, run, "strategy", &r->strategy, err, errlen) < 0 ||
	    get_string(p, run, "claim_mode", &r->claim_mode, err, errlen) < 0 ||
	    get_workers(p, run, "workers", &r->workers, err, errlen) < 0 ||
	    get_number(p, run, "throughput_jps", &m->throughput_jps, err, errlen) < 0 ||
	    get_number(p, run, "makespan_s", &m->makespan_s, err, errlen) < 0 ||
	    get_number(p, run, "fairness.jain", &m->fairness.jain, err, errlen) < 0 ||
	    get_count(p, run, "duplicates", &m->duplicates, err, errlen) < 0 ||
	    get_count(p, run, "lost", &m->lost, err, errlen) < 0 ||
	    get_number(p, run, "claim_latency_ms.p99", &m->claim_latency_ms.p99, err, errlen) < 0)
		return -1;
	return 0;
}

/* Loads the runs of the JSON file s->spec into s. 0, or -1 with err. */
static int load_file(struct side *s, char *err, size_t errlen)
{
	struct run_place p = { .path = s->spec };
	json_object *results;
	char *text;
	size_t len, n;

	if (read_file(s->spec, &text, &len, err, errlen) < 0)
		return -1;
	if (parse_json(s->spec, text, len, &s->doc, err, errlen) < 0) {
		free(text);
		return -1;
	}
	free(text);
	if (!json_object_is_type(s->doc, json_type_object)) {
		snprintf(err, errlen, "%s: expected a JSON object at the top (claimbench run --format json)", s->spec);
		return -1;
	}
	if (!json_object_object_get_ex(s->doc, "results", &results) ||
	    !json_object_is_type(results, json_type_array)) {
		snprintf(err, errlen, "%s: no \"results\" array (claimbench run --format json writes one)", s->spec);
		return -1;
	}
	n = json_object_array_length(results);
	if (!n) {
		snprintf(err, errlen, "%s: \"results\" holds no runs", s->spec);
		return -1;
	}
	s->runs = calloc(n, sizeof(*s->runs));
	if (!s->runs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (p.index = 0; p.index < n; p.index++)
		if (read_run(&p, json_object_array_get_idx(results, p.index), &s->runs[p.index], err, errlen) < 0)
			return -1;
	s->n_runs = n;
	return 0;
}

/* ---- the sides ---- */

/* Loads side s, from db (open when s names the store) or its file. 0, or -1 after printing why. */
static int load_side(struct store *db, const char *path, struct side *s)
{
	char err[1024];
	int rc;

	if (s->kind == SPEC_FILE)
		rc = load_file(s, err, sizeof(err));
	else if (s->kind == SPEC_INVOCATION)
		rc = load_invocation(db, path, s, err, sizeof(err));
	else
		rc = load_stored_run(db, path, s, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "claimbench compare: %s %s: %s\n", s->label, s->spec, err);
	return rc;
}

/* Frees what load_side allocated in s. */
static void free_side(struct side *s)
{
	store_run_list_free(&s->stored);
	free(s->runs);
	json_object_put(s->doc);
}

/* ---- printing ---- */

/* Copies s into buf with control characters shown as '?'; "-" when NULL. */
static void clean_name(char *buf, size_t size, const char *s)
{
	size_t i;

	if (!s)
		s = "-";
	for (i = 0; i + 1 < size && s[i]; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
}

/* Formats v with six significant digits, sign when signed; "-" when not finite. */
static void number_text(char *buf, size_t size, double v, bool sign)
{
	if (!isfinite(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, sign ? "%+.6g" : "%.6g", v);
}

/* The significance column: "yes", "no" or "n/a". */
static const char *significance_text(const struct welch_result *w)
{
	if (!w->valid)
		return "n/a";
	return w->significant ? "yes" : "no";
}

/* Prints group g as "strategy mode workers" columns. */
static void print_group(FILE *out, const struct compare_group *g)
{
	char strategy[48], mode[16];

	clean_name(strategy, sizeof(strategy), g->strategy);
	clean_name(mode, sizeof(mode), g->claim_mode);
	fprintf(out, "%-16s %-4s %4d", strategy, mode, g->workers);
}

/* Prints one row of the table. */
static void print_row(FILE *out, const struct compare_row *row)
{
	char base[32], cand[32], change[32], pct[32], runs[48];

	number_text(base, sizeof(base), row->base.mean, false);
	number_text(cand, sizeof(cand), row->cand.mean, false);
	number_text(change, sizeof(change), row->change, true);
	if (isfinite(row->change_pct))
		snprintf(pct, sizeof(pct), "%+.1f%%", row->change_pct);
	else
		snprintf(pct, sizeof(pct), "-");
	snprintf(runs, sizeof(runs), "%zu/%zu", row->base.n, row->cand.n);
	print_group(out, &row->group);
	fprintf(out, "  %-20s %7s %11s %11s %11s %8s  %-4s  %s\n", row->metric, runs, base, cand, change, pct,
		significance_text(&row->welch), compare_verdict_name(row->verdict));
}

/* Prints group g in words: "strategy mode N workers". */
static void print_group_words(FILE *out, const struct compare_group *g)
{
	char strategy[48], mode[16];

	clean_name(strategy, sizeof(strategy), g->strategy);
	clean_name(mode, sizeof(mode), g->claim_mode);
	fprintf(out, "%s %s %d worker%s", strategy, mode, g->workers, g->workers == 1 ? "" : "s");
}

/* Prints the lines naming the groups found on one side only. */
static void print_lone(FILE *out, const struct compare_result *res)
{
	const struct compare_lone_group *l;
	size_t i;

	for (i = 0; i < res->n_lone; i++) {
		l = &res->lone[i];
		fprintf(out, "only in the %s: ", l->side == SIDE_BASELINE ? "baseline" : "candidate");
		print_group_words(out, &l->group);
		fprintf(out, " (%zu run%s)\n", l->runs, l->runs == 1 ? "" : "s");
	}
}

/* Prints the table of verdicts, the one-sided groups and a line per regression. */
static void print_table(FILE *out, const struct compare_args *a, const struct compare_result *res)
{
	const struct compare_tolerance *t = &a->tol;
	const struct compare_row *row;
	size_t i;

	fprintf(out, "baseline: %s (%zu runs); candidate: %s (%zu runs)\n\n", a->sides[0].spec,
		a->sides[0].n_runs, a->sides[1].spec, a->sides[1].n_runs);
	fprintf(out, "%-16s %-4s %4s  %-20s %7s %11s %11s %11s %8s  %-4s  %s\n", "strategy", "mode", "wrk", "metric",
		"runs", "baseline", "candidate", "change", "change%", "sig", "verdict");
	for (i = 0; i < res->n_rows; i++)
		print_row(out, &res->rows[i]);
	if (!res->n_rows)
		fputs("(no group is on both sides)\n", out);
	if (res->n_lone)
		putc('\n', out);
	print_lone(out, res);
	putc('\n', out);
	for (i = 0; i < res->n_rows; i++) {
		row = &res->rows[i];
		if (row->verdict != VERDICT_REGRESSION)
			continue;
		fputs("REGRESSION: ", out);
		print_group_words(out, &row->group);
		fprintf(out, ", %s %.6g -> %.6g: %s\n", row->metric, row->base.mean, row->cand.mean, row->reason);
	}
	fprintf(out, "%zu regression%s (tolerances: throughput drop %g %%, Jain drop %g, duplicates %s, losses %s)\n",
		res->regressions, res->regressions == 1 ? "" : "s", t->throughput_drop_pct, t->jain_drop,
		t->allow_duplicates ? "allowed" : "not allowed", t->allow_losses ? "allowed" : "not allowed");
}

/* A JSON number with nine significant digits, or JSON null (NULL) when v is not finite. */
static json_object *json_number(double v)
{
	char text[32];

	if (!isfinite(v))
		return NULL;
	snprintf(text, sizeof(text), "%.9g", v);
	return json_object_new_double_s(v, text);
}

/*
 * Adds key = value to obj, value NULL standing for JSON null (as does a value whose own
 * allocation failed). 0, or -1 when out of memory.
 */
static int put(json_object *obj, const char *key, json_object *value)
{
	return json_object_object_add(obj, key, value) == 0 ? 0 : -1;
}

/* Adds the members of group g to obj. 0, or -1 when out of memory. */
static int put_group(json_object *obj, const struct compare_group *g)
{
	json_object *strategy = g->strategy ? json_object_new_string(g->strategy) : NULL;
	json_object *mode = g->claim_mode ? json_object_new_string(g->claim_mode) : NULL;

	if (put(obj, "strategy", strategy) < 0 || put(obj, "claim_mode", mode) < 0)
		return -1;
	return put(obj, "workers", json_object_new_int(g->workers));
}

/* A {n, mean, sd} object of s, or NULL when out of memory. */
static json_object *json_summary(const struct stats_summary *s)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	if (put(obj, "n", json_object_new_uint64(s->n)) < 0 ||
	    put(obj, "mean", s->n ? json_number(s->mean) : NULL) < 0 ||
	    put(obj, "sd", s->n > 1 ? json_number(s->sd) : NULL) < 0) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

/* The JSON object of one row, or NULL when out of memory. */
static json_object *json_row(const struct compare_row *row)
{
	const struct welch_result *w = &row->welch;
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	if (put_group(obj, &row->group) < 0 ||
	    put(obj, "metric", json_object_new_string(row->metric)) < 0 ||
	    put(obj, "higher_is_better", json_object_new_boolean(row->direction == HIGHER_IS_BETTER)) < 0 ||
	    put(obj, "baseline", json_summary(&row->base)) < 0 ||
	    put(obj, "candidate", json_summary(&row->cand)) < 0 ||
	    put(obj, "change", json_number(row->change)) < 0 ||
	    put(obj, "change_pct", json_number(row->change_pct)) < 0 ||
	    put(obj, "significant", w->valid ? json_object_new_boolean(w->significant) : NULL) < 0 ||
	    put(obj, "t", w->valid ? json_number(w->t) : NULL) < 0 ||
	    put(obj, "df", w->valid ? json_number(w->df) : NULL) < 0 ||
	    put(obj, "verdict", json_object_new_string(compare_verdict_name(row->verdict))) < 0 ||
	    put(obj, "reason", row->reason ? json_object_new_string(row->reason) : NULL) < 0) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

/* The array of the groups found on side alone, or NULL when out of memory. */
static json_object *json_lone(const struct compare_result *res, enum compare_side side)
{
	json_object *arr = json_object_new_array(), *obj;
	size_t i;

	for (i = 0; arr && i < res->n_lone; i++) {
		if (res->lone[i].side != side)
			continue;
		obj = json_object_new_object();
		if (!obj || json_object_array_add(arr, obj) < 0) {
			json_object_put(obj);
			goto fail;
		}
		if (put_group(obj, &res->lone[i].group) < 0 ||
		    put(obj, "runs", json_object_new_uint64(res->lone[i].runs)) < 0)
			goto fail;
	}
	return arr;
fail:
	json_object_put(arr);
	return NULL;
}

/* The tolerances as an object, or NULL when out of memory. */
static json_object *json_tolerance(const struct compare_tolerance *t)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	if (put(obj, "throughput_drop_pct", json_number(t->throughput_drop_pct)) < 0 ||
	    put(obj, "jain_drop", json_number(t->jain_drop)) < 0 ||
	    put(obj, "allow_duplicates", json_object_new_boolean(t->allow_duplicates)) < 0 ||
	    put(obj, "allow_losses", json_object_new_boolean(t->allow_losses)) < 0) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

/* Prints the verdicts as one JSON object. 0, or -1 when out of memory. */
static int print_json(FILE *out, const struct compare_args *a, const struct compare_result *res)
{
	json_object *top = json_object_new_object(), *rows = json_object_new_array(), *row;
	size_t i;
	int ret = -1;

	if (!top || !rows)
		goto out;
	for (i = 0; i < res->n_rows; i++) {
		row = json_row(&res->rows[i]);
		if (!row || json_object_array_add(rows, row) < 0) {
			json_object_put(row);
			goto out;
		}
	}
	if (put(top, "baseline", json_object_new_string(a->sides[0].spec)) < 0 ||
	    put(top, "candidate", json_object_new_string(a->sides[1].spec)) < 0 ||
	    put(top, "tolerance", json_tolerance(&a->tol)) < 0 ||
	    put(top, "regressions", json_object_new_uint64(res->regressions)) < 0)
		goto out;
	if (put(top, "comparisons", rows) < 0)
		goto out;
	rows = NULL;
	if (put(top, "only_baseline", json_lone(res, SIDE_BASELINE)) < 0 ||
	    put(top, "only_candidate", json_lone(res, SIDE_CANDIDATE)) < 0)
		goto out;
	fprintf(out, "%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY |
							      JSON_C_TO_STRING_SPACED |
							      JSON_C_TO_STRING_NOSLASHESCAPE));
	ret = 0;
out:
	json_object_put(rows);
	json_object_put(top);
	return ret;
}

/* ---- the command ---- */

int cmd_compare(int argc, char **argv)
{
	struct compare_result res = { 0 };
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
	if (a.format == COMPARE_JSON) {
		if (print_json(stdout, &a, &res) < 0) {
			fprintf(stderr, "claimbench compare: out of memory\n");
			goto out;
		}
	} else {
		print_table(stdout, &a, &res);
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
