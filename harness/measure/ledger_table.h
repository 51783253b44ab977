/*
 * The ledger against the table's final state, job by job: every disagreement is put to a
 * named figure that explains it (a claim lost in flight, a completion a cut connection left
 * unknown, a completion a failover lost) or is an integrity error. measure/metrics.c
 * defines the rules; docs/metrics.md ("The ledger and the table") says them for users.
 */
#ifndef CLAIMBENCH_LEDGER_TABLE_H
#define CLAIMBENCH_LEDGER_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/job_scan.h"
#include "measure/metrics_input.h"
#include "model/result.h"

/* What the final state of one job says against its ledger. */
enum table_verdict {
	TABLE_AGREES,		/* the final status is what the ledger says */
	TABLE_LOST_IN_FLIGHT,	/* the table shows a claim committed whose answer reached no worker */
	TABLE_COMPLETION_UNKNOWN, /* the table shows done or error where the ledger's last outcome was lost with a connection */
	TABLE_FAILOVER_LOSS,	/* the ledger's committed completion was lost by a failover after it */
	TABLE_OVERWRITTEN,	/* a later claim of the job, still in hand after the completion, wrote over its status */
	TABLE_UNEXPLAINED,	/* a disagreement no figure explains: an integrity error */
};

/*
 * The verdict of the job at index j (id j + 1), summarised in s, whose final state in->final
 * holds; cut: the run lost connections (connection errors, a restart, a killed backend, a
 * failover), so that an answer may have gone missing.
 */
enum table_verdict ledger_table_judge(const struct metrics_input *in, const struct job_summary *s, size_t j, bool cut);

/* Whether the run of in lost connections (see ledger_table_judge). */
bool ledger_table_cut(const struct metrics_input *in);

/* Whether a job's final status disagrees with what its ledger's summary s says (ledger_table.c's comment). */
bool ledger_table_disagrees(const struct job_summary *s, int32_t status);

/*
 * Writes the ids of the jobs whose verdict is TABLE_UNEXPLAINED into buf (len bytes),
 * separated by spaces, "..." when more than fit; "" without the final state. 0, or -1
 * when out of memory.
 */
int ledger_table_unexplained(const struct metrics_input *in, char *buf, size_t len);

/*
 * Adds to out's --verify differences (INTEGRITY_DIFFERENCE) the jobs on which the ledger
 * and the table disagree with no figure to explain it (in, the run's metrics input, whose
 * figures out->metrics holds), when there are any: an integrity error the run's exit
 * status reports as --verify's differences (in the last one's place when they are full). 0,
 * or -1 when out of memory.
 */
int ledger_table_note_errors(const struct metrics_input *in, struct run_result *out);

/*
 * Prints on stderr, under the run's section (group, "" for none) and label, the jobs of v's
 * INTEGRITY_DIFFERENCE, when there are any.
 */
void ledger_table_report_errors(const struct verify_outcome *v, const char *group, const char *label);

#endif
