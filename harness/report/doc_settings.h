/*
 * The report's settings section: the settings that differ between its runs, a row per
 * value as given with the runs that had it (a dash for none; several lines, as SQL, kept
 * so), then, folded, those every run shared.
 */
#ifndef CLAIMBENCH_DOC_SETTINGS_H
#define CLAIMBENCH_DOC_SETTINGS_H

#include <stdio.h>

#include "report/doc_markup.h"
#include "report/report_doc.h"

/* Writes the settings of d's runs under a level-2 heading. 0, or -1 when out of memory. */
int doc_write_settings(FILE *out, const struct report_doc *d, const char *heading, const struct doc_markup *mk);

#endif
