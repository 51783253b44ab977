/*
 * Keeping passwords out of sight: out of the command line and scenario text that are
 * stored and printed, and out of what `ps` shows of the running process. Every --db value
 * and every scenario `db` key is a conninfo, masked with libpq's own parser (db/conninfo.h).
 */
#ifndef CLAIMBENCH_SECRETS_H
#define CLAIMBENCH_SECRETS_H

#include "cli/scenario.h"

/*
 * Points every --db value of argv at a copy of its own and overwrites the original, which
 * /proc/PID/cmdline and `ps` show, with the value's passwords masked. Call it first thing
 * in main. 0, or -1 when out of memory.
 */
int secrets_hide_argv(int argc, char **argv);

/*
 * The command line "claimbench " + argv as typed, every --db value's passwords masked
 * (and any other text that looks like a password), as a new string (free it); NULL when
 * out of memory.
 */
char *secrets_command_line(int argc, char **argv);

/* Masks, in sc's text, the passwords of every `db` key's value and any other text that looks like one. 0, or -1 when out of memory. */
int secrets_mask_scenario(struct scenario *sc);

#endif
