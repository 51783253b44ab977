/*
 * Explore's search over one strategy and mode's schedules (explore.h): depth-first over
 * every choice at every settled point (each schedule replays the last one's prefix by the
 * index of each choice, then takes the next alternative at the deepest point that has one),
 * a seeded random sample, or the replay of one trace; the tally of what the schedules found;
 * and what explore keeps: the findings' names, which of them are violations, a result's
 * verdicts, the freeing of a schedule's outcome and of a strategy's result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "engine/signals.h"
#include "explore/explore.h"
#include "explore/explore_session.h"

const char *const finding_names[FINDING_COUNT] = {
	[FINDING_DUPLICATE] = "duplicate",
	[FINDING_LOST] = "lost",
	[FINDING_STUCK] = "stuck",
	[FINDING_ZOMBIE] = "zombie",
	[FINDING_DEADLOCK] = "deadlock",
	[FINDING_LOCK_ERROR] = "lock-error",
	[FINDING_EMPTY] = "empty-claimable",
	[FINDING_FIFO] = "fifo-inversion",
	[FINDING_ERROR] = "error",
};

bool finding_is_violation(enum finding f)
{
	return f == FINDING_DUPLICATE || f == FINDING_LOST || f == FINDING_STUCK || f == FINDING_ZOMBIE;
}

void schedule_outcome_free(struct schedule_outcome *o)
{
	free(o->events);
	o->events = NULL;
	o->n_events = 0;
}

int explore_result_note(struct explore_result *r, const char *source, const char *text, long value, bool holds)
{
	struct explore_verdict *grown = realloc(r->verdicts, (r->n_verdicts + 1) * sizeof(*grown));
	struct explore_verdict *v;

	if (!grown)
		return -1;
	r->verdicts = grown;
	v = &grown[r->n_verdicts++];
	snprintf(v->source, sizeof(v->source), "%s", source);
	snprintf(v->text, sizeof(v->text), "%s", text);
	v->value = value;
	v->holds = holds;
	return 0;
}

void explore_result_free(struct explore_result *r)
{
	schedule_outcome_free(&r->shown);
	free(r->verdicts);
	r->verdicts = NULL;
	r->n_verdicts = 0;
}

/* How the next schedule's choices are made. */
struct chooser {
	const struct trace *prefix;	/* depth-first: the choices' indices to replay first; NULL: none */
	int prefix_n;			/* how many of prefix's to replay */
	const struct trace *replay;	/* --schedule: the choices to make, all of them; NULL: none */
	uint64_t rng;			/* sample: the random state; 0: take the first choice */
	char *why;			/* where a replay did not apply */
	size_t whylen;			/* room in why */
	bool diverged;			/* a depth-first prefix did not replay as before: the server behaved otherwise */
};

/* The next value of the xorshift64 state *s. */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The choose_fn of a chooser. */
static int choose(void *ctx, int depth, const struct choice *choices, int n)
{
	struct chooser *c = ctx;

	if (c->replay) {
		char offered[128] = "";
		size_t used = 0;
		struct trace one = { .n = 1 };

		if (depth >= c->replay->n) {
			snprintf(c->why, c->whylen, "the schedule goes on after the trace's %d choices", c->replay->n);
			return -1;
		}
		for (int i = 0; i < n; i++)
			if (choice_equal(choices[i], c->replay->at[depth]))
				return i;
		for (int i = 0; i < n && used < sizeof(offered); i++) {
			one.at[0] = choices[i];
			used += (size_t)snprintf(offered + used, sizeof(offered) - used, "%s", i ? " " : "");
			if (used < sizeof(offered))
				trace_format(&one, offered + used, sizeof(offered) - used);
			used = strlen(offered);
		}
		one.at[0] = c->replay->at[depth];
		snprintf(c->why, c->whylen, "choice %d of the trace is not offered there (offered: %s)", depth + 1,
			 offered);
		return -1;
	}
	if (c->prefix && depth < c->prefix_n) {
		int taken = c->prefix->taken[depth];

		/* The last choice of the prefix is the alternative now tried; the ones before, the same again. */
		if (n == c->prefix->options[depth] &&
		    (depth == c->prefix_n - 1 || choice_equal(choices[taken], c->prefix->at[depth])))
			return taken;
		snprintf(c->why, c->whylen, "a schedule did not replay as before: at choice %d it offered %d choices, "
			 "not the %d it offered then, or another one in its place", depth + 1, n,
			 c->prefix->options[depth]);
		c->diverged = true;
		return -1;
	}
	if (c->rng)
		return (int)(next_random(&c->rng) % (uint64_t)n);
	return 0;
}

/* The depth of the deepest choice of t with an alternative left, -1 when none: the space is done. */
static int backtrack_point(const struct trace *t)
{
	for (int d = t->n - 1; d >= 0; d--)
		if (t->taken[d] + 1 < t->options[d])
			return d;
	return -1;
}

/* Whether schedule a made fewer choices than b. */
static bool shorter(const struct schedule_outcome *a, const struct schedule_outcome *b)
{
	return a->trace.n < b->trace.n;
}

/* How interesting o is to show: 3 a violation, 2 another finding or a redelivery or a fenced completion, 1 a blocked step, 0 none. */
static int interest(const struct schedule_outcome *o)
{
	bool finding = o->redeliveries || o->fenced;

	for (int f = 0; f < FINDING_COUNT; f++) {
		if (o->count[f] && finding_is_violation((enum finding)f))
			return 3;
		finding |= o->count[f] > 0;
	}
	return finding ? 2 : o->blocked ? 1 : 0;
}

/* How interesting o is to show: 4 it has the kind asked for (show, -1: none), else as interest says. */
static int interest_in(const struct schedule_outcome *o, int show)
{
	return show >= 0 && explore_kind_in(show, o) ? 4 : interest(o);
}

/*
 * Adds o's findings to r and keeps it as the shown schedule when it is the most
 * interesting (show, a kind asked for first), then shortest; frees it otherwise.
 */
static void tally(struct explore_result *r, struct schedule_outcome *o, int show)
{
	r->explored++;
	if (o->bounded) {
		r->bounded++;
	} else {
		bool violates = false;

		for (int f = 0; f < FINDING_COUNT; f++) {
			r->with[f] += o->count[f] > 0;
			violates |= o->count[f] > 0 && finding_is_violation((enum finding)f);
		}
		r->violating += violates;
		r->redelivered += o->redeliveries > 0;
		r->fenced += o->fenced > 0;
		r->blocked += o->blocked;
	}
	if (!o->bounded &&
	    (!r->shown.events || interest_in(o, show) > interest_in(&r->shown, show) ||
	     (interest_in(o, show) == interest_in(&r->shown, show) && shorter(o, &r->shown)))) {
		schedule_outcome_free(&r->shown);
		r->shown = *o;
		r->shown_violates = explore_kind_in(EXPECT_VIOLATION, o);
		r->shown_asked = show >= 0 && explore_kind_in(show, o);
		o->events = NULL;
	}
	schedule_outcome_free(o);
}

/* Knuth's estimate of the number of schedules from one random walk's trace: the product of its branchings. */
static double walk_size(const struct trace *t)
{
	double size = 1;

	for (int d = 0; d < t->n; d++)
		size *= t->options[d];
	return size;
}

int explore_one(const struct explore_plan *plan, struct explore_result *out, char *err, size_t errlen)
{
	struct explore_session x;
	struct trace last = { 0 }, replay;
	struct chooser c = { .why = err, .whylen = errlen };
	int64_t start = clock_now_ns();
	double walks = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->strategy = plan->choice.ops->name;
	out->mode = claim_mode_name(plan->choice.mode);
	out->workers = plan->workers;
	out->claims = plan->claims;
	out->jobs = (int)plan->cfg->jobs;
	out->sampled = plan->sample > 0 && !plan->schedule;
	out->crashes = plan->crashes;
	out->lease_expiry = plan->choice.mode == MODE_FLIP && plan->cfg->recovery.lease_ms > 0;
	out->max_steps = plan->max_steps;
	out->seed = plan->seed;
	if (plan->schedule && trace_parse(plan->schedule, &replay, err, errlen) < 0)
		return 1;
	if (explore_session_open(&x, plan, err, errlen) < 0)
		return -1;
	c.replay = plan->schedule ? &replay : NULL;
	c.rng = out->sampled ? (plan->seed ? plan->seed : 0x9e3779b97f4a7c15ULL) : 0;
	for (;;) {
		struct schedule_outcome o;

		rc = explore_session_run(&x, choose, &c, &o, err, errlen);
		if (signals_interrupted()) {
			schedule_outcome_free(&o);
			out->interrupted = true;
			rc = 0;
			break;
		}
		if (rc != 0) {
			schedule_outcome_free(&o);
			if (c.diverged)
				rc = -1;
			break;
		}
		if (c.replay && o.trace.n < replay.n) {
			snprintf(err, errlen, "the schedule ended after %d of the trace's %d choices", o.trace.n, replay.n);
			schedule_outcome_free(&o);
			rc = 1;
			break;
		}
		last = o.trace;
		walks += walk_size(&o.trace);
		tally(out, &o, plan->show);
		if (c.replay)
			break;
		if (signals_interrupted()) {
			out->interrupted = true;
			break;
		}
		if (out->sampled) {
			if (out->explored >= plan->sample)
				break;
			continue;
		}
		int d = backtrack_point(&last);

		if (d < 0) {
			out->complete = true;
			break;
		}
		if (out->explored >= plan->max_schedules)
			break;
		last.taken[d]++;
		c.prefix = &last;
		c.prefix_n = d + 1;
	}
	out->estimated = out->complete ? (double)out->explored : out->explored ? walks / (double)out->explored : 0;
	if (c.replay) {
		out->complete = false;
		out->replayed = !out->interrupted;
	}
	out->seconds = (double)(clock_now_ns() - start) / 1e9;
	explore_session_close(&x);
	return rc;
}

bool explore_kind_in(int kind, const struct schedule_outcome *o)
{
	bool violates = false;

	for (int f = 0; f < FINDING_COUNT; f++)
		violates |= o->count[f] && finding_is_violation((enum finding)f);
	switch (kind) {
	case EXPECT_VIOLATION:
		return violates;
	case EXPECT_BLOCKED:
		return o->blocked;
	case EXPECT_BOUNDED:
		return o->bounded;
	case EXPECT_SCHEDULES:
		return true;
	case EXPECT_REDELIVERED:
		return o->redeliveries > 0;
	case EXPECT_FENCED:
		return o->fenced > 0;
	default:
		return kind >= 0 && kind < FINDING_COUNT && o->count[kind] > 0;
	}
}
