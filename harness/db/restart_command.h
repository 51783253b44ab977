/* A restart fault on a server of the user's own: the shell command the user gave (--restart-command). */
#ifndef CLAIMBENCH_RESTART_COMMAND_H
#define CLAIMBENCH_RESTART_COMMAND_H

#include <stddef.h>

/*
 * Runs command (a const char *) with /bin/sh -c, its output to stderr, and waits for it.
 * It is to restart the server in immediate mode and return once the server accepts
 * connections again. 0 when it exits with status 0, or -1 with err.
 */
int restart_command_run(void *command, char *err, size_t errlen);

#endif
