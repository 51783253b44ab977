#include <stdio.h>

#include "base/clock.h"
#include "engine/run_shared.h"
#include "engine/signals.h"

bool run_stopping(const struct run_shared *s)
{
	return atomic_load_explicit(&s->stop, memory_order_relaxed) || signals_interrupted();
}

bool run_sleep_until(const struct run_shared *s, int64_t at_ns, const atomic_bool *quit)
{
	for (;;) {
		int64_t left = at_ns - clock_now_ns();

		if (run_stopping(s) || (quit && atomic_load(quit)))
			return false;
		if (left <= 0)
			return true;
		clock_sleep_ns(left < RUN_WAKE_NS ? left : RUN_WAKE_NS);
	}
}

bool run_pause_ns(const struct run_shared *s, int64_t duration_ns)
{
	if (s->virtual_time)
		return !run_stopping(s);
	return run_sleep_until(s, clock_now_ns() + duration_ns, NULL);
}

void run_wait_gate(struct run_shared *s)
{
	pthread_mutex_lock(&s->gate_lock);
	while (!s->gate_open)
		pthread_cond_wait(&s->gate_opened, &s->gate_lock);
	pthread_mutex_unlock(&s->gate_lock);
}

void run_open_gate(struct run_shared *s, int64_t duration_ns, int64_t warmup_ns)
{
	pthread_mutex_lock(&s->gate_lock);
	s->start_ns = clock_now_ns();
	s->deadline_ns = duration_ns > 0 ? s->start_ns + duration_ns : 0;
	s->measured_from_ns = s->start_ns + warmup_ns;
	s->gate_open = true;
	pthread_cond_broadcast(&s->gate_opened);
	pthread_mutex_unlock(&s->gate_lock);
}

void run_note_progress(struct run_shared *s)
{
	/* read before written: the line is shared, and is written only after a loss */
	if (atomic_load_explicit(&s->losses_in_a_row, memory_order_relaxed))
		atomic_store_explicit(&s->losses_in_a_row, 0, memory_order_relaxed);
}

void run_note_loss(struct run_shared *s, const char *why)
{
	if (atomic_fetch_add(&s->losses_in_a_row, 1) + 1 < s->loss_limit || atomic_exchange(&s->no_progress, true))
		return;
	snprintf(s->no_progress_reason, sizeof(s->no_progress_reason), "%s", why);
	atomic_store(&s->stop, true);
}
