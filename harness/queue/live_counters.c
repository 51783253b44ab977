#include "queue/live_counters.h"

void live_counters_init(struct live_counters *c)
{
	atomic_init(&c->completed, 0);
	atomic_init(&c->claimed, 0);
	atomic_init(&c->claim_ns, 0);
	atomic_init(&c->empty, 0);
	atomic_init(&c->errors, 0);
	atomic_init(&c->inserted, 0);
}

void live_totals_add(struct live_totals *sum, const struct live_counters *c)
{
	sum->completed += atomic_load_explicit(&c->completed, memory_order_relaxed);
	sum->claimed += atomic_load_explicit(&c->claimed, memory_order_relaxed);
	sum->claim_ns += atomic_load_explicit(&c->claim_ns, memory_order_relaxed);
	sum->empty += atomic_load_explicit(&c->empty, memory_order_relaxed);
	sum->errors += atomic_load_explicit(&c->errors, memory_order_relaxed);
	sum->inserted += atomic_load_explicit(&c->inserted, memory_order_relaxed);
}
