#include <stdio.h>

#include "queue/run_shared.h"

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
	atomic_store(&s->gate.stop, true);
}
