#include <pthread.h>

#include "guarded/acquire.h"
#include "guarded/guarded_loop.h"
#include "guarded/workload_exclusive_use.h"
#include "guarded/workload_refresh.h"
#include "guarded/workload_resource.h"

/* The thread: waits for the gate, then runs its workload's cycles until the time is up. */
static void *guarded_worker_main(void *arg)
{
	struct guarded_worker *w = arg;
	enum workload workload = guarded_plan_of(w)->workload;
	int rc = 0;

	run_wait_gate(&w->g->gate);
	while (rc == 0 && !guarded_time_up(w)) {
		if (workload == WORKLOAD_REFRESH)
			rc = refresh_cycle(w);
		else if (workload == WORKLOAD_RESOURCE)
			rc = request_cycle(w);
		else
			rc = guarded_is_refresher(w) ? refresher_cycle(w) : use_cycle(w);
	}
	w->finished_ns = guarded_now(w);
	return NULL;
}

int guarded_worker_start(struct guarded_worker *w)
{
	return pthread_create(&w->thread, NULL, guarded_worker_main, w) == 0 ? 0 : -1;
}
