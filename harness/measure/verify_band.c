/*
 * --verify's lease band (verify_band.h): each execution x of a job against the one begun
 * latest before it, y (the holder the ledger's lease rule judges by), neither cut short by
 * a stop. y's lease was set between y.claim_start and y.start and read by x's claim
 * between x.claim_start and x.start, each on a server clock ticking every tick: it may
 * have run out when x.start - y.claim_start >= lease - tick, and surely had when
 * x.claim_start - y.start >= lease + tick. x's judgement is open when it may and not
 * surely, or when it may and y's completion committed but returned after x's claim began.
 */
#include <stdlib.h>
#include <string.h>

#include "base/order.h"
#include "measure/verify_band.h"

/* qsort order of executions: by job, then start. */
static int by_job_start(const void *pa, const void *pb)
{
	const struct execution *a = pa, *b = pb;
	int c = cmp_i64(a->job_id, b->job_id);

	return c ? c : cmp_i64(a->start_ns, b->start_ns);
}

/* Whether x's lease judgement against y, begun before it, is open (see the file's comment). */
static bool open_judgement(const struct verify_input *in, const struct execution *y, const struct execution *x)
{
	bool committed = y->outcome == EXEC_DONE || y->outcome == EXEC_FAILED;
	bool may = x->start_ns - y->claim_start_ns >= in->lease_ns - in->clock_tick_ns;
	bool surely = x->claim_start_ns - y->start_ns >= in->lease_ns + in->clock_tick_ns;

	if (committed && y->end_ns <= x->claim_start_ns)
		return false;
	return may && (!surely || committed);
}

int64_t verify_lease_band(const struct verify_input *in)
{
	const struct ledger *l = in->ledger;
	struct execution *x;
	int64_t open = 0;
	size_t y = 0;

	if (in->hold || in->lease_ns <= 0 || !l->n_execs)
		return 0;
	x = malloc(l->n_execs * sizeof(*x));
	if (!x)
		return -1;
	memcpy(x, l->execs, l->n_execs * sizeof(*x));
	qsort(x, l->n_execs, sizeof(*x), by_job_start);
	for (size_t i = 0; i < l->n_execs; i++) {
		if (x[i].outcome == EXEC_INTERRUPTED)
			continue;
		if (i > y && x[y].job_id == x[i].job_id && x[y].outcome != EXEC_INTERRUPTED)
			open += open_judgement(in, &x[y], &x[i]);
		y = i;
	}
	free(x);
	return open;
}
