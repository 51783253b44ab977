/* The report's table of the runs' timeline phases (--phase): a row per phase with its figures and recovery. */
#ifndef CLAIMBENCH_DOC_TIMELINE_H
#define CLAIMBENCH_DOC_TIMELINE_H

#include <stdbool.h>
#include <stdio.h>

#include "report/doc_markup.h"
#include "report/report_doc.h"

/* Whether a run of d has a timeline. */
bool doc_has_timeline(const struct report_doc *d);

/* Writes, under a heading of level 2 (heading), the table of every phase of d's runs. 0, or -1 when out of memory. */
int doc_write_timeline(FILE *out, const struct report_doc *d, const char *heading, const struct doc_markup *mk);

#endif
