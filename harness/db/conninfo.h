/* Connection strings as text that is kept or printed: their secrets masked. */
#ifndef CLAIMBENCH_CONNINFO_H
#define CLAIMBENCH_CONNINFO_H

/*
 * Masks, in place, the passwords a text may carry in a connection string: the value of
 * password=... (conninfo) and the password of a URI's user:password@. Text that is kept
 * or printed (the command line, a scenario file) goes through it first.
 */
void conninfo_redact(char *text);

#endif
