/*
 * Every chart of a report: its runs' queue and guarded-resource charts, drawn once for all
 * of them, or one chart set per scenario section when they ran in more than one.
 */
#ifndef CLAIMBENCH_CHART_REPORT_H
#define CLAIMBENCH_CHART_REPORT_H

#include <stddef.h>

#include "report/chart.h"
#include "report/chart_set.h"
#include "report/out_dir.h"

/* The charts a report drew, in the order its documents show them. */
struct chart_list {
	struct chart *charts;	/* by section (in the order of their first runs), then by kind (owned) */
	size_t n;		/* entries in charts */
	size_t sections;	/* chart sets drawn: 1 when the runs are drawn together, else one per section */
};

/*
 * Writes the data of every chart queue (a report's queue runs grouped) and guarded (its
 * guarded runs) call for into dir and draws it (chart_draw, with gnuplot at path gnuplot and
 * the templates in scripts), gnuplot's messages into CHART_LOG there, into list. When the
 * runs ran in more than one scenario section (run_result.group), one chart set per section:
 * each chart of the runs of that section, NAME-PART (chart_part_stem, a number added when
 * two sections' stems are alike), every strategy and mode in the colour it has in the whole
 * (chart_set_build_within), and the chart's section and part set. 0, or -1 with err.
 */
int chart_report_draw(const struct chart_set *queue, const struct chart_set *guarded, const char *gnuplot,
		      const char *scripts, const struct out_dir *dir, struct chart_list *list, char *err,
		      size_t errlen);

/* Frees what chart_report_draw allocated in list and zeroes it; a zeroed list is fine. */
void chart_list_free(struct chart_list *list);

#endif
