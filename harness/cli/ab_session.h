/*
 * The runs of `claimbench ab`: two scenarios' invocations run in turn on one database
 * (the throwaway by default, as run's), round after round, each run on fresh tables and
 * stored in the result store as run stores it, each side an invocation of its own.
 */
#ifndef CLAIMBENCH_AB_SESSION_H
#define CLAIMBENCH_AB_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/invocation.h"
#include "engine/run_plan.h"
#include "model/result.h"
#include "run/run_database.h"
#include "run/run_loop.h"

/* One side of the comparison: its scenario's invocation and what its runs measured. */
struct ab_session_side {
	const char *label;		/* "baseline" or "candidate", for messages */
	struct run_invocation *inv;	/* its parsed scenario (the caller's) */
	struct invocation_result result; /* its runs, every round's, in order (results owned) */
	size_t *round;			/* round[i]: the round of result.results[i], from 0 (owned); room for every round's runs */
	struct run_session rs;		/* its invocation in the result store */
};

/* Both sides and the database they share. */
struct ab_session {
	struct ab_session_side sides[2];	/* the baseline and the candidate */
	const struct backend_ops *db;		/* the driver both run on */
	struct run_plan plan;			/* where and how they run */
	struct run_database database;		/* the database both run on: the user's or the throwaway */
	struct store *store;			/* the result store, shared by both sides */
	char host[INVOCATION_HOST_MAX];		/* the machine's name, stored with each side's runs */
};

/*
 * Prepares s for base and cand (parsed with the same --db and --results) and rounds
 * rounds: the database they both name, checked against their groups; the throwaway
 * started when they name none; the store opened; the server described; the scenarios' SQL
 * prepared. EXIT_DONE, or EXIT_USAGE (the scenarios run on different databases, a
 * strategy it cannot run, SQL the server refuses) or EXIT_ENVIRONMENT with err; release s
 * with ab_session_close whatever it returned.
 */
int ab_session_open(struct ab_session *s, struct run_invocation *base, struct run_invocation *cand, size_t rounds,
		    char *err, size_t errlen);

/*
 * Runs round k: baseline then candidate when k is even, candidate then baseline when odd.
 * EXIT_DONE, EXIT_INCOMPLETE (interrupted, a run incomplete) or EXIT_ENVIRONMENT (said on
 * stderr).
 */
int ab_session_round(struct ab_session *s, size_t k);

/*
 * Finishes the store's side: keeps in a JSON file what the store refused (EXIT_ENVIRONMENT
 * then), else EXIT_DONE.
 */
int ab_session_keep(struct ab_session *s);

/* Releases what ab_session_open and the rounds made: the runs, the store, the throwaway. */
void ab_session_close(struct ab_session *s);

#endif
