/*
 * Keeping passwords out of sight: out of the command line and scenario text that are
 * stored and printed, and out of what `ps` shows of the running process. Every --db value
 * and every scenario `db` key is a conninfo, masked with libpq's own parser (db/conninfo.h);
 * every --restart-command and --failover-command value and scenario key is a shell command,
 * masked by db/command_secrets.h.
 */
#ifndef CLAIMBENCH_SECRETS_H
#define CLAIMBENCH_SECRETS_H

#include "cli/scenario.h"

/*
 * Points every --db, --restart-command and --failover-command value of argv at a copy of its
 * own (the option abbreviated too) and overwrites the original, which /proc/PID/cmdline and
 * `ps` show, with the value's secrets masked (blanks after it, or '*' throughout when the
 * masked text is the longer).
 * Call it first thing in main. 0, or -1 when out of memory.
 */
int secrets_hide_argv(int argc, char **argv);

/*
 * The command line "claimbench " + argv as typed, every --db, --restart-command and
 * --failover-command value's secrets masked (and any other text that looks like a
 * password), as a new string (free it); NULL when out of memory.
 */
char *secrets_command_line(int argc, char **argv);

/*
 * Masks, in sc's text, the passwords of every `db` key's value, the secrets of every
 * `restart-command` and `failover-command` key's, and any other text that looks like a
 * password. 0, or -1 when out of memory.
 */
int secrets_mask_scenario(struct scenario *sc);

#endif
