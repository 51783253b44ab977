#include "base/clock.h"
#include "engine/run_gate.h"
#include "engine/signals.h"

void run_gate_init(struct run_gate *g)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->opened, NULL);
	g->open = false;
	atomic_init(&g->stop, false);
	g->start_ns = g->deadline_ns = g->measured_from_ns = 0;
}

void run_gate_destroy(struct run_gate *g)
{
	pthread_cond_destroy(&g->opened);
	pthread_mutex_destroy(&g->lock);
}

bool run_stopping(const struct run_gate *g)
{
	return atomic_load_explicit(&g->stop, memory_order_relaxed) || signals_interrupted();
}

bool run_sleep_until(const struct run_gate *g, int64_t at_ns, const atomic_bool *quit)
{
	for (;;) {
		int64_t left = at_ns - clock_now_ns();

		if (run_stopping(g) || (quit && atomic_load(quit)))
			return false;
		if (left <= 0)
			return true;
		clock_sleep_ns(left < RUN_WAKE_NS ? left : RUN_WAKE_NS);
	}
}

bool run_pause_ns(const struct run_gate *g, int64_t duration_ns)
{
	if (g->virtual_time)
		return !run_stopping(g);
	return run_sleep_until(g, clock_now_ns() + duration_ns, NULL);
}

void run_wait_gate(struct run_gate *g)
{
	pthread_mutex_lock(&g->lock);
	while (!g->open)
		pthread_cond_wait(&g->opened, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void run_open_gate(struct run_gate *g, int64_t duration_ns, int64_t warmup_ns)
{
	pthread_mutex_lock(&g->lock);
	g->start_ns = clock_now_ns();
	g->deadline_ns = duration_ns > 0 ? g->start_ns + duration_ns : 0;
	g->measured_from_ns = g->start_ns + warmup_ns;
	g->open = true;
	pthread_cond_broadcast(&g->opened);
	pthread_mutex_unlock(&g->lock);
}
