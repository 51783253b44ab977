/* `claimbench report`: charts and the design-review documents of stored runs. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/parse.h"
#include "base/exit_status.h"
#include "report/chart_plot.h"
#include "report/chart_report.h"
#include "report/out_dir.h"
#include "cli/commands.h"
#include "explore/explore_store.h"
#include "cli/section_select.h"
#include "report/report_doc.h"
#include "output/figures.h"

/* Where the report goes when --out is not given: this, then the invocation or the first run. */
#define REPORT_DEFAULT_DIR "results/report-"

/* What `claimbench report` was asked. */
struct report_args {
	struct command_settings settings;	/* its options: --results, --out, --force, --last, --section */
	char **operands;			/* RUN and inv:N operands, in order (points into argv) */
	int n_operands;				/* entries in operands */
};

/* The runs a report covers, loaded. */
struct selection {
	struct store_run_list list;	/* the runs, in the order asked (owned) */
	char subject[256];		/* "invocation N" or "runs A, B, ..." */
	char default_dir[64];		/* REPORT_DEFAULT_DIR "inv-N" or "run-A" */
};

/* Checks one operand: RUN or inv:N. 0, or -1 with err. */
static int check_operand(const char *text, char *err, size_t errlen)
{
	long long v;

	if (strncmp(text, "inv:", 4) == 0 ? parse_id(text + 4, &v) : parse_id(text, &v))
		return 0;
	snprintf(err, errlen, "expected a run id or inv:N (a whole number from 1; see claimbench history), got \"%s\"",
		 text);
	return -1;
}

/* Parses the command line into a. EXIT_DONE to go on, -1 when --help was printed, EXIT_USAGE after the error. */
static int parse_args(int argc, char **argv, struct report_args *a)
{
	const struct command *c = command_find("report");
	enum command_start start;
	char err[512];
	int i;

	*a = (struct report_args){ .n_operands = 0 };
	start = command_read(c, argc, argv, &a->settings);
	if (start != COMMAND_GO)
		return start == COMMAND_HELP_SHOWN ? -1 : EXIT_USAGE;
	a->operands = argv + optind;
	a->n_operands = argc - optind;
	for (i = 0; i < a->n_operands; i++)
		if (check_operand(a->operands[i], err, sizeof(err)) < 0)
			return command_usage_error(c, err);
	if (a->settings.last && a->n_operands)
		return command_usage_error(c, "--last takes no RUN or inv:N");
	return EXIT_DONE;
}

/* Loads run run_id as the next run of sel. 0, or -1 after printing why. */
static int add_run(struct store *db, const char *path, long long run_id, struct selection *sel)
{
	char err[1024];
	int rc;

	rc = store_run_list_add(db, run_id, &sel->list, err, sizeof(err));
	if (rc > 0)
		fprintf(stderr, "claimbench report: no run %lld in %s (see claimbench history)\n", run_id, path);
	else if (rc < 0)
		fprintf(stderr, "claimbench report: run %lld: %s\n", run_id, err);
	return rc == 0 ? 0 : -1;
}

/*
 * Loads every run of invocation id into sel. 0, or after printing why -1, or -2 when it is an
 * explore's (explore_store.h).
 */
static int add_invocation(struct store *db, const char *path, long long id, struct selection *sel)
{
	char err[1024];
	size_t added;
	int rc, refused = 0;

	rc = store_run_list_add_invocation(db, id, &sel->list, &added, err, sizeof(err));
	if (rc == 0 && added)
		return 0;
	if (rc == 0)
		refused = explore_refusal(db, id, "report", err, sizeof(err));
	if (rc < 0 || refused < 0) {
		fprintf(stderr, "claimbench report: invocation %lld: %s\n", id, err);
		return -1;
	}
	if (refused) {
		fprintf(stderr, "claimbench report: %s\n", err);
		return -2;
	}
	fprintf(stderr, "claimbench report: no runs of invocation %lld in %s (see claimbench history)\n", id, path);
	return -1;
}

/* Appends ", text" (or text, for the first) to sel's subject, "..." once it is full. */
static void add_subject(struct selection *sel, const char *text)
{
	size_t len = strlen(sel->subject);

	if (len + strlen(text) + 6 >= sizeof(sel->subject)) {
		if (len + 5 < sizeof(sel->subject) && !strstr(sel->subject, "..."))
			strcat(sel->subject, ", ...");
		return;
	}
	snprintf(sel->subject + len, sizeof(sel->subject) - len, "%s%s", len ? ", " : "", text);
}

/*
 * Loads the runs a asks for into sel. EXIT_DONE, or after printing why EXIT_USAGE (an explore
 * invocation) or EXIT_ENVIRONMENT.
 */
static int select_runs(struct store *db, const struct report_args *a, struct selection *sel)
{
	char text[64], err[1024];
	long long id;
	size_t found;
	int i, rc;

	if (!a->n_operands) {
		rc = store_latest_invocations(db, &id, 1, &found, err, sizeof(err));
		if (rc < 0 || !found) {
			fprintf(stderr, "claimbench report: %s%s\n", rc == 0 ? "no runs in " : "",
				rc == 0 ? a->settings.results : err);
			return EXIT_ENVIRONMENT;
		}
		snprintf(sel->subject, sizeof(sel->subject), "invocation %lld", id);
		snprintf(sel->default_dir, sizeof(sel->default_dir), REPORT_DEFAULT_DIR "inv-%lld", id);
		rc = add_invocation(db, a->settings.results, id, sel);
		return rc == 0 ? EXIT_DONE : rc == -2 ? EXIT_USAGE : EXIT_ENVIRONMENT;
	}
	for (i = 0; i < a->n_operands; i++) {
		if (strncmp(a->operands[i], "inv:", 4) == 0) {
			id = strtoll(a->operands[i] + 4, NULL, 10);
			snprintf(text, sizeof(text), "invocation %lld", id);
			rc = add_invocation(db, a->settings.results, id, sel);
		} else {
			id = strtoll(a->operands[i], NULL, 10);
			snprintf(text, sizeof(text), "run %lld", id);
			rc = add_run(db, a->settings.results, id, sel);
		}
		if (rc < 0)
			return rc == -2 ? EXIT_USAGE : EXIT_ENVIRONMENT;
		add_subject(sel, text);
		if (i == 0)
			snprintf(sel->default_dir, sizeof(sel->default_dir), REPORT_DEFAULT_DIR "%s-%lld",
				 strncmp(a->operands[i], "inv:", 4) == 0 ? "inv" : "run", id);
	}
	return EXIT_DONE;
}

/* Prints on stderr "the runs' sections are: " and the sections of sel's runs, "none ..." when none. */
static void print_sections(const struct selection *sel)
{
	size_t shown = 0;

	fputs("the runs' sections are: ", stderr);
	for (size_t i = 0; i < sel->list.n; i++) {
		const char *g = sel->list.runs[i].run.group;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = sel->list.runs[j].run.group && g && strcmp(sel->list.runs[j].run.group, g) == 0;
		if (seen || !g || !*g)
			continue;
		fprintf(stderr, "%s%s", shown++ ? ", " : "", g);
	}
	fputs(shown ? "\n" : "none (no run of a scenario section)\n", stderr);
}

/*
 * Keeps of sel's runs those of the sections in list (comma-separated), in order, and
 * names them in its subject and default folder. EXIT_DONE; EXIT_USAGE after printing
 * why when a name is empty, named twice, or no section of the runs (it names those there are).
 */
static int keep_sections(struct selection *sel, const char *list)
{
	size_t kept = 0, len;
	char err[512], *p;

	if (section_list_check(list, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench report: %s\n", err);
		return EXIT_USAGE;
	}
	for (const char *item = list;; item += len + 1) {
		bool found = false;

		len = strcspn(item, ",");
		for (size_t i = 0; i < sel->list.n && !found && len; i++)
			found = sel->list.runs[i].run.group && strlen(sel->list.runs[i].run.group) == len &&
				strncmp(sel->list.runs[i].run.group, item, len) == 0;
		if (!found) {
			fprintf(stderr, "claimbench report: --section: no run of %s is of section \"%.*s\"; ", sel->subject,
				(int)len, item);
			print_sections(sel);
			return EXIT_USAGE;
		}
		if (!item[len])
			break;
	}
	for (size_t i = 0; i < sel->list.n; i++) {
		if (!section_listed(list, sel->list.runs[i].run.group)) {
			store_run_free(&sel->list.runs[i]);
			continue;
		}
		if (kept != i) {
			sel->list.runs[kept] = sel->list.runs[i];
			sel->list.runs[kept].report.results = &sel->list.runs[kept].run;
		}
		kept++;
	}
	sel->list.n = kept;
	len = strlen(sel->subject);
	snprintf(sel->subject + len, sizeof(sel->subject) - len, ", section %s", list);
	len = strlen(sel->default_dir);
	snprintf(sel->default_dir + len, sizeof(sel->default_dir) - len, "-%s", list);
	for (p = sel->default_dir + len; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			*p = '_';
	return EXIT_DONE;
}

/*
 * Creates dir's missing parents (mode 0755 at most: out_dir_claim refuses a parent others
 * may write into) and makes dir, copied into path (size PATH_MAX) without its trailing
 * slashes, the report's folder, open in *out (out_dir_claim, force passed on). EXIT_DONE; EXIT_USAGE or
 * EXIT_ENVIRONMENT after printing why.
 */
static int make_dirs(const char *dir, bool force, char *path, struct out_dir *out)
{
	char err[PATH_MAX + 600];
	size_t i;
	int rc;

	if (snprintf(path, PATH_MAX, "%s", dir) >= PATH_MAX) {
		fprintf(stderr, "claimbench report: %s: path too long\n", dir);
		return EXIT_USAGE;
	}
	for (i = strlen(path); i > 1 && path[i - 1] == '/'; i--)
		path[i - 1] = '\0';
	for (i = 1; path[i]; i++) {
		if (path[i] != '/')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			fprintf(stderr, "claimbench report: cannot create %s: %s\n", path, strerror(errno));
			return EXIT_ENVIRONMENT;
		}
		path[i] = '/';
	}
	rc = out_dir_claim(path, force, out, err, sizeof(err));
	if (rc == 0)
		return EXIT_DONE;
	fprintf(stderr, "claimbench report: %s\n", err);
	return rc > 0 ? EXIT_USAGE : EXIT_ENVIRONMENT;
}

/* The runs of a report grouped for the charts: its queue runs and its guarded runs apart. */
struct report_sets {
	struct store_run *queue_runs;	/* shallow copies of the queue runs, in order (owned array, not their data) */
	struct store_run *guarded_runs;	/* shallow copies of the guarded runs, in order (the same) */
	struct chart_set queue;		/* queue_runs grouped: the queue charts' */
	struct chart_set guarded;	/* guarded_runs grouped: the guarded charts' */
};

/* Frees what sets_build allocated in s and zeroes it; a zeroed s is fine. */
static void sets_free(struct report_sets *s)
{
	chart_set_free(&s->queue);
	chart_set_free(&s->guarded);
	free(s->queue_runs);
	free(s->guarded_runs);
	memset(s, 0, sizeof(*s));
}

/* Splits sel's runs into queue and guarded runs and groups each into s. 0, or -1 when out of memory (s freed). */
static int sets_build(const struct selection *sel, struct report_sets *s)
{
	size_t n_queue = 0, n_guarded = 0;

	memset(s, 0, sizeof(*s));
	s->queue_runs = calloc(sel->list.n + 1, sizeof(*s->queue_runs));
	s->guarded_runs = calloc(sel->list.n + 1, sizeof(*s->guarded_runs));
	if (!s->queue_runs || !s->guarded_runs)
		goto fail;
	for (size_t i = 0; i < sel->list.n; i++) {
		if (figures_is_guarded(&sel->list.runs[i].run))
			s->guarded_runs[n_guarded++] = sel->list.runs[i];
		else
			s->queue_runs[n_queue++] = sel->list.runs[i];
	}
	if (chart_set_build(&s->queue, s->queue_runs, n_queue) < 0 ||
	    chart_set_build(&s->guarded, s->guarded_runs, n_guarded) < 0)
		goto fail;
	return 0;
fail:
	sets_free(s);
	return -1;
}

/* Draws the charts of sel and writes the documents into dir. EXIT_DONE, or EXIT_ENVIRONMENT after printing why. */
static int make_report(const struct selection *sel, const char *gnuplot, const char *scripts,
		       const struct out_dir *dir)
{
	struct chart_list charts = { 0 };
	struct report_sets sets;
	struct report_doc doc;
	char err[1024];
	int status = EXIT_DONE;

	if (sets_build(sel, &sets) < 0) {
		fprintf(stderr, "claimbench report: out of memory\n");
		return EXIT_ENVIRONMENT;
	}
	if (chart_report_draw(&sets.queue, &sets.guarded, gnuplot, scripts, dir, &charts, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench report: %s\n", err);
		status = EXIT_ENVIRONMENT;
		goto out;
	}
	doc = (struct report_doc){ .subject = sel->subject, .dir = dir, .runs = sel->list.runs,
				   .n_runs = sel->list.n, .set = &sets.queue, .guarded = &sets.guarded,
				   .charts = charts.charts, .n_charts = charts.n };
	if (report_doc_markdown(&doc, err, sizeof(err)) < 0 || report_doc_html(&doc, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench report: %s\n", err);
		status = EXIT_ENVIRONMENT;
		goto out;
	}
	printf("report of %s: %zu runs, %zu charts (PNG and SVG)\n  %s/report.md\n  %s/report.html\n", sel->subject,
	       sel->list.n, charts.n, dir->path, dir->path);
	if (sets.queue.runs_without_series)
		printf("note: %zu of %zu runs have no time series in the store; the timeline leaves them out\n",
		       sets.queue.runs_without_series, sets.queue.n_runs);
out:
	chart_list_free(&charts);
	sets_free(&sets);
	return status;
}

int cmd_report(int argc, char **argv)
{
	char gnuplot[PATH_MAX], scripts[PATH_MAX], path[PATH_MAX], err[1024];
	struct out_dir out = { .fd = -1 };
	struct selection sel = { 0 };
	struct report_args a;
	struct store *db = NULL;
	const char *dir;
	int status;

	status = parse_args(argc, argv, &a);
	if (status < 0)
		return EXIT_DONE;
	if (status != EXIT_DONE)
		return status;
	if (!chart_find_program("gnuplot", gnuplot, sizeof(gnuplot))) {
		fprintf(stderr, "claimbench report: gnuplot is not on PATH; " CHART_GNUPLOT_HINT "\n");
		return EXIT_ENVIRONMENT;
	}
	if (chart_scripts_dir(scripts, sizeof(scripts), err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench report: %s\n", err);
		return EXIT_ENVIRONMENT;
	}
	if (store_open_existing(a.settings.results, &db, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench report: %s\n", err);
		return EXIT_ENVIRONMENT;
	}
	status = select_runs(db, &a, &sel);
	if (status == EXIT_DONE && a.settings.sections)
		status = keep_sections(&sel, a.settings.sections);
	if (status != EXIT_DONE)
		goto out;
	dir = a.settings.out ? a.settings.out : sel.default_dir;
	status = make_dirs(dir, a.settings.force, path, &out);
	if (status == EXIT_DONE)
		status = make_report(&sel, gnuplot, scripts, &out);
	if (status == EXIT_DONE && out_dir_finish(&out, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench report: %s\n", err);
		status = EXIT_ENVIRONMENT;
	}
	out_dir_close(&out);
out:
	store_run_list_free(&sel.list);
	store_close(db);
	if (status == EXIT_DONE && (fflush(stdout) != 0 || ferror(stdout))) {
		fprintf(stderr, "claimbench report: cannot write the output\n");
		status = EXIT_ENVIRONMENT;
	}
	return status;
}
