/* The repetitions' summaries as text, after the runs' table. */
#include <math.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "analysis/summary.h"
#include "output/results_print.h"

/* "" for NULL. */
static const char *text(const char *s)
{
	return s ? s : "";
}

/*
 * Whether the summary of row shows metric m: one with a value, and the open-loop and
 * fault figures only when the point had arrivals or faults.
 */
static bool shows(const struct metric *m, const struct summary_row *row, const struct stats_summary *stat)
{
	const struct run_metrics *first = &row->first->metrics;

	if (!m->summarised || !isfinite(stat->mean))
		return false;
	if (m->cell.place == CELL_MAIN_IF_ARRIVALS)
		return first->arrivals != 0 && first->arrivals != METRIC_UNKNOWN;
	if (m->cell.place == CELL_ASIDE)
		return first->faults_injected != 0 && first->faults_injected != METRIC_UNKNOWN;
	return true;
}

void summary_print_table(FILE *out, const struct invocation_result *r)
{
	struct summary_row *rows = alloc_zeroed(r->n_results, sizeof(*rows));
	size_t n = rows ? summary_build(r, rows) : 0;

	if (n == 0)
		goto out;
	fprintf(out, "\nover the repetitions: mean +- 95%% confidence half-width (sd)\n");
	for (size_t i = 0; i < n; i++) {
		const struct run_result *f = rows[i].first;

		fprintf(out, "%s %s x%d%s%s%s%s%s, %zu runs\n", f->strategy, f->claim_mode, f->workers,
			text(f->group)[0] ? " [" : "", text(f->group), text(f->group)[0] ? "]" : "",
			text(f->sweep)[0] ? " " : "", text(f->sweep), rows[i].runs);
		for (size_t m = 0; m < metric_table_len; m++)
			if (shows(&metric_table[m], &rows[i], &rows[i].stats[m]))
				fprintf(out, "  %-22s %12.4g +- %-10.3g (sd %.3g)\n", metric_table[m].path,
					rows[i].stats[m].mean, rows[i].stats[m].ci95, rows[i].stats[m].sd);
	}
out:
	free(rows);
}
