/*
 * The report's summary, the table a review reads first: a row per strategy and claim
 * mode (and engine, when the runs are of more than one), with the delivery guarantee the
 * runs measured, their duplicates by cause, lost jobs, recovery per fault kind, throughput
 * as a fraction of the ideal and a one-line verdict.
 */
#ifndef CLAIMBENCH_DOC_SUMMARY_H
#define CLAIMBENCH_DOC_SUMMARY_H

#include <stdio.h>

#include "report/doc_markup.h"
#include "report/report_doc.h"

/* Writes the summary of d's queue runs under a level-2 heading titled heading. 0, or -1 when out of memory. */
int doc_write_summary(FILE *out, const struct report_doc *d, const char *heading, const struct doc_markup *mk);

#endif
