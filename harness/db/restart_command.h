/*
 * A restart or failover fault on a server of the user's own: the shell command the user gave
 * (--restart-command, --failover-command).
 */
#ifndef CLAIMBENCH_RESTART_COMMAND_H
#define CLAIMBENCH_RESTART_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

/* How long a command ended early is given to exit after SIGTERM before its process group is killed. */
#define RESTART_COMMAND_GRACE_MS 1000

/* The command and what bounds it. */
struct restart_command {
	const char *command;		/* the shell command, as sh runs it */
	const char *option;		/* the option it was given in ("--restart-command"), which its errors name */
	double limit_s;			/* how long it may run before it is ended (--restart-limit-s) */
};

/*
 * Runs restart's command (restart is a const struct restart_command *, passed as void * to
 * be a struct server_restart's fn) with /bin/sh, the command passed in the shell's
 * environment (never on its command line, which `ps` shows), in a process
 * group of its own, with the default signal dispositions and no signal blocked, its output
 * to stderr, and waits for it. It is to restart the server in immediate mode and return
 * once the server accepts connections again. When it outlasts its limit, or stopping(run)
 * says the run stops,
 * its process group is sent SIGTERM, then SIGKILL after RESTART_COMMAND_GRACE_MS. 0 when
 * it exits with status 0, or -1 with err.
 */
int restart_command_run(void *restart, bool (*stopping)(const void *run), const void *run, char *err,
			size_t errlen);

#endif
