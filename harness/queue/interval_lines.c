#include "queue/interval_lines.h"

/* Nanoseconds per second and per millisecond, for printing. */
#define NS_PER_S 1e9
#define NS_PER_MS 1e6

void interval_lines_init(struct interval_lines *il, FILE *out, double every_s, int64_t start_ns,
			 int64_t measured_from_ns, bool arrivals)
{
	*il = (struct interval_lines){
		.out = out,
		.every_ns = (int64_t)(every_s * 1e9),
		.start_ns = start_ns,
		.measured_from_ns = measured_from_ns,
		.arrivals = arrivals,
		.last_ns = start_ns,
	};
}

bool interval_lines_due(const struct interval_lines *il, int64_t now_ns)
{
	return il->every_ns > 0 && now_ns - il->last_ns >= il->every_ns;
}

void interval_lines_print(struct interval_lines *il, const char *label, const struct live_totals *now,
			  int64_t now_ns)
{
	double from_s = (double)(il->last_ns - il->start_ns) / NS_PER_S;
	double to_s = (double)(now_ns - il->start_ns) / NS_PER_S;
	uint64_t claimed = now->claimed - il->last.claimed;

	uint64_t completed = now->completed - il->last.completed;

	fprintf(il->out, "claimbench: %s: %.1f-%.1f s: %llu done, %.1f jobs/s, claim latency ", label, from_s, to_s,
		(unsigned long long)completed, to_s > from_s ? (double)completed / (to_s - from_s) : 0.0);
	if (claimed)
		fprintf(il->out, "%.3f ms mean", (double)(now->claim_ns - il->last.claim_ns) / (double)claimed / NS_PER_MS);
	else
		fprintf(il->out, "- (no claim)");
	fprintf(il->out, ", %llu empty, %llu errors", (unsigned long long)(now->empty - il->last.empty),
		(unsigned long long)(now->errors - il->last.errors));
	if (il->arrivals)
		fprintf(il->out, ", %llu arrivals", (unsigned long long)(now->inserted - il->last.inserted));
	fprintf(il->out, "%s\n", il->last_ns < il->measured_from_ns ? " (warm-up)" : "");
	fflush(il->out);
	il->last_ns = now_ns;
	il->last = *now;
}

void interval_lines_finish(struct interval_lines *il, const char *label, const struct live_totals *now,
			   int64_t now_ns)
{
	if (il->every_ns > 0 && now_ns > il->last_ns)
		interval_lines_print(il, label, now, now_ns);
}
