/*
 * Each chart's tab-separated data file: the writer of every chart of a case's figures, and
 * the dispatch to the writers of the charts over time (chart_time.c), of the server's
 * samples (chart_server.c) and of guarded runs (chart_guard.c).
 */
#ifndef CLAIMBENCH_CHART_DATA_H
#define CLAIMBENCH_CHART_DATA_H

#include <stddef.h>

#include "report/chart.h"
#include "report/chart_set.h"
#include "report/out_dir.h"

/*
 * Writes chart kind's data file NAME.tsv into the folder dir and fills *c (a chart kind
 * chart_wanted refuses is written with no block). 0, or -1
 * with err when the file cannot be written.
 */
int chart_write(const struct chart_set *set, enum chart_kind kind, const struct out_dir *dir, struct chart *c, char *err,
		size_t errlen);

/* The file stem of the charts of the runs of no section, beside sectioned ones. */
#define CHART_NO_SECTION_STEM "nosection"

/*
 * Writes into buf (size at least sizeof(CHART_NO_SECTION_STEM)) section made file-safe for
 * a chart's file stem: letters, digits, '-' and '_' kept, every other byte '_', cut to fit;
 * CHART_NO_SECTION_STEM for "".
 */
void chart_part_stem(char *buf, size_t size, const char *section);

/*
 * As chart_write, for the runs of one scenario section: section, its name (a label for the
 * documents and, made file-safe, the chart's title), part, a suffix for the file names (the
 * section made file-safe, chart_part_stem, or "" for none): the data file is NAME-PART.tsv,
 * and c names both; both "" for a report's runs drawn together.
 */
int chart_write_part(const struct chart_set *set, enum chart_kind kind, const char *section, const char *part,
		     const struct out_dir *dir, struct chart *c, char *err, size_t errlen);

#endif
