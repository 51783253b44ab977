/*
 * The documents of `claimbench report`: report.md, which renders on a git host, and
 * report.html, one self-contained file with the charts inline as SVG. Both hold the
 * figures of every run as `claimbench show` prints them, the charts, the scenario
 * text and the environment.
 */
#ifndef CLAIMBENCH_REPORT_DOC_H
#define CLAIMBENCH_REPORT_DOC_H

#include <stddef.h>

#include "report/chart_data.h"
#include "report/out_dir.h"

/* Everything the documents show. */
struct report_doc {
	const char *subject;		/* what the report covers: "invocation 3", "runs 4, 7" */
	const struct out_dir *dir;	/* the output folder: images read from, documents written to */
	const struct store_run *runs;	/* the runs, in the order given */
	size_t n_runs;			/* entries in runs */
	const struct chart_set *set;	/* the queue runs (not of a guarded workload), in order, grouped as the
					   charts drew them */
	const struct chart_set *guarded; /* the runs of guarded workloads, in order, grouped the same way */
	const struct chart *charts;	/* the charts drawn, in order */
	size_t n_charts;		/* entries in charts */
};

/* Writes dir/report.md. 0, or -1 with err. */
int report_doc_markdown(const struct report_doc *d, char *err, size_t errlen);

/* Writes dir/report.html, reading each chart's dir/NAME.svg into it. 0, or -1 with err. */
int report_doc_html(const struct report_doc *d, char *err, size_t errlen);

#endif
