/*
 * The start gate and the stop of one run, whichever its workload: the threads wait at the
 * gate until they are all ready, the gate's opening sets the run's instants, and the stop
 * (asked by the run or by a signal) ends every sleep early.
 */
#ifndef CLAIMBENCH_RUN_GATE_H
#define CLAIMBENCH_RUN_GATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The longest a thread sleeps (working, pausing) before it looks whether the run is stopping. */
#define RUN_WAKE_NS 10000000

/* A run's gate, instants and stop; the instants are set when the gate opens, read-only after. */
struct run_gate {
	pthread_mutex_t lock;		/* guards open and the instants until the start */
	pthread_cond_t opened;		/* broadcast when the gate opens */
	bool open;			/* the start barrier: threads connected and ready wait for it */
	atomic_bool stop;		/* set to make every thread finish what it holds and stop */
	int64_t start_ns;		/* the start barrier's instant (clock_now_ns), set when the gate opens */
	int64_t deadline_ns;		/* end of a timed run (absolute), 0 in a drain run */
	int64_t measured_from_ns;	/* the warm-up's end (absolute): claims and completions before it are
					 * left out of the rate and latency figures; start_ns without one */
	bool virtual_time;		/* explore: time is the schedule's, so pauses (back-off, polling)
					 * return at once; set before threads start */
};

/* Makes g a closed gate of a run not stopping. Call before any thread of the run starts. */
void run_gate_init(struct run_gate *g);

/* Frees what g holds. Call once every thread of the run is joined. */
void run_gate_destroy(struct run_gate *g);

/* Whether the run of g is stopping: a stop was requested, or a signal arrived. */
bool run_stopping(const struct run_gate *g);

/*
 * Sleeps until the instant at_ns (clock_now_ns), waking every RUN_WAKE_NS to look whether
 * the run of g is stopping or *quit (NULL: none) is set. true when it got there, false
 * when it woke for the stop or quit.
 */
bool run_sleep_until(const struct run_gate *g, int64_t at_ns, const atomic_bool *quit);

/*
 * Sleeps duration_ns (working, backing off, polling), waking early when the run of g
 * stops; with g->virtual_time it does not sleep. true when it slept the whole time, false
 * when the run is stopping.
 */
bool run_pause_ns(const struct run_gate *g, int64_t duration_ns);

/* Blocks until g opens. */
void run_wait_gate(struct run_gate *g);

/*
 * Opens g: records the start instant, the end of a timed run of duration_ns (0: a drain
 * run) and of a warm-up of warmup_ns, and releases the threads.
 */
void run_open_gate(struct run_gate *g, int64_t duration_ns, int64_t warmup_ns);

#endif
