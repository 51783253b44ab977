/* Every chart of a report, one chart set per scenario section when there are several (chart_report.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/chart_data.h"
#include "report/chart_plot.h"
#include "report/chart_report.h"
#include "report/chart_wanted.h"

/* A run's scenario section, "" for none. */
static const char *section_of(const struct store_run *r)
{
	return r->run.group ? r->run.group : "";
}

/*
 * Adds to names (room for cap, *n used) the sections of set's runs not there yet, in
 * order. A name points into a run.
 */
static void add_sections(const struct chart_set *set, const char **names, size_t cap, size_t *n)
{
	for (size_t i = 0; i < set->n_runs; i++) {
		const char *g = section_of(&set->runs[i]);
		size_t j;

		for (j = 0; j < *n && strcmp(names[j], g) != 0; j++)
			;
		if (j == *n && *n < cap)
			names[(*n)++] = g;
	}
}

/*
 * Groups those of whole's runs that ran in section into part, taking whole's colours;
 * their copies in *copies (owned). 0, or -1 when out of memory.
 */
static int build_part(const struct chart_set *whole, const char *section, struct chart_set *part,
		      struct store_run **copies)
{
	size_t n = 0;

	*copies = calloc(whole->n_runs + 1, sizeof(**copies));
	if (!*copies)
		return -1;
	for (size_t i = 0; i < whole->n_runs; i++)
		if (strcmp(section_of(&whole->runs[i]), section) == 0)
			(*copies)[n++] = whole->runs[i];
	return chart_set_build_within(part, *copies, n, whole);
}

/* Whether stem is already the part of a chart of list. */
static bool stem_taken(const struct chart_list *list, const char *stem)
{
	for (size_t i = 0; i < list->n; i++)
		if (strcmp(list->charts[i].part, stem) == 0)
			return true;
	return false;
}

/*
 * Writes and draws every chart queue and guarded call for, appended to list: section and
 * part name them ("" for a report's runs drawn together). 0, or -1 with err.
 */
static int draw_set(const struct chart_set *queue, const struct chart_set *guarded, const char *section,
		    const char *part, const char *gnuplot, const char *scripts, const struct out_dir *dir, int log,
		    struct chart_list *list, char *err, size_t errlen)
{
	for (int k = 0; k < CHART_COUNT; k++) {
		const struct chart_set *set = k >= CHART_FIRST_GUARDED ? guarded : queue;
		struct chart *c = &list->charts[list->n];

		if (!chart_wanted(set, (enum chart_kind)k))
			continue;
		if (chart_write_part(set, (enum chart_kind)k, section, part, dir, c, err, errlen) < 0 ||
		    chart_draw(gnuplot, scripts, dir, log, c, err, errlen) < 0)
			return -1;
		list->n++;
	}
	return 0;
}

/*
 * Draws one chart set per section of names (n of them) into list, as chart_report_draw
 * says; with suffix false (one section), the files keep their kinds' names. 0, or -1 with err.
 */
static int draw_sections(const struct chart_set *queue, const struct chart_set *guarded, const char **names, size_t n,
			 bool suffix, const char *gnuplot, const char *scripts, const struct out_dir *dir, int log,
			 struct chart_list *list, char *err, size_t errlen)
{
	struct chart_set pq = { 0 }, pg = { 0 };
	struct store_run *cq = NULL, *cg = NULL;
	char stem[CHART_STEM - 24], part[CHART_STEM];
	int ret = 0;

	for (size_t s = 0; s < n && ret == 0; s++) {
		chart_part_stem(stem, sizeof(stem), names[s]);
		snprintf(part, sizeof(part), "%s", stem);
		if (stem_taken(list, part))
			snprintf(part, sizeof(part), "%s-%zu", stem, s + 1);
		if (build_part(queue, names[s], &pq, &cq) < 0 || build_part(guarded, names[s], &pg, &cg) < 0) {
			snprintf(err, errlen, "out of memory");
			ret = -1;
		} else {
			ret = draw_set(&pq, &pg, names[s], suffix ? part : "", gnuplot, scripts, dir, log, list, err,
				       errlen);
		}
		chart_set_free(&pq);
		chart_set_free(&pg);
		free(cq);
		free(cg);
		cq = cg = NULL;
	}
	return ret;
}

int chart_report_draw(const struct chart_set *queue, const struct chart_set *guarded, const char *gnuplot,
		      const char *scripts, const struct out_dir *dir, struct chart_list *list, char *err,
		      size_t errlen)
{
	size_t cap = queue->n_runs + guarded->n_runs + 1, n = 0;
	const char **names = calloc(cap, sizeof(*names));
	int log = -1, ret = -1;

	memset(list, 0, sizeof(*list));
	if (!names) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	add_sections(queue, names, cap, &n);
	add_sections(guarded, names, cap, &n);
	list->sections = n > 1 ? n : 1;
	list->charts = calloc(list->sections * CHART_COUNT, sizeof(*list->charts));
	if (!list->charts) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	log = out_dir_create(dir, CHART_LOG, err, errlen);
	if (log < 0)
		goto out;
	if (n > 1 || (n == 1 && *names[0]))
		ret = draw_sections(queue, guarded, names, n, n > 1, gnuplot, scripts, dir, log, list, err, errlen);
	else
		ret = draw_set(queue, guarded, "", "", gnuplot, scripts, dir, log, list, err, errlen);
out:
	if (log >= 0)
		close(log);
	free(names);
	if (ret < 0)
		chart_list_free(list);
	return ret;
}

void chart_list_free(struct chart_list *list)
{
	free(list->charts);
	memset(list, 0, sizeof(*list));
}
