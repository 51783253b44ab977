/* The recovery chart's data (chart_recovery.h). */
#include <math.h>
#include <string.h>

#include "report/chart_block.h"
#include "report/chart_colour.h"
#include "report/chart_recovery.h"
#include "model/faults.h"

/* Room above the highest bar, as a fraction of it, for the key. */
#define RECOVERY_HEADROOM 0.2

bool chart_recovery_wanted(const struct chart_set *set)
{
	for (size_t i = 0; i < set->n_runs; i++)
		if (set->runs[i].run.n_faults)
			return true;
	return false;
}

/*
 * Over the runs of case k: which fault kinds struck (bit per enum fault_kind) and the mean
 * of their restarts' outages in s (NaN without one).
 */
static unsigned case_faults(const struct chart_set *set, size_t k, double *outage_s)
{
	unsigned kinds = 0;
	double sum = 0;
	int n = 0;

	for (size_t i = 0; i < set->n_runs; i++) {
		const struct run_result *run = &set->runs[i].run;

		if (set->case_of[i] != k)
			continue;
		for (size_t j = 0; j < run->n_faults; j++) {
			kinds |= 1u << run->faults[j].kind;
			if (run->faults[j].kind == FAULT_RESTART) {
				sum += (double)run->faults[j].duration_ns / 1e9;
				n++;
			}
		}
	}
	*outage_s = n ? sum / n : NAN;
	return kinds;
}

/*
 * Writes one bar's row: x, tick label, outage (s), own recovery (s), slowest (s), colour as
 * a number, then what is drawn over a bar without its own recovery (own NaN: the case never
 * recovered): "never (N lost)", N the case's mean lost jobs; "" for a bar that has one.
 */
static void put_bar(FILE *f, size_t x, const char *label, const char *kinds, double outage, double own,
		    double slowest, unsigned int rgb, double lost)
{
	fprintf(f, "%zu\t\"%s (%s)\"\t", x, label, kinds);
	chart_put_num(f, outage);
	putc('\t', f);
	chart_put_num(f, own);
	putc('\t', f);
	chart_put_num(f, slowest);
	fprintf(f, "\t%u\t", rgb);
	if (isfinite(own))
		fputs("\"\"\n", f);
	else
		fprintf(f, "\"never (%.0f lost)\"\n", isfinite(lost) ? lost : 0);
}

/* The names of the kinds of faults on a job in kinds (bits), joined by '+', into buf. */
static void job_kinds(unsigned kinds, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int k = 0; k < FAULT_KIND_COUNT; k++) {
		if (k == FAULT_RESTART || !(kinds & (1u << k)))
			continue;
		snprintf(buf + len, size - len, "%s%s", len ? "+" : "", fault_kind_name(k));
		len = strlen(buf);
	}
}

void chart_write_recovery(const struct chart_set *set, FILE *f, struct chart *c)
{
	struct figure_stats own, p50, slowest, lost;
	double outage, top = 0, v;
	bool outages = false, slowests = false, nevers = false;
	unsigned kinds, rgb;
	char colour[8], names[64];
	size_t x = 0;

	fputs("\"x\"\t\"case\"\t\"outage_s\"\t\"own_s\"\t\"slowest_s\"\t\"rgb\"\t\"never\"\n", f);
	for (size_t k = 0; k < set->n_cases && x < CHART_MAX_BLOCKS; k++) {
		kinds = case_faults(set, k, &outage);
		if (!kinds)
			continue;
		chart_shade(set->series[set->cases[k].series].colour, set->cases[k].variant, colour);
		sscanf(colour, "#%6x", &rgb);
		lost = chart_case_stats(set, k, "lost");
		if (kinds & (1u << FAULT_RESTART)) {
			own = chart_case_stats(set, k, "restart_first_completion_ms");
			put_bar(f, x++, set->cases[k].label, "restart", outage, own.mean / 1e3, NAN, rgb, lost.mean);
			outages |= outage > 0;
			nevers |= !isfinite(own.mean);
			v = (isfinite(outage) ? outage : 0) + (isfinite(own.mean) ? own.mean / 1e3 : 0);
			top = v > top ? v : top;
		}
		if (kinds & ~(1u << FAULT_RESTART)) {
			p50 = chart_case_stats(set, k, "recovery_ms.p50");
			slowest = chart_case_stats(set, k, "recovery_ms.max");
			job_kinds(kinds, names, sizeof(names));
			put_bar(f, x++, set->cases[k].label, names, 0, p50.mean / 1e3, slowest.mean / 1e3, rgb,
				lost.mean);
			slowests |= isfinite(slowest.mean);
			nevers |= !isfinite(p50.mean);
			v = isfinite(slowest.mean) ? slowest.mean / 1e3 : isfinite(p50.mean) ? p50.mean / 1e3 : 0;
			top = v > top ? v : top;
		}
	}
	c->blocks = x;
	snprintf(c->layer, sizeof(c->layer), "%s%s%s", outages ? "1" : "", slowests ? (outages ? " 2" : "2") : "",
		 nevers ? (outages || slowests ? " 3" : "3") : "");
	c->ymax = top > 0 ? top * (1 + RECOVERY_HEADROOM) : 1;
}
