/*
 * Drawing the charts: the gnuplot templates of scripts/charts/ (installed in
 * share/claimbench/charts/) found from the binary, gnuplot found on PATH, and one gnuplot
 * process per chart and image format.
 */
#ifndef CLAIMBENCH_CHART_PLOT_H
#define CLAIMBENCH_CHART_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/chart_data.h"

/* What to tell a user without gnuplot. */
#define CHART_GNUPLOT_HINT "install it with: apt-get install gnuplot-nox"

/* The name of the log gnuplot's messages go to, in the output directory. */
#define CHART_LOG "gnuplot.log"

/*
 * Finds an executable name on PATH; its path in buf. true when found. A name
 * holding a '/' is checked as it is.
 */
bool chart_find_program(const char *name, char *buf, size_t size);

/*
 * Finds the directory holding the chart templates' folder charts/ (with charts/common.gp):
 * $CLAIMBENCH_SCRIPTS when set; else, from the running binary's directory BIN,
 * BIN/../share/claimbench (an installed or DESTDIR-staged claimbench) or BIN/../scripts
 * (a binary in the source tree's build directory), the first that holds charts/common.gp.
 * 0 with the directory in buf, or -1 with err naming the places looked in.
 */
int chart_scripts_dir(char *buf, size_t size, char *err, size_t errlen);

/*
 * Draws chart c, whose data file chart_write put in dir, as NAME.png and NAME.svg in dir:
 * gnuplot (at path gnuplot) runs charts/common.gp then charts/NAME.gp from scripts, in
 * dir (entered by its descriptor), its messages appended to log (a descriptor open for
 * writing, CHART_LOG in dir: the caller creates it with out_dir_create). The images are
 * created afresh (out_dir_create) and handed to gnuplot as descriptors. 0, or -1 with err.
 */
int chart_draw(const char *gnuplot, const char *scripts, const struct out_dir *dir, int log, const struct chart *c,
	       char *err, size_t errlen);

#endif
