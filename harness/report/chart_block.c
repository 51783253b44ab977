/* The shared parts of the charts' data writers (chart_block.h). */
#include <math.h>
#include <string.h>

#include "report/chart_block.h"
#include "report/chart_colour.h"
#include "model/metric_table.h"

struct figure_stats chart_case_stats(const struct chart_set *set, size_t c, const char *path)
{
	struct figure_stats st = { .mean = NAN, .min = NAN, .max = NAN };
	const struct metric *m = metric_find(path);
	double v, sum = 0;
	size_t i;

	for (i = 0; m && i < set->n_runs; i++) {
		if (set->case_of[i] != c)
			continue;
		v = metric_get(m, &set->runs[i].run.metrics);
		if (!isfinite(v))
			continue;
		sum += v;
		st.min = st.n && st.min < v ? st.min : v;
		st.max = st.n && st.max > v ? st.max : v;
		st.n++;
	}
	if (st.n)
		st.mean = sum / st.n;
	return st;
}

void chart_put_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.9g", v);
	else
		fputs("NaN", f);
}

void chart_add_block(struct chart *c, size_t colour, int variant)
{
	char rgb[8];
	size_t len;

	chart_shade(colour, variant, rgb);
	len = strlen(c->colours);
	snprintf(c->colours + len, sizeof(c->colours) - len, "%s%s", c->blocks ? " " : "", rgb);
	len = strlen(c->styles);
	snprintf(c->styles + len, sizeof(c->styles) - len, "%s%d", c->blocks ? " " : "", variant);
	len = strlen(c->shapes);
	snprintf(c->shapes + len, sizeof(c->shapes) - len, "%s%d", c->blocks ? " " : "", chart_shape(colour, variant));
	c->blocks++;
}

void chart_add_case_block(const struct chart_set *set, struct chart *c, size_t k)
{
	chart_add_block(c, set->series[set->cases[k].series].colour, set->cases[k].variant);
}

void chart_add_layer_block(struct chart *c)
{
	size_t len = strlen(c->layer);

	snprintf(c->layer + len, sizeof(c->layer) - len, "%s%zu", len ? " " : "", c->blocks + 1);
}

void chart_open_block(FILE *f, const struct chart *c, const char *title, const char *columns)
{
	fprintf(f, "%s\"%s\"\t%s\n", c->blocks ? "\n\n" : "", title, columns);
}

const struct run_result *chart_timeline_run(const struct chart_set *set, size_t k)
{
	const struct run_result *best = NULL, *run;
	size_t i;

	for (i = 0; i < set->n_runs; i++) {
		run = &set->runs[i].run;
		if (set->case_of[i] == k && run->n_series && (!best || run->repeat < best->repeat))
			best = run;
	}
	return best;
}
