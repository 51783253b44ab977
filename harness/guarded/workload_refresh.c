#include "guarded/acquire.h"
#include "guarded/guarded_worker.h"

/*
 * After a check that timed out: records it, then uses the cache unchecked, as a job that
 * gave up waiting goes on with what there is, judged against the period current then. 0, or -1.
 */
static int use_unchecked(struct guarded_worker *w, struct acquisition *a)
{
	a->outcome = ACQ_TIMEOUT;
	a->release_ns = guarded_now(w);
	if (guarded_read_cache(w, guarded_period_at(w, a->release_ns), &a->seen) < 0)
		return guarded_use_failed(w, a);
	if (guarded_record(w, a) < 0)
		return -1;
	run_pause_ns(&w->g->gate, (int64_t)(w->g->cfg->work_ms * 1e6));
	return 0;
}

/*
 * One cycle of the refresh workload (seed 003, step 1): take the guard, read the status,
 * refresh the cache in two halves when it is of an earlier period, release, then use it.
 */
int refresh_cycle(struct guarded_worker *w)
{
	const struct guard_lock *l = guarded_lock_of(w);
	struct acquisition a = guarded_asked(w, 0, l->mode, ROLE_USER);
	enum acq_outcome outcome = guarded_take(w, l, &a);
	int64_t status[2], seen_period, version;

	if (outcome == ACQ_TIMEOUT)
		return use_unchecked(w, &a);
	if (outcome != ACQ_GRANTED)
		return guarded_not_granted(w, &a, outcome);
	a.period = guarded_period_at(w, a.grant_ns);
	if (guarded_exec(w, GSLOT_READ_STATUS, NULL, 0, status, 2) != 1)
		return guarded_fail(w, &a, "reading the status row");
	if (status[0] < a.period) {
		version = guarded_next_version(w);
		if (guarded_exec2(w, GSLOT_WRITE_HALF_1, version, a.period) < 0)
			return guarded_fail(w, &a, "refreshing the cache");
		if (guarded_end_refresh(w, &a, GSLOT_WRITE_HALF_2, version, "refreshing the cache") < 0)
			return -1;
		seen_period = a.period;
	} else {
		seen_period = status[0];
		a.waited = status[1] > a.start_ns;
	}
	if (guarded_release(w, l, &a) < 0)
		return -1;
	if (guarded_read_cache(w, seen_period, &a.seen) < 0)
		return guarded_use_failed(w, &a);
	if (guarded_record(w, &a) < 0)
		return -1;
	run_pause_ns(&w->g->gate, (int64_t)(w->g->cfg->work_ms * 1e6));
	return 0;
}
