/*
 * CSV for a spreadsheet or gnuplot: a header line, then a line per run with its
 * descriptors (model/run_descriptor.h), every metric in metric-table order, and last the
 * queue system and version an adapter's run drove (empty for claimbench's own strategies),
 * after the columns that came before them. Unknown and non-finite figures are empty fields.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model/metric_table.h"
#include "model/run_descriptor.h"
#include "output/results_print.h"

/* Where a CSV line is: its stream and whether a field has been written yet. */
struct csv {
	FILE *out;	/* destination */
	bool first;	/* no field written yet on this line */
};

/* Writes the comma that separates a field from the one before it. */
static void csv_sep(struct csv *c)
{
	if (!c->first)
		putc(',', c->out);
	c->first = false;
}

/* A text field, quoted per RFC 4180 when it holds a comma, quote or line break; empty when NULL. */
static void csv_str(struct csv *c, const char *s)
{
	csv_sep(c);
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, c->out);
		return;
	}
	putc('"', c->out);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', c->out);
		putc(*s, c->out);
	}
	putc('"', c->out);
}

/* A number field with nine significant digits; empty when v is NaN or infinite. */
static void csv_dbl(struct csv *c, double v)
{
	csv_sep(c);
	if (isfinite(v))
		fprintf(c->out, "%.9g", v);
}

/* Ends the current line. */
static void csv_end(struct csv *c)
{
	putc('\n', c->out);
	c->first = true;
}

/* One descriptor's field; a bool as "true" or "false". */
static void csv_descriptor(struct csv *c, const struct run_descriptor *d, const struct run_result *run)
{
	switch (d->type) {
	case DESC_TEXT:
		csv_str(c, descriptor_text(d, run));
		break;
	case DESC_BOOL:
		csv_str(c, descriptor_int(d, run) ? "true" : "false");
		break;
	case DESC_INT:
	case DESC_LONG:
		csv_sep(c);
		fprintf(c->out, "%lld", descriptor_int(d, run));
		break;
	case DESC_DOUBLE:
		csv_dbl(c, descriptor_double(d, run));
		break;
	}
}

/* One metric's field; empty when unknown. */
static void csv_metric(struct csv *c, const struct metric *m, const struct run_result *run)
{
	uint64_t count;

	if (m->type == METRIC_DOUBLE) {
		csv_dbl(c, metric_get(m, &run->metrics));
		return;
	}
	csv_sep(c);
	count = metric_get_count(m, &run->metrics);
	if (count == METRIC_UNKNOWN)
		return;
	if (m->type == METRIC_FLAG)
		fputs(count ? "true" : "false", c->out);
	else
		fprintf(c->out, "%" PRIu64, count);
}

int results_print_csv(FILE *out, const struct invocation_result *r)
{
	struct csv c = { .out = out, .first = true };
	size_t i, k;

	for (k = 0; k < run_descriptors_len; k++)
		csv_str(&c, run_descriptors[k].name);
	for (k = 0; k < metric_table_len; k++)
		csv_str(&c, metric_table[k].column);
	csv_str(&c, "adapter_system");
	csv_str(&c, "adapter_version");
	csv_end(&c);
	for (i = 0; i < r->n_results; i++) {
		for (k = 0; k < run_descriptors_len; k++)
			csv_descriptor(&c, &run_descriptors[k], &r->results[i]);
		for (k = 0; k < metric_table_len; k++)
			csv_metric(&c, &metric_table[k], &r->results[i]);
		csv_str(&c, run_param_value(&r->results[i], RUN_PARAM_ADAPTER_SYSTEM));
		csv_str(&c, run_param_value(&r->results[i], RUN_PARAM_ADAPTER_VERSION));
		csv_end(&c);
	}
	return 0;
}
