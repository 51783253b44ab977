/*
 * `claimbench run`: the command. It parses and checks the invocation (invocation.c), makes
 * the database ready (a throwaway or the user's), hands the groups to the run loop
 * (run/run_loop.h), prints the results and says the exit status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exit_status.h"
#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/section_select.h"
#include "db/pooler.h"
#include "engine/signals.h"
#include "generated/version.h"
#include "output/results_print.h"
#include "run/run_database.h"
#include "run/run_loop.h"
#include "store/store.h"

/* Whether --verify, or the ledger-versus-table check, found a difference in a run of r. */
static bool verify_failed(const struct invocation_result *r)
{
	for (size_t i = 0; i < r->n_results; i++)
		if (r->results[i].verify.n_diffs)
			return true;
	return false;
}

/* Whether name is among the n names. */
static bool name_in(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/*
 * Prints r in the asked format on stdout, with the repeat summaries and the expectations'
 * verdicts (SKIP for those naming what the backend left out).
 */
static bool print_results(const struct run_invocation *inv, const struct invocation_result *r)
{
	const struct run_config *cfg = &inv->groups[0];
	const char *left_out[MAX_STRATEGIES];
	size_t n_left_out = 0;
	FILE *verdicts = cfg->format == FORMAT_TABLE ? stdout : stderr;
	bool all_pass;

	if (cfg->format == FORMAT_JSON)
		results_print_json(stdout, r);
	else if (cfg->format == FORMAT_CSV)
		results_print_csv(stdout, r);
	else
		results_print_table(stdout, r);
	if (cfg->format == FORMAT_TABLE)
		summary_print_table(stdout, r);
	for (size_t g = 0; g < inv->n_groups; g++)
		for (size_t i = 0; i < inv->groups[g].n_left_out && n_left_out < MAX_STRATEGIES; i++)
			if (!name_in(left_out, n_left_out, inv->groups[g].left_out[i]))
				left_out[n_left_out++] = inv->groups[g].left_out[i];
	all_pass = verdicts_print(verdicts, inv->expects, inv->n_expects, r, left_out, n_left_out);
	fflush(stdout);
	return all_pass;
}

/*
 * Says on stderr which invocation and runs of the store at path hold r, and how to name
 * them: nothing when none was stored.
 */
static void announce_stored(const struct invocation_result *r, const char *path)
{
	long long first = 0, last = 0, stored = 0;

	for (size_t i = 0; i < r->n_results; i++) {
		if (!r->results[i].run_id)
			continue;
		first = first ? first : r->results[i].run_id;
		last = r->results[i].run_id;
		stored++;
	}
	if (!r->invocation_id || !first)
		return;
	fprintf(stderr, "claimbench: stored in %s as invocation %lld, ", path, r->invocation_id);
	if (stored == 1)
		fprintf(stderr, "run %lld", first);
	else
		fprintf(stderr, "%s%lld runs from %lld to %lld", last - first + 1 == stored ? "" : "not consecutive: ",
			stored, first, last);
	fprintf(stderr, " (claimbench report inv:%lld; claimbench compare --last)\n", r->invocation_id);
}

/* Whether a group of inv asks for a standby of the throwaway server (--standby). */
static bool wants_standby(const struct run_invocation *inv)
{
	for (size_t g = 0; g < inv->n_groups; g++)
		if (inv->groups[g].faults.standby != STANDBY_NONE)
			return true;
	return false;
}

/* Whether a group of inv runs through a pooler. */
static bool uses_pooler(const struct run_invocation *inv)
{
	for (size_t g = 0; g < inv->n_groups; g++)
		if (inv->groups[g].pooler != POOLER_NONE)
			return true;
	return false;
}

int cmd_run(int argc, char **argv)
{
	static struct run_invocation inv;
	static struct run_database database;
	struct invocation_result r = { .version = CLAIMBENCH_VERSION };
	const struct backend_ops *db;
	struct run_plan plan = { .cfg = NULL };
	struct run_session rs = { .report = &r, .params_fill = invocation_params_fill };
	char host[INVOCATION_HOST_MAX];
	const struct run_config *cfg;
	size_t left_out = 0;
	char err[1024];
	int status = EXIT_ENVIRONMENT;

	switch (invocation_parse(command_options, COMMAND_RUN, NULL, argc, argv, &inv, err, sizeof(err))) {
	case INVOCATION_HELP:
		invocation_free(&inv);
		return EXIT_DONE;
	case INVOCATION_ERROR:
		fprintf(stderr, "claimbench run: %s\n(see claimbench run --help)\n", err);
		invocation_free(&inv);
		return EXIT_USAGE;
	case INVOCATION_RUN:
		break;
	}
	if (inv.settings.sections && section_select(&inv, inv.settings.sections, &left_out, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n(see claimbench run --help)\n", err);
		invocation_free(&inv);
		return EXIT_USAGE;
	}
	if (left_out)
		fprintf(stderr, "claimbench run: --section: %zu expectation%s of [expect] left out: %s runs of the "
			"sections left out\n", left_out, left_out == 1 ? "" : "s", left_out == 1 ? "it needs" : "they need");
	cfg = &inv.groups[0];
	db = invocation_backend(&inv, err, sizeof(err));
	if (!db) {
		fprintf(stderr, "claimbench run: %s\n", err);
		goto out_free;
	}
	plan.db = db;
	if (invocation_check_on(&inv, db, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n", err);
		status = EXIT_USAGE;
		goto out_free;
	}
	if (run_database_prepare(&database, db, cfg->target, uses_pooler(&inv), err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n", err);
		goto out_free;
	}
	if (uses_pooler(&inv)) {
		if (pooler_open(&database.throwaway.pooler, &database.throwaway.wd, err, sizeof(err)) < 0) {
			fprintf(stderr, "claimbench run: %s\n", err);
			goto out_release;
		}
		plan.pooler = &database.throwaway.pooler;
	}
	if (store_open(inv.settings.results, &rs.store, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: cannot open the result store: %s\n(choose another with --results)\n",
			err);
		goto out_release;
	}
	rs.ctx = invocation_store_context(&inv, "run", host);
	if (signals_install(err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n", err);
		goto out_close;
	}
	r.scenario = cfg->scenario;
	r.backend = db->name;
	r.seed = cfg->seed;
	r.results = calloc(count_runs(inv.groups, inv.n_groups), sizeof(*r.results));
	if (!r.results) {
		fprintf(stderr, "claimbench run: out of memory\n");
		goto out_close;
	}
	plan.trust_scenario = inv.settings.trust_scenario;
	if (run_database_open(&database, &plan, invocation_connections(&inv), wants_standby(&inv), !cfg->backend, err,
			      sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n", err);
		goto out_stop;
	}
	if (describe_server(&r, db, plan.target, &cfg->db_opts, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench run: %s\n", err);
		goto out_stop;
	}
	status = check_defined_statements(inv.groups, inv.n_groups, &plan, err, sizeof(err));
	if (status != EXIT_DONE) {
		fprintf(stderr, "claimbench run: %s%s\n", signals_interrupted() ? "interrupted: " : "", err);
		status = signals_interrupted() ? EXIT_INCOMPLETE : status;
		goto out_stop;
	}
	status = run_groups(inv.groups, inv.n_groups, &plan, &rs);
	r.invocation_id = rs.stored.invocation_id;
	if (r.n_results && !print_results(&inv, &r) && status == EXIT_DONE)
		status = EXIT_EXPECTATION;
	if (verify_failed(&r) && (status == EXIT_DONE || status == EXIT_EXPECTATION)) {
		fprintf(stderr, "claimbench: the ledger and the server's record disagree (--verify), or the ledger and the "
			"table's final state with nothing to explain it (see above)\n");
		status = EXIT_VERIFY;
	}
	announce_stored(&r, inv.settings.results);
	if (status == EXIT_INCOMPLETE)
		fprintf(stderr, "claimbench: results incomplete%s\n",
			signals_interrupted() ? " (interrupted)" : " (a worker aborted, or the run could not progress)");
	if (rs.unstored && keep_unstored(&rs, inv.settings.results) != EXIT_DONE && status != EXIT_INCOMPLETE)
		status = EXIT_ENVIRONMENT;
out_stop:
	for (size_t i = 0; i < r.n_results; i++)
		run_result_free(&r.results[i]);
	free(r.results);
out_close:
	store_close(rs.store);
out_release:
	run_database_close(&database);
out_free:
	invocation_free(&inv);
	return status;
}
