/*
 * The report's table of each fault: when it struck, what, the server's outage (a restart's
 * duration) and the strategy's recovery after it as the run recorded it, so that a reader
 * sees the server's own outage apart from the time a strategy took to work again.
 */
#ifndef CLAIMBENCH_DOC_FAULTS_H
#define CLAIMBENCH_DOC_FAULTS_H

#include <stddef.h>
#include <stdio.h>

#include "report/doc_markup.h"
#include "report/report_doc.h"

/*
 * Writes into total and own (size bytes each) how long after fault f of run the strategy
 * recovered, in s with 3 decimals, and of it the strategy's own part (after the server was
 * back, for a restart), from what the run recorded: after a restart, its outage plus
 * restart_first_completion_ms; after a fault on a job, recovery_ms. Exact when the run had
 * one fault of f's sort (a restart, or one on a job); with several, which the run records
 * only as a whole, total is "-" and own names the longest (restarts) or the median and
 * longest (faults on jobs); "never" and "-" when the strategy did not recover.
 */
void doc_fault_recovery(const struct run_result *run, const struct fault_record *f, char *total, char *own,
			size_t size);

/* Writes, under a heading of level 3, the table of every fault of d's queue runs. Nothing when none struck. */
int doc_write_fault_list(FILE *out, const struct report_doc *d, const struct doc_markup *mk);

#endif
