/* Ctrl-C and SIGTERM: noted, never acted on in the handler, so what was measured is kept. */
#ifndef CLAIMBENCH_SIGNALS_H
#define CLAIMBENCH_SIGNALS_H

#include <stdbool.h>

/* Installs handlers for SIGINT and SIGTERM that only note the signal. */
void signals_install(void);

/* True once SIGINT or SIGTERM has arrived. */
bool signals_interrupted(void);

#endif
