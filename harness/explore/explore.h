/*
 * `claimbench explore`: K workers each make C claims on a queue of J jobs, and every
 * interleaving of their statements (or a seeded sample of them) is run on the real server,
 * one schedule at a time, each from fresh table contents; each schedule's outcome is
 * checked for duplicates, lost and stuck jobs, deadlocks, lock errors, empty claims
 * while a job was claimable and claims out of the queue's order. docs/explore.md says what a step, a block and a schedule are.
 */
#ifndef CLAIMBENCH_EXPLORE_H
#define CLAIMBENCH_EXPLORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/backend.h"
#include "explore/scheduler.h"
#include "explore/trace.h"
#include "model/config.h"

/* What one explore of one strategy and mode is asked. */
struct explore_plan {
	const struct run_config *cfg;		/* the settings: jobs, seed, recovery (lease, reaper, fence), db options */
	const struct backend_ops *db;		/* the real driver */
	const char *target;			/* where to connect */
	struct strategy_choice choice;		/* the strategy and its mode */
	int workers;				/* K, 1..EXPLORE_MAX_WORKERS */
	int claims;				/* C: claims each worker makes */
	int max_steps;				/* the most steps a worker makes in one schedule: the bound */
	long max_schedules;			/* depth-first: stop after this many (the space is then incomplete) */
	long sample;				/* > 0: run this many seeded random schedules instead */
	uint64_t seed;				/* the sample's seed */
	bool crashes;				/* a worker's crash is a choice between any two of its statements
						 * (at most one per schedule) */
	const char *schedule;			/* replay this trace alone, or NULL */
	int show;				/* the kind (explore_kind_of) whose shortest schedule is shown
						 * before any other; -1: the most interesting */
};

/* The kinds of finding of a schedule. */
enum finding {
	FINDING_DUPLICATE,	/* a job executed more than once (metrics: duplicates) */
	FINDING_LOST,		/* a job that should have finished did not (metrics: lost) */
	FINDING_STUCK,		/* a job left active with no worker on it (metrics: stuck) */
	FINDING_ZOMBIE,		/* a completion committed after its job was handed out again */
	FINDING_DEADLOCK,	/* a statement failed with a deadlock (40P01) */
	FINDING_LOCK_ERROR,	/* a statement failed for a lock (55P03 and the like) */
	FINDING_EMPTY,		/* a claim came back empty while a job was claimable */
	FINDING_FIFO,		/* a claim took a job while a lower one was claimable (FIFO by id inverted) */
	FINDING_ERROR,		/* another error (a hang is no finding: it stops the search, exit 3) */
	FINDING_COUNT
};

/* The names of the findings, as in the table and the JSON, indexed by enum finding. */
extern const char *const finding_names[FINDING_COUNT];

/* Whether a finding is a violation of a claim's safety (duplicate, lost, stuck, zombie). */
bool finding_is_violation(enum finding f);

/* What one schedule came to. */
struct schedule_outcome {
	struct trace trace;			/* the choices made */
	uint64_t count[FINDING_COUNT];		/* per kind, how many (jobs, errors, empty claims) */
	bool bounded;				/* a worker reached max_steps: cut, not checked */
	bool blocked;				/* some step was seen blocked in the server */
	uint64_t redeliveries;			/* jobs handed out again after their holder lost them */
	uint64_t fenced;			/* completions refused by the fence */
	struct step_event *events;		/* the events (owned) */
	size_t n_events;			/* entries in events */
};

/* Frees what o holds. */
void schedule_outcome_free(struct schedule_outcome *o);

/* One expectation's verdict, as explore checked it and the result store keeps it. */
struct explore_verdict {
	char source[288];	/* "--expect", or the scenario's "FILE:LINE" */
	char text[128];		/* as written */
	long value;		/* the number of schedules it compared */
	bool holds;		/* it held */
};

/* What an explore of one strategy and mode found. */
struct explore_result {
	const char *strategy;			/* the strategy's name */
	const char *mode;			/* its claim mode's */
	int workers, claims, jobs;		/* K, C, J */
	long explored;				/* schedules run */
	bool complete;				/* every schedule was run (not a sample, no limit hit) */
	bool sampled;				/* a seeded random sample */
	bool interrupted;			/* a signal stopped it */
	bool replayed;				/* the one schedule --schedule named was replayed */
	double estimated;			/* the space's size: exact when complete, else Knuth's estimate */
	long bounded;				/* schedules cut at max_steps */
	long blocked;				/* schedules with a step blocked in the server */
	long with[FINDING_COUNT];		/* schedules with each finding */
	long violating;				/* schedules with any violation (finding_is_violation) */
	long redelivered;			/* schedules in which a job was handed out again after its holder lost it */
	long fenced;				/* schedules in which the fence refused a completion */
	double seconds;				/* wall time */
	struct schedule_outcome shown;		/* the shortest schedule with a violation, else with any finding,
						 * else with a blocked step, else the first; events NULL when none */
	bool shown_violates;			/* shown has a violation */
	bool shown_asked;			/* shown has the kind --show asked for */
	bool crashes;				/* a worker's crash was a choice (the plan's) */
	bool lease_expiry;			/* the leases running out was a choice (flip with a lease) */
	int max_steps;				/* the plan's bound on a worker's statements in a schedule */
	uint64_t seed;				/* the sample's seed (sampled only) */
	struct explore_verdict *verdicts;	/* the expectations' verdicts, in order checked (owned) */
	size_t n_verdicts;			/* entries in verdicts */
};

/*
 * Appends the verdict of the expectation text (from source) to r: value, whether it held;
 * texts cut to their fields' room. 0, or -1 when out of memory.
 */
int explore_result_note(struct explore_result *r, const char *source, const char *text, long value, bool holds);

/* Frees what r holds (its shown events and its verdicts). */
void explore_result_free(struct explore_result *r);

/*
 * Explores plan: makes the run's tables on plan's server, runs the schedules and checks
 * each (until a signal asks to stop: the result is then incomplete), drops the tables. 0
 * with out filled, 1 when plan->schedule does not apply (err says where), -1 with err on a
 * database or environment error.
 */
int explore_one(const struct explore_plan *plan, struct explore_result *out, char *err, size_t errlen);

/* The kinds of an expectation (explore/explore_options.h) beyond the findings: what a schedule may have. */
enum { EXPECT_VIOLATION = 100, EXPECT_BLOCKED, EXPECT_BOUNDED, EXPECT_SCHEDULES, EXPECT_REDELIVERED, EXPECT_FENCED };

/* Whether schedule o has kind (an enum finding or EXPECT_*, as explore_kind_of gives it). */
bool explore_kind_in(int kind, const struct schedule_outcome *o);

#endif
