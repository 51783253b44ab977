/*
 * The report's table of each fault: when it struck, what, the server's outage (a restart's
 * duration) and the first completion after it, so that a reader sees the server's own
 * outage apart from the time a strategy took to work again.
 */
#ifndef CLAIMBENCH_DOC_FAULTS_H
#define CLAIMBENCH_DOC_FAULTS_H

#include <stdio.h>

#include "report/doc_markup.h"
#include "report/report_doc.h"

/*
 * The first completion after a fault that struck at at_ns and lasted duration_ns, from
 * run's 100 ms time series: the end of the first bucket that began at or after the strike,
 * ends after the fault's end and holds a completion, in ms after the fault struck (at most
 * two buckets late; none is early, since the server down completes nothing). -1 when no
 * completion followed or the run has no series.
 */
double doc_fault_first_completion_ms(const struct run_result *run, int64_t at_ns, int64_t duration_ns);

/* Writes, under a heading of level 3, the table of every fault of d's queue runs. Nothing when none struck. */
int doc_write_fault_list(FILE *out, const struct report_doc *d, const struct doc_markup *mk);

#endif
