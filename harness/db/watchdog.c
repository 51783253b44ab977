#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db/leftovers.h"
#include "db/watchdog.h"

/* Paths one watchdog guards at most. */
#define WATCHDOG_MAX_ITEMS 8

/* What the parent tells its watchdog, one fixed-size record (atomic in a pipe) at a time. */
struct order {
	char kind;		/* 'g': guard path; 'r': released, remove nothing */
	watchdog_stop_fn stop;	/* stops what runs in path first (the forked watchdog shares the image); NULL: nothing */
	bool drop;		/* act as uid and gid */
	uid_t uid;		/* the user to act as */
	gid_t gid;		/* that user's group */
	char path[PATH_MAX / 4];/* the directory to remove */
};

/* Acts on the orders received: stops what runs in each path, removes the paths, each as the user it was given with. */
static void clean_up(const struct order *orders, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct run_as as = { .drop = orders[i].drop, .uid = orders[i].uid, .gid = orders[i].gid };

		if (orders[i].stop)
			orders[i].stop(orders[i].path, &as);
		leftovers_remove(orders[i].path, &as);
	}
}

/* The watchdog process: keeps the orders read from fd until its end of file, then acts unless released. */
_Noreturn static void watch(int fd)
{
	struct order orders[WATCHDOG_MAX_ITEMS], order;
	size_t n = 0;
	ssize_t got;

	for (;;) {
		got = read(fd, &order, sizeof(order));
		if (got < 0 && errno == EINTR)
			continue;
		if (got != (ssize_t)sizeof(order))
			break;
		if (order.kind == 'r')
			_exit(0);
		if (n < WATCHDOG_MAX_ITEMS)
			orders[n++] = order;
	}
	clean_up(orders, n);
	_exit(0);
}

/* In the forked watchdog: a session of its own (no terminal signal reaches it), no descriptor but fd, then watch. */
_Noreturn static void become_watchdog(int fd)
{
	int null_fd = open("/dev/null", O_RDWR);

	setsid();
	if (null_fd >= 0) {
		dup2(null_fd, STDIN_FILENO);
		dup2(null_fd, STDOUT_FILENO);
		dup2(null_fd, STDERR_FILENO);
	}
	if (fd != STDERR_FILENO + 1) {
		dup2(fd, STDERR_FILENO + 1);
		fd = STDERR_FILENO + 1;
	}
	close_range(STDERR_FILENO + 2, ~0U, 0);
	watch(fd);
}

int watchdog_start(struct watchdog *wd, char *err, size_t errlen)
{
	int fds[2];

	wd->pid = 0;
	wd->fd = -1;
	if (pipe2(fds, O_CLOEXEC) != 0) {
		snprintf(err, errlen, "cannot start the watchdog: %s", strerror(errno));
		return -1;
	}
	wd->pid = fork();
	if (wd->pid < 0) {
		snprintf(err, errlen, "cannot start the watchdog: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		wd->pid = 0;
		return -1;
	}
	if (wd->pid == 0) {
		close(fds[1]);
		become_watchdog(fds[0]);
	}
	close(fds[0]);
	wd->fd = fds[1];
	return 0;
}

/* Writes one order to the watchdog. 0, or -1. */
static int tell(struct watchdog *wd, const struct order *order)
{
	ssize_t put;

	if (wd->fd < 0)
		return -1;
	do
		put = write(wd->fd, order, sizeof(*order));
	while (put < 0 && errno == EINTR);
	return put == (ssize_t)sizeof(*order) ? 0 : -1;
}

int watchdog_guard(struct watchdog *wd, const char *path, watchdog_stop_fn stop, const struct run_as *as)
{
	struct order order = { .kind = 'g', .stop = stop, .drop = as->drop, .uid = as->uid, .gid = as->gid };

	if (strlen(path) >= sizeof(order.path))
		return -1;
	strcpy(order.path, path);
	return tell(wd, &order);
}

void watchdog_release(struct watchdog *wd)
{
	struct order order = { .kind = 'r' };

	if (!wd->pid)
		return;
	tell(wd, &order);
	close(wd->fd);
	wd->fd = -1;
	while (waitpid(wd->pid, NULL, 0) < 0 && errno == EINTR)
		;
	wd->pid = 0;
}
