/* claimbench: a testing and benchmark harness for queue-claiming strategies. */
#include <stdio.h>
#include <string.h>

#include "base/exit_status.h"
#include "cli/invocation.h"
#include "cli/commands.h"
#include "generated/version.h"

/* Prints the top-level usage to out. */
static void print_usage(FILE *out)
{
	fputs("usage: claimbench COMMAND [options]\n"
	      "\n"
	      "commands:\n"
	      "  run        run strategies against a queue table and print the measurements\n"
	      "  list       list the strategies, their claim modes and backends\n"
	      "  history    list the runs in the result store, newest first\n"
	      "  show       print one stored run and the invocation it came from\n"
	      "  export     print one stored run as CSV or JSON\n"
	      "  compare    compare a candidate's runs with a baseline's; exit 1 on a regression\n"
	      "  report     draw charts of stored runs and write report.md and report.html\n"
	      "\n"
	      "  claimbench COMMAND --help   options of a command\n"
	      "  claimbench --version        the version and the git revision it was built from\n",
	      out);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		print_usage(stdout);
		return EXIT_DONE;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("claimbench %s (git %s)\n", CLAIMBENCH_VERSION, CLAIMBENCH_GIT_REVISION);
		return EXIT_DONE;
	}
	if (strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(argv[1], "list") == 0)
		return cmd_list(argc - 1, argv + 1);
	if (strcmp(argv[1], "history") == 0)
		return cmd_history(argc - 1, argv + 1);
	if (strcmp(argv[1], "show") == 0)
		return cmd_show(argc - 1, argv + 1);
	if (strcmp(argv[1], "export") == 0)
		return cmd_export(argc - 1, argv + 1);
	if (strcmp(argv[1], "compare") == 0)
		return cmd_compare(argc - 1, argv + 1);
	if (strcmp(argv[1], "report") == 0)
		return cmd_report(argc - 1, argv + 1);
	fprintf(stderr, "claimbench: unknown command \"%s\"\n", argv[1]);
	print_usage(stderr);
	return EXIT_USAGE;
}
