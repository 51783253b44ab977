/* `claimbench list`: every strategy, what it does, where and how it runs. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "strategy.h"

/* Writes "hold*,flip" style text (the default starred) into buf. */
static void modes_text(const struct strategy_ops *st, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int m = 0; m < MODE_COUNT && used < len; m++) {
		if (!(st->modes & MODE_BIT(m)))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s", used ? "," : "",
					 claim_mode_name((enum claim_mode)m), st->default_mode == (enum claim_mode)m ? "*" : "");
	}
}

/* Writes the backends' names, comma-separated, into buf. */
static void backends_text(const struct strategy_ops *st, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 0; k < BACKEND_COUNT && used < len; k++)
		if (st->backends & BACKEND_BIT(k))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
						 backend_kind_name((enum backend_kind)k));
}

int cmd_list(int argc, char **argv)
{
	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0) {
			printf("usage: claimbench list\n"
			       "Lists every strategy: its name, claim modes (* marks the default), backends and what it does.\n");
			return EXIT_DONE;
		}
		fprintf(stderr, "claimbench list: unexpected argument \"%s\"\n(see claimbench list --help)\n", argv[1]);
		return EXIT_USAGE;
	}
	printf("%-16s %-11s %-20s %s\n", "strategy", "modes", "backends", "what it does");
	for (size_t i = 0; i < strategy_registry_len; i++) {
		const struct strategy_ops *st = strategy_registry[i];
		char modes[32], backends[64];

		modes_text(st, modes, sizeof(modes));
		backends_text(st, backends, sizeof(backends));
		printf("%-16s %-11s %-20s %s\n", st->name, modes, backends, st->summary);
	}
	printf("\n* default claim mode. hold: claim, work and complete in one transaction;\n"
	       "flip: the claim commits a status change and the work runs outside any transaction.\n");
	return EXIT_DONE;
}
