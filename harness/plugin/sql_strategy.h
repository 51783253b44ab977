/*
 * Strategies a scenario file defines in SQL alone (a [strategy NAME] section): a claim
 * statement, and optionally complete and fail statements, with named parameters
 * (:queue, :worker, :id, :attempt) the harness fills. Each definition becomes one
 * strategy_ops of its own (strategies/sql_defined.c), run beside the built-in ones with
 * the same accounting. Built once, before any run starts; read-only after.
 */
#ifndef CLAIMBENCH_SQL_STRATEGY_H
#define CLAIMBENCH_SQL_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>

#include "plugin/strategy.h"

/* The statements a definition may give, in the order of their slots. */
enum sql_role {
	SQL_ROLE_CLAIM,		/* takes one job: returns its id (and its attempts when it marks it active itself) */
	SQL_ROLE_COMPLETE,	/* marks the claim's job done: returns one row when it did, none when fenced */
	SQL_ROLE_FAIL,		/* marks the claim's job failed: the same */
	SQL_ROLE_COUNT
};

/* What a named parameter stands for. */
enum sql_param {
	SQL_PARAM_QUEUE,	/* :queue, the worker's task class (claim only) */
	SQL_PARAM_WORKER,	/* :worker, the worker's identity, what claimed_by holds */
	SQL_PARAM_ID,		/* :id, the job in hand (complete and fail) */
	SQL_PARAM_ATTEMPT,	/* :attempt, the attempt number its claim gave it (complete and fail) */
	SQL_PARAM_COUNT
};

/* Longest statement of a definition, as written and as translated. */
#define SQL_DEFINED_MAX 1536

/* Longest "file:line: claim of strategy NAME" origin of a statement. */
#define SQL_ORIGIN_MAX 320

/* One statement of a definition. */
struct sql_defined_statement {
	char written[SQL_DEFINED_MAX];			/* the text as the scenario wrote it, kept with the results */
	char sql[SQL_DEFINED_MAX];			/* the text with :names turned into $1..$n */
	char origin[SQL_ORIGIN_MAX];			/* where it was written: "file:line: claim of strategy NAME" */
	enum sql_param params[SQL_PARAM_COUNT];	/* what $1..$nparams stand for, in order */
	int nparams;					/* parameters used */
	bool given;					/* the definition has this statement */
};

/* One strategy defined in SQL. ops comes first: the claim hook finds the definition from it. */
struct sql_strategy {
	struct strategy_ops ops;				/* what the harness runs; its strings point into this struct */
	char name[64];						/* its name, as the scenario's cases write it */
	char summary[160];					/* its summary line */
	struct sql_defined_statement roles[SQL_ROLE_COUNT];	/* its statements, by role */
	struct strategy_statement statements[SQL_ROLE_COUNT];	/* those given, as the harness prepares them */
	const char *origins[SQL_ROLE_COUNT];			/* per entry of statements, its origin */
	struct result_contract contracts[SQL_ROLE_COUNT];	/* per entry of statements, what its result must hold */
	bool claim_marks;					/* its claim writes :worker: it marks the job active itself */
};

/* The definition st was built from, or NULL when st is not a strategy defined in SQL. */
const struct sql_strategy *sql_strategy_of(const struct strategy_ops *st);

/* The parameters a statement of role may use: SQL_PARAM bits. */
unsigned sql_role_params(enum sql_role role);

/* The name of role as a scenario key ("claim"). */
const char *sql_role_key(enum sql_role role);

/*
 * Sets role's statement of def from text as written: {jobs}, {now}, {claimable},
 * {unfinished} and {lease_until} are left for the run to fill, :queue, :worker, :id and
 * :attempt become $1..$n in the order they first appear (quoted text, "identifiers",
 * comments and :: casts are left alone). origin says where it was written. 0, or -1 with
 * err when a placeholder is unknown, not one role may use, or the text too long.
 */
int sql_strategy_set(struct sql_strategy *def, enum sql_role role, const char *text, const char *origin, char *err,
		     size_t errlen);

/*
 * Fills def->ops once its name, summary and statements are set: it runs on the dialects
 * of dialect_bits, in the modes of mode_bits (flip by default when it is one of them, as
 * the seed 002 claim it models; else hold), and needs of a session what session_needs
 * says (SESSION_NEEDS_* bits; SESSION_NEEDS_PREPARED always, the harness prepares its
 * statements). def must not move afterwards.
 */
void sql_strategy_finish(struct sql_strategy *def, unsigned dialect_bits, unsigned mode_bits,
			 unsigned session_needs);

#endif
