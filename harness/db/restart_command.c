#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "db/restart_command.h"

extern char **environ;

/* How often the wait for the command looks at its limit and at the stop. */
#define POLL_NS 10000000LL

/* The environment variable the command reaches the shell in, and the shell's own script, which runs it. */
#define COMMAND_VARIABLE "CLAIMBENCH_SHELL_COMMAND"
#define SHELL_SCRIPT "c=$" COMMAND_VARIABLE "; unset " COMMAND_VARIABLE "; eval \"$c\""

/*
 * environ with COMMAND_VARIABLE=command in place of any it has, as a new array whose one
 * new string is its first entry (free both); NULL when out of memory.
 */
static char **command_environment(const char *command)
{
	size_t n = 0, k = 1, len = strlen(COMMAND_VARIABLE);
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	env[0] = malloc(len + strlen(command) + 2);
	if (!env[0]) {
		free(env);
		return NULL;
	}
	sprintf(env[0], "%s=%s", COMMAND_VARIABLE, command);
	for (size_t i = 0; i < n; i++)
		if (!(strncmp(environ[i], COMMAND_VARIABLE, len) == 0 && environ[i][len] == '='))
			env[k++] = environ[i];
	return env;
}

/*
 * Starts command as pid with /bin/sh, in a process group of its own (so that a signal to
 * claimbench's group does not reach it, and its own children are ended with it), with the
 * signals claimbench blocks or ignores back to their defaults. The command reaches the shell
 * in its environment, which only its user and root can read, never on its command line,
 * which `ps` shows everyone; the shell takes it out of the environment before it runs it. 0,
 * or an errno value.
 */
static int spawn_command(const char *command, pid_t *pid)
{
	char *argv[] = { "sh", "-c", SHELL_SCRIPT, NULL };
	char **env = command_environment(command);
	posix_spawn_file_actions_t actions;
	posix_spawnattr_t attr;
	sigset_t none, defaults;
	int rc;

	if (!env)
		return ENOMEM;
	sigemptyset(&none);
	sigemptyset(&defaults);
	sigaddset(&defaults, SIGINT);
	sigaddset(&defaults, SIGTERM);
	sigaddset(&defaults, SIGHUP);
	sigaddset(&defaults, SIGPIPE);
	if ((rc = posix_spawn_file_actions_init(&actions)) != 0)
		goto done;
	if ((rc = posix_spawnattr_init(&attr)) != 0) {
		posix_spawn_file_actions_destroy(&actions);
		goto done;
	}
	rc = posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
	if (rc == 0)
		rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
						     POSIX_SPAWN_SETSIGDEF);
	if (rc == 0)
		rc = posix_spawnattr_setpgroup(&attr, 0);
	if (rc == 0)
		rc = posix_spawnattr_setsigmask(&attr, &none);
	if (rc == 0)
		rc = posix_spawnattr_setsigdefault(&attr, &defaults);
	if (rc == 0)
		rc = posix_spawn(pid, "/bin/sh", &actions, &attr, argv, env);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&actions);
done:
	free(env[0]);
	free(env);
	return rc;
}

/*
 * Waits for pid until the instant until_ns (clock_now_ns) or, when stopping is given, until
 * stopping(run) says the run stops. 1 when pid has exited, left unreaped (a zombie, which keeps its
 * process group's number from being reused until reap takes it), 0 when it still runs, -1
 * on an error of waitid (errno).
 */
static int wait_until(pid_t pid, int64_t until_ns, bool (*stopping)(const void *run), const void *run)
{
	for (;;) {
		siginfo_t si = { .si_pid = 0 };

		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid)
			return 1;
		if (si.si_pid != pid && errno != EINTR && errno != 0)
			return -1;
		errno = 0;
		if (clock_now_ns() >= until_ns || (stopping && stopping(run)))
			return 0;
		clock_sleep_ns(POLL_NS);
	}
}

/* Reaps pid, which has exited or been killed, into *status. */
static void reap(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

/*
 * Ends the process group of pid: SIGTERM, SIGKILL after RESTART_COMMAND_GRACE_MS (what the
 * shell started may outlive it), and reaps pid. pid is reaped only after the last signal,
 * so that the group's number is still its own when signalled, never an unrelated process's.
 */
static void end_group(pid_t pid)
{
	int status;

	kill(-pid, SIGTERM);
	wait_until(pid, clock_now_ns() + RESTART_COMMAND_GRACE_MS * 1000000LL, NULL, NULL);
	kill(-pid, SIGKILL);
	reap(pid, &status);
}

int restart_command_run(void *restart, bool (*stopping)(const void *run), const void *run, char *err,
			size_t errlen)
{
	const struct restart_command *rc = restart;
	int status, waited, spawned;
	pid_t pid;

	spawned = spawn_command(rc->command, &pid);
	if (spawned != 0) {
		snprintf(err, errlen, "cannot run %s: %s", rc->option, strerror(spawned));
		return -1;
	}
	waited = wait_until(pid, clock_now_ns() + (int64_t)(rc->limit_s * 1e9), stopping, run);
	if (waited < 0) {
		snprintf(err, errlen, "cannot wait for %s: %s", rc->option, strerror(errno));
		end_group(pid);
		return -1;
	}
	if (waited == 0) {
		bool stopped = stopping && stopping(run);

		end_group(pid);
		if (stopped)
			snprintf(err, errlen, "%s was ended by the stop", rc->option);
		else
			snprintf(err, errlen, "%s was still running after %g s (--restart-limit-s): ended", rc->option,
				 rc->limit_s);
		return -1;
	}
	reap(pid, &status);
	if (WIFSIGNALED(status)) {
		snprintf(err, errlen, "%s was killed by signal %d", rc->option, WTERMSIG(status));
		return -1;
	}
	if (WEXITSTATUS(status) != 0) {
		snprintf(err, errlen, "%s exited with status %d", rc->option, WEXITSTATUS(status));
		return -1;
	}
	return 0;
}
