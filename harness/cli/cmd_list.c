/* `claimbench list`: every strategy, what it does, and the claim modes it offers on each backend. */
#include <stdio.h>
#include <string.h>

#include "base/exit_status.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "engine/strategy.h"

/* Writes "hold*,flip" style text (the default starred) into buf, or "-" when st cannot run on db. */
static void modes_text(const struct strategy_ops *st, const struct backend_ops *db, char *buf, size_t len)
{
	size_t used = 0;

	snprintf(buf, len, "-");
	if (!strategy_runs_on(st, db))
		return;
	for (int m = 0; m < MODE_COUNT && used < len; m++) {
		if (!(st->modes & MODE_BIT(m)))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s", used ? "," : "",
					 claim_mode_name((enum claim_mode)m), st->default_mode == (enum claim_mode)m ? "*" : "");
	}
}

/* Prints each strategy's own options, under its name. */
static void print_strategy_options(void)
{
	printf("\nstrategy options (claimbench run takes them; a value sets every strategy that has the option):\n");
	for (size_t i = 0; i < strategy_registry_len; i++) {
		const struct strategy_ops *st = strategy_registry[i];

		if (!st->options || !st->options->name)
			continue;
		printf(" %s:\n", st->name);
		for (const struct option_def *o = st->options; o->name; o++)
			option_print(stdout, o);
	}
}

int cmd_list(int argc, char **argv)
{
	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0) {
			command_print_usage(command_find("list"), NULL, stdout);
			return EXIT_DONE;
		}
		fprintf(stderr, "claimbench list: unexpected argument \"%s\"\n(see claimbench list --help)\n", argv[1]);
		return EXIT_USAGE;
	}
	printf("%-16s", "strategy");
	for (int k = 0; k < BACKEND_COUNT; k++)
		printf(" %-11s", backend_registry[k]->name);
	printf(" %s\n", "what it does");
	for (size_t i = 0; i < strategy_registry_len; i++) {
		const struct strategy_ops *st = strategy_registry[i];
		char modes[32];

		printf("%-16s", st->name);
		for (int k = 0; k < BACKEND_COUNT; k++) {
			modes_text(st, backend_registry[k], modes, sizeof(modes));
			printf(" %-11s", modes);
		}
		printf(" %s\n", st->summary);
	}
	printf("\n* default claim mode, - cannot run on that backend. hold: claim, work and complete in one\n"
	       "transaction; flip: the claim commits a status change and the work runs outside any transaction.\n");
	print_strategy_options();
	return EXIT_DONE;
}
