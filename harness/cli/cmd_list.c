/*
 * `claimbench list`: every strategy, what it does, and the claim modes it offers on each
 * backend; `claimbench list metrics`: every metric of the metric table, as the Markdown
 * table docs/metric-list.md is generated from; `claimbench list guards`: every guard of the
 * guarded-resource workloads, the workloads it guards and the backends it runs on;
 * `claimbench list backends`: every backend of the registry (one per harness/db/NAME/).
 */
#include <stdio.h>
#include <string.h>

#include "base/exit_status.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/option_table.h"
#include "plugin/guard.h"
#include "plugin/strategy.h"
#include "model/metric_table.h"

/* Prints every guard: its name, the workloads it guards, where it runs ("-" where not, and why under the table). */
static void print_guards(void)
{
	printf("%-17s %-30s", "guard", "workloads");
	for (size_t k = 0; k < backend_registry_len; k++)
		printf(" %-11s", backend_registry[k]->name);
	printf(" %s\n", "what it does");
	for (size_t i = 0; i < guard_registry_len; i++) {
		const struct guard_ops *g = guard_registry[i];
		char workloads[64] = "";
		size_t used = 0;

		for (int w = 1; w < WORKLOAD_COUNT; w++)
			if (g->workloads & WORKLOAD_BIT(w))
				used += (size_t)snprintf(workloads + used, sizeof(workloads) - used, "%s%s", used ? "," : "",
							 workload_name((enum workload)w));
		printf("%-17s %-30s", g->name, workloads);
		for (size_t k = 0; k < backend_registry_len; k++)
			printf(" %-11s", guard_runs_on(g, backend_registry[k]) ? "yes" : "-");
		printf(" %s\n", g->summary);
	}
	printf("\n- cannot run on that backend:\n");
	for (size_t i = 0; i < guard_registry_len; i++)
		for (size_t k = 0; k < backend_registry_len; k++)
			if (!guard_runs_on(guard_registry[i], backend_registry[k])) {
				char why[256];

				guard_refusal(guard_registry[i], backend_registry[k], why, sizeof(why));
				printf("  %s on %s: %s\n", guard_registry[i]->name, backend_registry[k]->name, why);
			}
	printf("\n- wait limits counted coarser than a millisecond:\n");
	for (size_t i = 0; i < guard_registry_len; i++)
		for (size_t k = 0; k < backend_registry_len; k++) {
			const struct guard_wait_unit *unit = &guard_registry[i]->wait_limit_unit[backend_registry[k]->dialect];

			if (unit->ms > 0 && guard_runs_on(guard_registry[i], backend_registry[k]))
				printf("  %s on %s: --wait-limit-ms a multiple of %d (%s)\n", guard_registry[i]->name,
				       backend_registry[k]->name, unit->ms, unit->why);
		}
	printf("\nRun one with claimbench run --workload W --guard NAME (docs/guarded.md).\n");
}

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

/* Words for which way of metric m compare counts as better, and what guards it. */
static const char *compare_words(const struct metric *m)
{
	static const char *const guarded[] = {
		[GUARD_NONE] = "",
		[GUARD_THROUGHPUT] = ", guarded by --throughput-drop",
		[GUARD_JAIN] = ", guarded by --jain-drop",
		[GUARD_DUPLICATES] = ", guarded: any where the baseline had none",
		[GUARD_LOSSES] = ", guarded: any where the baseline had none",
		[GUARD_EXCLUSION] = ", guarded: any where the baseline had none",
	};
	static char buf[96];

	if (m->direction == NOT_COMPARED)
		return "not compared";
	snprintf(buf, sizeof(buf), "%s is better%s", m->direction == HIGHER_IS_BETTER ? "higher" : "lower",
		 guarded[m->guard]);
	return buf;
}

/* Prints every metric as a Markdown table: path, column, table cell, summary, compare, definition. */
static void print_metrics(void)
{
	static const char *const where[] = {
		[CELL_MAIN] = "",
		[CELL_MAIN_IF_ANY] = " (when a run has any)",
		[CELL_MAIN_IF_ARRIVALS] = " (when a run has arrivals)",
		[CELL_ASIDE] = " (faults table)",
		[CELL_SERVER] = " (server table)",
		[CELL_GUARD] = " (guarded-resources table)",
	};

	static const char *const natures[] = {
		[NATURE_OUTCOME] = "outcome",
		[NATURE_TIMING] = "timing",
		[NATURE_COST] = "cost",
	};

	printf("<!-- Generated by `claimbench list metrics` from harness/model/metric_table.c: do not edit. -->\n"
	       "# Every metric\n\n"
	       "Each metric's path (its name in JSON, expectations and `compare`), its CSV and result-store\n"
	       "column, its column in the terminal table (header and unit), whether the repetitions' summary\n"
	       "covers it, how `compare` judges it, its nature (an outcome: what happened; a timing: a time or\n"
	       "a rate, which the machine's load moves; a cost: work counted per job, stable from run to run)\n"
	       "and what it is. [metrics.md](metrics.md) defines each in full.\n\n"
	       "| path | column | table | summarised | compare | nature | what it is |\n"
	       "|---|---|---|---|---|---|---|\n");
	for (const struct metric *m = metric_table; m < metric_table + metric_table_len; m++) {
		printf("| `%s` | `%s` | ", m->path, m->column);
		if (m->cell.header)
			printf("`%s`%s%s%s", m->cell.header, *m->cell.unit ? " " : "", m->cell.unit, where[m->cell.place]);
		else
			printf("-");
		printf(" | %s | %s | %s | %s |\n", m->summarised ? "yes" : "no", compare_words(m), natures[m->nature],
		       m->definition);
	}
}

/* The names of the capabilities a backend may have (enum backend_cap), by bit, as `list backends` prints them. */
static const char *const cap_names[] = {
	"row-locks", "nowait", "skip-locked", "advisory-locks", "listen-notify", "server", "failover", "vacuum",
	"timeouts", "isolation", "pooler",
};

/*
 * Prints every backend: its name, how --db selects it, the dialect of SQL it speaks (a copy
 * of a backend speaks its original's), whether it has a throwaway, its capabilities.
 */
static void print_backends(void)
{
	printf("%-11s %-24s %-11s %-10s %s\n", "backend", "--db", "dialect", "throwaway", "capabilities");
	for (size_t k = 0; k < backend_registry_len; k++) {
		const struct backend_ops *db = backend_registry[k];
		char caps[256] = "";
		size_t used = 0;

		for (size_t c = 0; c < sizeof(cap_names) / sizeof(cap_names[0]) && used < sizeof(caps); c++)
			if (db->caps & (1u << c))
				used += (size_t)snprintf(caps + used, sizeof(caps) - used, "%s%s", used ? "," : "",
							 cap_names[c]);
		printf("%-11s %-24s %-11s %-10s %s\n", db->name, db->target_form, sql_dialect_names[db->dialect],
		       db->throwaway ? "yes" : "-", used ? caps : "-");
	}
	printf("\nEach is the folder harness/db/NAME/ (docs/extending.md, \"A backend\").\n");
}

int cmd_list(int argc, char **argv)
{
	size_t name_width = strlen("strategy");	/* the strategy column: its longest name */

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "metrics") != 0 && strcmp(argv[1], "guards") != 0 &&
			  strcmp(argv[1], "backends") != 0)) {
		if (argc == 2 && strcmp(argv[1], "--help") == 0) {
			command_print_usage(command_find("list"), NULL, stdout);
			return EXIT_DONE;
		}
		fprintf(stderr, "claimbench list: unexpected argument \"%s\" (list takes none, \"metrics\", \"guards\" or "
			"\"backends\")\n"
			"(see claimbench list --help)\n", argv[argc - 1]);
		return EXIT_USAGE;
	}
	if (argc == 2 && strcmp(argv[1], "guards") == 0) {
		print_guards();
		return EXIT_DONE;
	}
	if (argc == 2 && strcmp(argv[1], "backends") == 0) {
		print_backends();
		return EXIT_DONE;
	}
	if (argc == 2) {
		print_metrics();
		return EXIT_DONE;
	}
	for (size_t i = 0; i < strategy_registry_len; i++)
		if (strlen(strategy_registry[i]->name) > name_width)
			name_width = strlen(strategy_registry[i]->name);
	printf("%-*s", (int)name_width, "strategy");
	for (size_t k = 0; k < backend_registry_len; k++)
		printf(" %-11s", backend_registry[k]->name);
	printf(" %s\n", "what it does");
	for (size_t i = 0; i < strategy_registry_len; i++) {
		const struct strategy_ops *st = strategy_registry[i];
		char modes[32];

		printf("%-*s", (int)name_width, st->name);
		for (size_t k = 0; k < backend_registry_len; k++) {
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
