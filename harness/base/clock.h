/* Monotonic time in nanoseconds, the one clock every measurement uses. */
#ifndef CLAIMBENCH_CLOCK_H
#define CLAIMBENCH_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds since an arbitrary fixed point (CLOCK_MONOTONIC); never goes back. */
static inline int64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The calling thread's CPU time in nanoseconds (CLOCK_THREAD_CPUTIME_ID), user and system. */
static inline int64_t clock_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Sleeps until the monotonic instant deadline_ns (absolute), resuming after signals. */
static inline void clock_sleep_until_ns(int64_t deadline_ns)
{
	struct timespec ts = { .tv_sec = deadline_ns / 1000000000, .tv_nsec = deadline_ns % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
		;
}

/* Sleeps for duration_ns from now. */
static inline void clock_sleep_ns(int64_t duration_ns)
{
	if (duration_ns > 0)
		clock_sleep_until_ns(clock_now_ns() + duration_ns);
}

#endif
