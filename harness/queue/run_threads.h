/* The threads of one run: its workers and producers, as the monitor and the sampler watch them. */
#ifndef CLAIMBENCH_RUN_THREADS_H
#define CLAIMBENCH_RUN_THREADS_H

#include "queue/producer.h"
#include "queue/worker.h"

/* The run's threads the monitor watches. */
struct run_threads {
	struct worker *w;	/* the workers */
	int n_workers;		/* workers started */
	struct producer *p;	/* the producers */
	int n_producers;	/* producers started */
};

#endif
