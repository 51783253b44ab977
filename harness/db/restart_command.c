#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db/restart_command.h"

extern char **environ;

int restart_command_run(void *command, char *err, size_t errlen)
{
	char *argv[] = { "sh", "-c", command, NULL };
	posix_spawn_file_actions_t actions;
	int rc, status;
	pid_t pid;

	if (posix_spawn_file_actions_init(&actions) != 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
	if (rc == 0)
		rc = posix_spawn(&pid, "/bin/sh", &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	if (rc != 0) {
		snprintf(err, errlen, "cannot run the restart command: %s", strerror(rc));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(err, errlen, "cannot wait for the restart command: %s", strerror(errno));
			return -1;
		}
	}
	if (WIFSIGNALED(status)) {
		snprintf(err, errlen, "the restart command was killed by signal %d", WTERMSIG(status));
		return -1;
	}
	if (WEXITSTATUS(status) != 0) {
		snprintf(err, errlen, "the restart command exited with status %d", WEXITSTATUS(status));
		return -1;
	}
	return 0;
}
