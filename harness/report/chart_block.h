/*
 * What every chart's data writer shares (chart_data.c, chart_time.c, chart_server.c,
 * chart_guard.c): the file's blocks, figures over a case's repeats, and numbers spelled
 * for gnuplot. A data file is
 * tab-separated text for a script in scripts/charts/: blocks separated by two blank lines
 * (gnuplot's `index`), each opening with a header line whose first column, quoted, is the
 * block's legend title. An undefined figure is written as NaN, which gnuplot skips.
 */
#ifndef CLAIMBENCH_CHART_BLOCK_H
#define CLAIMBENCH_CHART_BLOCK_H

#include <stdbool.h>
#include <stdio.h>

#include "report/chart.h"
#include "report/chart_set.h"
#include "model/result.h"

/* A figure over a case's repeats. */
struct figure_stats {
	double mean;	/* mean of the finite values; NaN when none */
	double min;	/* smallest finite value; NaN when none */
	double max;	/* largest finite value; NaN when none */
	int n;		/* finite values seen */
};

/* The mean, min and max of the metric at path over the runs of case c; unknown values left out. */
struct figure_stats chart_case_stats(const struct chart_set *set, size_t c, const char *path);

/* Prints v for gnuplot: NaN when not finite. */
void chart_put_num(FILE *f, double v);

/*
 * Appends one block's colour (colour number colour at shade variant, chart_shade), style
 * and shape (chart_shape) to c, and counts it.
 */
void chart_add_block(struct chart *c, size_t colour, int variant);

/* Appends case k's colour and style to c as a block. */
void chart_add_case_block(const struct chart_set *set, struct chart *c, size_t k);

/* Adds the block about to be counted, c->blocks + 1, to c->layer. */
void chart_add_layer_block(struct chart *c);

/* Starts a block with its title line: a blank-line pair before every block but the first. */
void chart_open_block(FILE *f, const struct chart *c, const char *title, const char *columns);

/* The first run of case k (by repetition number) that has a time series, or NULL. */
const struct run_result *chart_timeline_run(const struct chart_set *set, size_t k);

#endif
