/* Ctrl-C and SIGTERM: noted, never acted on in the handler, so what was measured is kept. */
#ifndef CLAIMBENCH_SIGNALS_H
#define CLAIMBENCH_SIGNALS_H

#include <stdbool.h>

/*
 * Installs handlers for SIGINT, SIGTERM and SIGHUP that only note the signal, and ignores
 * SIGPIPE (a closed output pipe then fails the write instead of killing the process), so
 * that the throwaway database is always removed.
 */
void signals_install(void);

/* True once SIGINT, SIGTERM or SIGHUP has arrived. */
bool signals_interrupted(void);

#endif
