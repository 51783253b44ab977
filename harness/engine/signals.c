#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/exit_status.h"
#include "engine/signals.h"

/* One connection a first signal cancels. */
struct watched {
	const struct backend_ops *db;	/* its driver */
	struct db_conn *conn;		/* the connection */
	const atomic_bool *stopped;	/* set once its thread has seen the stop; NULL: not cancelled again */
};

/* Set by the signal thread at the first signal; read by every thread. */
static atomic_bool interrupted;

/*
 * The first signal's instant (clock_now_ns), set before a second can reach exit_now. A
 * long long holds any int64_t; it must be lock-free, for exit_now, a signal handler, reads
 * it: a load that took a lock could wait forever on the lock of the thread it interrupted,
 * and only lock-free atomics are async-signal-safe (C11 7.14.1.1).
 */
static atomic_llong first_signal_ns;
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "exit_now, a signal handler, reads first_signal_ns: it must be lock-free");

/* The connections to cancel, guarded by watch_lock. */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static struct watched *watch_list;	/* the connections (grown as needed) */
static size_t watch_len;		/* entries used */
static size_t watch_cap;		/* entries allocated */

/* The signals the stop comes from. */
static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

/*
 * The handler of the signals after the first: one within SIGNALS_SAME_STOP_MS of the first
 * is part of the same stop and is ignored; a later one ends the process now
 * (async-signal-safe calls only).
 */
static void exit_now(int signo)
{
	static const char message[] = "claimbench: stopped at once by a second signal; results not kept\n";
	int saved_errno = errno;
	ssize_t written;

	(void)signo;
	if (clock_now_ns() - atomic_load(&first_signal_ns) < SIGNALS_SAME_STOP_MS * 1000000LL) {
		errno = saved_errno;	/* the interrupted thread's errno, as it was */
		return;
	}
	written = write(STDERR_FILENO, message, sizeof(message) - 1);
	(void)written;
	_exit(EXIT_INCOMPLETE);
}

/* Cancels the statement of every watched connection. */
static void cancel_all(void)
{
	pthread_mutex_lock(&watch_lock);
	for (size_t i = 0; i < watch_len; i++)
		watch_list[i].db->cancel(watch_list[i].conn);
	pthread_mutex_unlock(&watch_lock);
}

void signals_cancel_again(void)
{
	pthread_mutex_lock(&watch_lock);
	for (size_t i = 0; i < watch_len; i++)
		if (watch_list[i].stopped && !atomic_load(watch_list[i].stopped))
			watch_list[i].db->cancel(watch_list[i].conn);
	pthread_mutex_unlock(&watch_lock);
}

/*
 * The thread that takes the signals: waits for the first, notes it and its instant, lets
 * the next ones reach exit_now (even while a cancel is slow to answer), and cancels what
 * is running.
 */
static void *take_signals(void *arg)
{
	struct sigaction sa = { .sa_handler = exit_now };
	sigset_t set;
	int signo;

	(void)arg;
	stop_signals(&set);
	while (sigwait(&set, &signo) != 0)
		;
	atomic_store(&first_signal_ns, clock_now_ns());
	atomic_store(&interrupted, true);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	cancel_all();
	for (;;)
		pause();
	return NULL;
}

int signals_install(char *err, size_t errlen)
{
	struct sigaction ignore = { .sa_handler = SIG_IGN };
	pthread_attr_t attr;
	pthread_t thread;
	sigset_t set;
	int rc;

	sigemptyset(&ignore.sa_mask);
	sigaction(SIGPIPE, &ignore, NULL);
	stop_signals(&set);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&thread, &attr, take_signals, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		snprintf(err, errlen, "cannot start the thread that takes signals: %s", strerror(rc));
		return -1;
	}
	return 0;
}

bool signals_interrupted(void)
{
	return atomic_load(&interrupted);
}

int signals_watch(const struct backend_ops *db, struct db_conn *conn, const atomic_bool *stopped)
{
	int rc = 0;

	pthread_mutex_lock(&watch_lock);
	if (watch_len == watch_cap) {
		size_t cap = watch_cap ? 2 * watch_cap : 64;
		struct watched *grown = realloc(watch_list, cap * sizeof(*grown));

		if (!grown) {
			rc = -1;
			goto out;
		}
		watch_list = grown;
		watch_cap = cap;
	}
	watch_list[watch_len++] = (struct watched){ .db = db, .conn = conn, .stopped = stopped };
out:
	pthread_mutex_unlock(&watch_lock);
	return rc;
}

void signals_unwatch(struct db_conn *conn)
{
	pthread_mutex_lock(&watch_lock);
	for (size_t i = 0; i < watch_len; i++) {
		if (watch_list[i].conn == conn) {
			watch_list[i] = watch_list[--watch_len];
			break;
		}
	}
	pthread_mutex_unlock(&watch_lock);
}
