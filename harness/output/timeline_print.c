#include <math.h>

#include "base/text.h"
#include "output/json_out.h"
#include "output/timeline_print.h"

/* A phase's count as JSON: null when not known. */
static json_object *known(int64_t v)
{
	return v == TIMELINE_UNKNOWN ? NULL : json_object_new_int64(v);
}

/*
 * The recovery of the pressure phase before p as JSON: recovery_s the seconds (null when
 * none was measured or it did not recover) and recovered true or false (null: none measured).
 */
static int put_recovery(json_object *obj, const struct timeline_phase *p)
{
	int bad = 0;

	bad |= json_put(obj, "recovery_s", json_number(p->recovery_s));
	bad |= json_put(obj, "recovered", isnan(p->recovery_s) ? NULL : json_object_new_boolean(!isinf(p->recovery_s)));
	return bad;
}

/* The JSON object of phase p. NULL when out of memory. */
static json_object *phase_object(const struct timeline_phase *p)
{
	json_object *obj = json_object_new_object();
	int bad = 0;

	if (!obj)
		return NULL;
	bad |= json_put(obj, "name", json_object_new_string(p->name));
	bad |= json_put(obj, "kind", json_object_new_string(timeline_kind_names[p->kind]));
	bad |= json_put(obj, "arg", p->arg > 0 ? json_number(p->arg) : NULL);
	bad |= json_put(obj, "start_s", json_number((double)p->start_ns / 1e9));
	bad |= json_put(obj, "end_s", json_number((double)p->end_ns / 1e9));
	bad |= json_put(obj, "throughput_median", json_number(p->throughput_median));
	bad |= json_put(obj, "throughput_p10", json_number(p->throughput_p10));
	bad |= json_put(obj, "latency_p50_ms", json_number(p->latency_p50_ms));
	bad |= json_put(obj, "latency_p99_ms", json_number(p->latency_p99_ms));
	bad |= json_put(obj, "latency_max_ms", json_number(p->latency_max_ms));
	bad |= json_put(obj, "depth_start", json_object_new_int64(p->depth_start));
	bad |= json_put(obj, "depth_end", json_object_new_int64(p->depth_end));
	bad |= json_put(obj, "depth_max", json_object_new_int64(p->depth_max));
	bad |= json_put(obj, "dead_start", known(p->dead_start));
	bad |= json_put(obj, "dead_end", known(p->dead_end));
	bad |= json_put(obj, "xmin_age_max", known(p->xmin_age_max));
	bad |= json_put(obj, "vacuums", known(p->vacuums));
	bad |= json_put(obj, "autovacuums", known(p->autovacuums));
	bad |= json_put(obj, "errors", json_object_new_int64(p->errors));
	bad |= json_put(obj, "arrivals", json_object_new_int64(p->arrivals));
	bad |= json_put(obj, "completed", json_object_new_int64(p->completed));
	bad |= put_recovery(obj, p);
	bad |= json_put(obj, "readers_seen", known(p->readers_seen));
	bad |= json_put(obj, "readers_repeatable", known(p->readers_repeatable));
	bad |= json_put(obj, "reader_scans", known(p->reader_scans));
	bad |= json_put(obj, "xid", known(p->xid));
	bad |= json_put(obj, "writer_rows", known(p->writer_rows));
	bad |= json_put(obj, "faults", json_object_new_int64(p->faults));
	bad |= json_put(obj, "pool_held", known(p->pool_held));
	bad |= json_put(obj, "pool_refused", known(p->pool_refused));
	bad |= json_put(obj, "pool_seen", known(p->pool_seen));
	if (bad) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

json_object *timeline_json(const struct run_result *run)
{
	json_object *arr = json_object_new_array(), *obj;

	for (size_t i = 0; arr && i < run->n_timeline; i++) {
		if (!(obj = phase_object(&run->timeline[i])) || json_object_array_add(arr, obj) < 0) {
			json_object_put(obj);
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}

/* Writes v with decimals into buf (len bytes), "-" when not a number. */
static const char *cell(char *buf, size_t len, double v, int decimals)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

/* Writes p's recovery cell into buf: the seconds, "not recovered", or "-" when none was measured. */
static const char *recovery_cell(char *buf, size_t len, const struct timeline_phase *p)
{
	if (isnan(p->recovery_s))
		snprintf(buf, len, "-");
	else if (isinf(p->recovery_s))
		snprintf(buf, len, "not recovered");
	else
		snprintf(buf, len, "%.1f s", p->recovery_s);
	return buf;
}

/* Writes a count cell into buf: "-" when not known. */
static const char *count_cell(char *buf, size_t len, int64_t v)
{
	if (v == TIMELINE_UNKNOWN)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

void timeline_print_table(FILE *out, const struct run_result *const *runs, size_t n)
{
	bool header = false;
	char strategy[64], label[96], a[32], b[32], c[32], d[32], e[32], f[32], g[32], h[32];

	for (size_t r = 0; r < n; r++) {
		const struct run_result *run = runs[r];

		if (!run->n_timeline)
			continue;
		if (!header) {
			fprintf(out, "\nphases:\n");
			fprintf(out, "  %-24s %-18s %7s %7s %8s %8s %8s %7s %6s %7s %7s %4s %6s %6s %s\n", "run", "phase",
				"start_s", "end_s", "tput_p50", "tput_p10", "lat_p50", "lat_p99", "dmax", "dead_s", "dead_e",
				"vac", "errors", "faults", "recovery");
			header = true;
		}
		text_clean(strategy, sizeof(strategy), run->strategy, SIZE_MAX);
		snprintf(label, sizeof(label), "%s %s x%d", strategy, run->claim_mode, run->workers);
		for (size_t i = 0; i < run->n_timeline; i++) {
			const struct timeline_phase *p = &run->timeline[i];

			fprintf(out, "  %-24.24s %-18.18s %7.2f %7.2f %8s %8s %8s %7s %6lld %7s %7s %4s %6lld %6lld %s\n",
				i ? "" : label, p->name, (double)p->start_ns / 1e9, (double)p->end_ns / 1e9,
				cell(a, sizeof(a), p->throughput_median, 1), cell(b, sizeof(b), p->throughput_p10, 1),
				cell(c, sizeof(c), p->latency_p50_ms, 1), cell(d, sizeof(d), p->latency_p99_ms, 1),
				(long long)p->depth_max, count_cell(e, sizeof(e), p->dead_start),
				count_cell(f, sizeof(f), p->dead_end), count_cell(h, sizeof(h), p->vacuums),
				(long long)p->errors, (long long)p->faults, recovery_cell(g, sizeof(g), p));
		}
	}
	if (header)
		fprintf(out, "key: tput_p50, tput_p10 = completions per second over the phase's whole seconds, median and 10th "
			"percentile;\n    lat_p50, lat_p99 = enqueue to completion, ms; dmax = most jobs waiting; dead_s, "
			"dead_e = dead tuples at its first and last sample;\n    vac = the queue table's vacuums and autovacuums its samples showed; faults = faults that struck in it; recovery = of the pressure phase before it, "
			"until a second's throughput is within 20 %% of the first clean phase's median (docs/phases.md)\n");
}
