#include "base/clock.h"
#include "guarded/acquire.h"
#include "guarded/guarded_worker.h"

/*
 * One use of exclusive-use's cache: take the guard, read the cache (stale when of an
 * earlier period than the one current at the grant: the refresher is behind), use it for
 * --work-ms, release.
 */
int use_cycle(struct guarded_worker *w)
{
	const struct guard_lock *l = guarded_lock_of(w);
	struct acquisition a = guarded_asked(w, 0, l->mode, ROLE_USER);
	enum acq_outcome outcome = guarded_take(w, l, &a);

	if (outcome != ACQ_GRANTED)
		return guarded_not_granted(w, &a, outcome);
	a.period = guarded_period_at(w, a.grant_ns);
	if (guarded_read_cache(w, a.period, &a.seen) < 0)
		return guarded_fail(w, &a, "using the cache");
	clock_sleep_ns((int64_t)(w->g->cfg->work_ms * 1e6));
	if (guarded_release(w, l, &a) < 0)
		return -1;
	return guarded_record(w, &a);
}

/*
 * exclusive-use's refresher: at the start of every stale period, empty and refill the
 * cache under the writer's lock, trying again after --retry-ms while the lock is refused;
 * then sleep to the next period's start (or the run's end), however late the grant came.
 */
int refresher_cycle(struct guarded_worker *w)
{
	const struct guard_lock *l = guarded_lock_of(w);
	const struct run_gate *gate = &w->g->gate;
	int64_t stale_ns = (int64_t)guarded_plan_of(w)->stale_ms * 1000000;
	int64_t version, next;

	for (;;) {
		struct acquisition a = guarded_asked(w, 0, l->mode, ROLE_WRITER);
		enum acq_outcome outcome = guarded_take(w, l, &a);

		if (outcome == ACQ_REFUSED) {
			if (guarded_not_granted(w, &a, outcome) < 0)
				return -1;
			if (!run_pause_ns(gate, (int64_t)guarded_plan_of(w)->retry_ms * 1000000) || guarded_time_up(w))
				return 0;
			continue;
		}
		if (outcome != ACQ_GRANTED)
			return guarded_not_granted(w, &a, outcome);
		a.period = guarded_period_at(w, a.grant_ns);
		version = guarded_next_version(w);
		if (guarded_exec(w, GSLOT_EMPTY_CACHE, NULL, 0, NULL, 0) < 0)
			return guarded_fail(w, &a, "emptying the cache");
		if (guarded_end_refresh(w, &a, GSLOT_FILL_CACHE, version, "filling the cache") < 0 ||
		    guarded_release(w, l, &a) < 0 || guarded_record(w, &a) < 0)
			return -1;
		break;
	}
	next = gate->start_ns + (int64_t)guarded_period_at(w, guarded_now(w)) * stale_ns;
	run_sleep_until(gate, gate->deadline_ns && gate->deadline_ns < next ? gate->deadline_ns : next, NULL);
	return 0;
}
