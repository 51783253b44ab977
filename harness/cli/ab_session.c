/* The runs of `claimbench ab` (ab_session.h): one database, two invocations in turn. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/exit_status.h"
#include "cli/ab_session.h"
#include "engine/signals.h"
#include "generated/version.h"

/* Whether optional texts a and b are equal, NULL equal only to NULL. */
static bool same_text(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

/*
 * Checks that the sides' first groups name one database (--db or the scenarios' own
 * key) and ask for no standby, then each side's groups against its driver. 0, or -1 with err.
 */
static int check_database(struct ab_session *s, char *err, size_t errlen)
{
	const struct run_config *base = &s->sides[0].inv->groups[0], *cand = &s->sides[1].inv->groups[0];

	if (base->backend != cand->backend || !same_text(base->target, cand->target)) {
		snprintf(err, errlen, "the baseline and the candidate name different databases: both must run on one "
			 "server (give --db, or no db key in either scenario)");
		return -1;
	}
	s->db = invocation_backend(s->sides[0].inv, err, errlen);
	if (!s->db)
		return -1;
	for (int i = 0; i < 2; i++) {
		for (size_t g = 0; g < s->sides[i].inv->n_groups; g++) {
			if (s->sides[i].inv->groups[g].faults.standby != STANDBY_NONE) {
				snprintf(err, errlen, "--standby: ab runs both sides on one server and makes no standby; "
					 "compare replication modes with claimbench run");
				return -1;
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (invocation_check_on(s->sides[i].inv, s->db, err, errlen) < 0)
			return -1;
	return 0;
}

/* Allocates side's room for rounds rounds of its runs and fills its store context. 0, or -1 with err. */
static int prepare_side(struct ab_session_side *side, struct ab_session *s, size_t rounds, char *err,
			size_t errlen)
{
	struct run_invocation *inv = side->inv;
	size_t runs = count_runs(inv->groups, inv->n_groups) * rounds;

	side->result.results = calloc(runs + 1, sizeof(*side->result.results));
	side->round = calloc(runs + 1, sizeof(*side->round));
	if (!side->result.results || !side->round) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	side->result.version = CLAIMBENCH_VERSION;
	side->result.scenario = inv->groups[0].scenario;
	side->result.backend = s->db->name;
	side->result.seed = inv->groups[0].seed;
	side->rs = (struct run_session){ .report = &side->result, .store = s->store,
				     .params_fill = invocation_params_fill };
	side->rs.ctx = invocation_store_context(inv, "ab", s->host);
	return 0;
}

/* Opens the database both sides run on: the throwaway, or the user's (an SQLite file noted first). 0, or -1 with err. */
static int open_database(struct ab_session *s, char *err, size_t errlen)
{
	const struct run_config *cfg = &s->sides[0].inv->groups[0];
	int connections = invocation_connections(s->sides[0].inv), cand = invocation_connections(s->sides[1].inv);

	return run_database_open(&s->database, &s->plan, connections > cand ? connections : cand, false, !cfg->backend,
				 err, errlen);
}

int ab_session_open(struct ab_session *s, struct run_invocation *base, struct run_invocation *cand, size_t rounds,
		    char *err, size_t errlen)
{
	const struct run_config *cfg = &base->groups[0];
	int status;

	memset(s, 0, sizeof(*s));
	s->sides[0] = (struct ab_session_side){ .label = "baseline", .inv = base };
	s->sides[1] = (struct ab_session_side){ .label = "candidate", .inv = cand };
	if (check_database(s, err, errlen) < 0)
		return EXIT_USAGE;
	if (run_database_prepare(&s->database, s->db, cfg->target, false, err, errlen) < 0)
		return EXIT_ENVIRONMENT;
	if (store_open(base->settings.results, &s->store, err, errlen) < 0)
		return EXIT_ENVIRONMENT;
	if (signals_install(err, errlen) < 0)
		return EXIT_ENVIRONMENT;
	for (int i = 0; i < 2; i++)
		if (prepare_side(&s->sides[i], s, rounds, err, errlen) < 0)
			return EXIT_ENVIRONMENT;
	if (open_database(s, err, errlen) < 0)
		return EXIT_ENVIRONMENT;
	for (int i = 0; i < 2; i++) {
		if (describe_server(&s->sides[i].result, s->db, s->plan.target, &cfg->db_opts, err, errlen) < 0)
			return EXIT_ENVIRONMENT;
		s->plan.trust_scenario = s->sides[i].inv->settings.trust_scenario;
		status = check_defined_statements(s->sides[i].inv->groups, s->sides[i].inv->n_groups, &s->plan, err, errlen);
		if (status != EXIT_DONE)
			return signals_interrupted() ? EXIT_INCOMPLETE : status;
	}
	return EXIT_DONE;
}

/* Runs side's groups once, as round k. EXIT_DONE, EXIT_INCOMPLETE or EXIT_ENVIRONMENT. */
static int run_side(struct ab_session *s, struct ab_session_side *side, size_t k)
{
	size_t before = side->result.n_results;
	int status;

	s->plan.trust_scenario = side->inv->settings.trust_scenario;
	status = run_groups(side->inv->groups, side->inv->n_groups, &s->plan, &side->rs);
	side->result.invocation_id = side->rs.stored.invocation_id;
	for (size_t i = before; i < side->result.n_results; i++)
		side->round[i] = k;
	return status;
}

int ab_session_round(struct ab_session *s, size_t k)
{
	int status = EXIT_DONE;

	for (int turn = 0; turn < 2 && status == EXIT_DONE; turn++) {
		struct ab_session_side *side = &s->sides[k % 2 ? 1 - turn : turn];

		fprintf(stderr, "claimbench ab: round %zu, %s\n", k + 1, side->label);
		status = run_side(s, side, k);
	}
	return status;
}

int ab_session_keep(struct ab_session *s)
{
	int status = EXIT_DONE;

	for (int i = 0; i < 2; i++)
		if (s->sides[i].rs.unstored &&
		    keep_unstored(&s->sides[i].rs, s->sides[i].inv->settings.results) != EXIT_DONE)
			status = EXIT_ENVIRONMENT;
	return status;
}

void ab_session_close(struct ab_session *s)
{
	for (int i = 0; i < 2; i++) {
		for (size_t r = 0; r < s->sides[i].result.n_results; r++)
			run_result_free(&s->sides[i].result.results[r]);
		free(s->sides[i].result.results);
		free(s->sides[i].round);
	}
	store_close(s->store);
	run_database_close(&s->database);
	memset(s, 0, sizeof(*s));
}
