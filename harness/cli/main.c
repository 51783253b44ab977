/* claimbench: a testing and benchmark harness for queue-claiming strategies. */
#include <stdio.h>
#include <string.h>

#include "base/exit_status.h"
#include "cli/commands.h"
#include "cli/secrets.h"
#include "generated/version.h"

/* Prints the top-level usage, made from the command table, to out. */
static void print_usage(FILE *out)
{
	fputs("usage: claimbench COMMAND [options]\n\ncommands:\n", out);
	for (const struct command *c = commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fputs("\n"
	      "  claimbench COMMAND --help   options of a command\n"
	      "  claimbench --version        the version and the git revision it was built from\n",
	      out);
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (secrets_hide_argv(argc, argv) < 0) {
		fprintf(stderr, "claimbench: out of memory\n");
		return EXIT_ENVIRONMENT;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		print_usage(stdout);
		return EXIT_DONE;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("claimbench %s (git %s)\n", CLAIMBENCH_VERSION, CLAIMBENCH_GIT_REVISION);
		return EXIT_DONE;
	}
	c = command_find(argv[1]);
	if (c)
		return c->run(argc - 1, argv + 1);
	fprintf(stderr, "claimbench: unknown command \"%s\"\n", argv[1]);
	print_usage(stderr);
	return EXIT_USAGE;
}
