#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model/metric_table.h"
#include "model/run_descriptor.h"
#include "store/run_columns.h"

int run_columns_sql(char *buf, size_t size, const char *prefix, bool placeholders)
{
	size_t used = 0;
	int n;

	buf[0] = '\0';
	for (size_t i = 0; i < run_descriptors_len + metric_table_len; i++) {
		const char *column = i < run_descriptors_len ? run_descriptors[i].column :
					metric_table[i - run_descriptors_len].column;

		if (placeholders)
			n = snprintf(buf + used, size - used, "%s?", i ? ", " : "");
		else
			n = snprintf(buf + used, size - used, "%s%s\"%s\"", i ? ", " : "", prefix, column);
		if (n < 0 || (size_t)n >= size - used)
			return -1;
		used += (size_t)n;
	}
	return 0;
}

void run_columns_bind(struct binder *b, const struct run_result *run)
{
	const struct run_descriptor *d;
	const struct metric *m;
	const char *s;

	for (d = run_descriptors; d < run_descriptors + run_descriptors_len; d++) {
		if (d->type == DESC_TEXT) {
			s = descriptor_text(d, run);
			bind_text(b, !s && d->optional ? "" : s);
		} else if (d->type == DESC_DOUBLE) {
			bind_dbl(b, descriptor_double(d, run));
		} else {
			bind_i64(b, descriptor_int(d, run));
		}
	}
	for (m = metric_table; m < metric_table + metric_table_len; m++) {
		if (m->type == METRIC_DOUBLE)
			bind_dbl(b, metric_get(m, &run->metrics));
		else
			bind_count(b, metric_get_count(m, &run->metrics));
	}
}

int run_columns_read(struct reader *c, struct store_run *s)
{
	const struct run_descriptor *d;
	const struct metric *m;
	const char *text;

	for (d = run_descriptors; d < run_descriptors + run_descriptors_len; d++) {
		if (d->type == DESC_TEXT) {
			if (col_owned(c, s, &text) < 0)
				return -1;
			descriptor_set_text(d, &s->run, text);
		} else if (d->type == DESC_DOUBLE) {
			descriptor_set_double(d, &s->run, col_dbl(c));
		} else {
			descriptor_set_int(d, &s->run, col_i64(c));
		}
	}
	for (m = metric_table; m < metric_table + metric_table_len; m++) {
		if (m->type == METRIC_DOUBLE)
			metric_set_double(m, &s->run.metrics, col_dbl(c));
		else
			metric_set_count(m, &s->run.metrics, col_count(c));
	}
	return 0;
}
