/* The words and figures of ab's printers, as ab_text.h says. */
#include <math.h>

#include "output/ab_text.h"
#include "output/compare_print.h"

void ab_pct_text(char *buf, size_t size, double pct, bool sign)
{
	if (!isfinite(pct))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, sign ? "%+.1f%%" : "%.1f%%", pct);
}

void ab_interval_text(char *buf, size_t size, const struct ab_row *row)
{
	char low[16], high[16];

	if (!isfinite(row->ci_low_pct) || !isfinite(row->ci_high_pct)) {
		snprintf(buf, size, "-");
		return;
	}
	ab_pct_text(low, sizeof(low), row->ci_low_pct, true);
	ab_pct_text(high, sizeof(high), row->ci_high_pct, true);
	snprintf(buf, size, "[%s, %s]", low, high);
}

void ab_print_rounds_to_decide(FILE *out, const struct ab_row *row)
{
	if (row->rounds_to_decide)
		fprintf(out, "about %zu rounds would decide it", row->rounds_to_decide);
	else
		fputs("no count of rounds in reach would decide it (the change is about the tolerance)", out);
}

/* Prints "metric base -> cand" of row. */
static void print_means(FILE *out, const struct ab_row *row)
{
	char base[32], cand[32];

	compare_number_text(base, sizeof(base), row->paired.base_mean, false);
	compare_number_text(cand, sizeof(cand), row->paired.cand_mean, false);
	fprintf(out, "%s %s -> %s", row->metric->path, base, cand);
}

/*
 * Prints, when row's group gates more than one cost or timing, the interval its regression
 * is judged by (family-wise: ab.h), as a change of the metric like the 95 % one before it.
 */
static void print_family(FILE *out, const struct ab_row *row)
{
	bool higher_better = row->metric->direction == HIGHER_IS_BETTER;
	double low = higher_better ? -row->family_high : row->family_low;
	double high = higher_better ? -row->family_low : row->family_high;
	const char *unit = row->paired.base_mean == 0 ? "" : "%";

	if (row->family <= 1 || !isfinite(low) || !isfinite(high))
		return;
	fprintf(out, "; [%+.1f%s, %+.1f%s] over the %zu metrics its group gates", low, unit, high, unit, row->family);
}

void ab_print_regression_figures(FILE *out, const struct ab_row *row)
{
	char interval[40];

	print_means(out, row);
	if (row->metric->nature == NATURE_OUTCOME) {
		fputs(": where the baseline had none", out);
		return;
	}
	if (row->paired.base_mean == 0) {
		fprintf(out, " (95%% interval of the change [%+g, %+g]", row->paired.ci_low, row->paired.ci_high);
		print_family(out, row);
		fprintf(out, "): a %s from 0 beyond the floor of 0.01", ab_nature_name(row->metric->nature));
		return;
	}
	ab_interval_text(interval, sizeof(interval), row);
	fprintf(out, " (%+.1f%%, 95%% interval %s", row->change_pct, interval);
	print_family(out, row);
	fprintf(out, "): a %s beyond its %g%% tolerance", ab_nature_name(row->metric->nature), row->tolerance_pct);
}

void ab_print_undecided_figures(FILE *out, const struct ab_row *row)
{
	char interval[40];

	print_means(out, row);
	if (row->paired.base_mean == 0) {
		fprintf(out, " (95%% interval of the change [%+g, %+g]", row->paired.ci_low, row->paired.ci_high);
		print_family(out, row);
		fputs("): its interval holds the floor of 0.01; ", out);
	} else {
		ab_interval_text(interval, sizeof(interval), row);
		fprintf(out, " (%+.1f%%, 95%% interval %s", row->change_pct, interval);
		print_family(out, row);
		fprintf(out, "): its interval holds its %g%% tolerance; ", row->tolerance_pct);
	}
	ab_print_rounds_to_decide(out, row);
}

void ab_row_text(char *buf, size_t size, void (*fn)(FILE *, const struct ab_row *), const struct ab_row *row)
{
	FILE *mem = size > 1 ? fmemopen(buf, size - 1, "w") : NULL;

	if (size)
		buf[0] = buf[size - 1] = '\0';
	if (!mem)
		return;
	fn(mem, row);
	fclose(mem);
}
