#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "engine/signals.h"

/* Set by the handler; read by the main thread, which tells the workers. */
static volatile sig_atomic_t interrupted;

/* Notes the signal and nothing else (async-signal-safe). */
static void note_signal(int signo)
{
	(void)signo;
	interrupted = 1;
}

void signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = note_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

bool signals_interrupted(void)
{
	return interrupted != 0;
}
