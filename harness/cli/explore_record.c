/* An explore's result as the result store keeps it, and back; see explore_record.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/explore_kinds.h"
#include "cli/explore_print.h"
#include "cli/explore_record.h"

int explore_record_make(const struct explore_plan *plan, const struct explore_result *r, struct explore_record *rec)
{
	struct store_explore *x = &rec->x;

	memset(rec, 0, sizeof(*rec));
	snprintf(x->strategy, sizeof(x->strategy), "%s", r->strategy);
	snprintf(x->mode, sizeof(x->mode), "%s", r->mode);
	x->workers = r->workers;
	x->claims = r->claims;
	x->jobs = r->jobs;
	x->crashes = plan->crashes;
	x->lease_expiry = plan->choice.mode == MODE_FLIP && plan->cfg->recovery.lease_ms > 0;
	x->max_steps = plan->max_steps;
	snprintf(x->search, sizeof(x->search), "%s", explore_search_names[explore_search_of(r)]);
	x->schedules = r->explored;
	x->space = r->complete || r->sampled ? r->estimated : NAN;
	x->sampled = r->sampled;
	x->seed = plan->seed;
	x->bounded = r->bounded;
	x->blocked = r->blocked;
	x->violating = r->violating;
	x->redelivered = r->redelivered;
	x->fenced = r->fenced;
	x->seconds = r->seconds;
	for (int f = 0; f < FINDING_COUNT && f < STORE_EXPLORE_FINDINGS; f++) {
		struct store_explore_finding *sf = &x->findings[x->n_findings++];

		snprintf(sf->name, sizeof(sf->name), "%s", finding_names[f]);
		sf->violation = finding_is_violation((enum finding)f);
		sf->schedules = r->with[f];
		sf->in_shown = r->shown.events ? r->shown.count[f] : 0;
	}
	x->expects = rec->verdicts;
	if (!r->shown.events)
		return 0;
	trace_format(&r->shown.trace, x->shown_trace, sizeof(x->shown_trace));
	snprintf(x->shown_why, sizeof(x->shown_why), "%s", explore_shown_names[explore_shown_of(r)]);
	x->shown_blocked = r->shown.blocked;
	x->shown_redeliveries = r->shown.redeliveries;
	x->shown_fenced = r->shown.fenced;
	x->events = calloc(r->shown.n_events ? r->shown.n_events : 1, sizeof(*x->events));
	if (!x->events)
		return -1;
	for (size_t i = 0; i < r->shown.n_events; i++) {
		const struct step_event *e = &r->shown.events[i];
		struct store_explore_event *se = &x->events[i];

		se->worker = e->worker;
		snprintf(se->kind, sizeof(se->kind), "%s", explore_event_names[e->kind]);
		se->blocked = e->blocked;
		se->returned = e->returned;
		snprintf(se->statement, sizeof(se->statement), "%s", e->statement);
		snprintf(se->result, sizeof(se->result), "%s", e->result);
	}
	x->n_events = r->shown.n_events;
	return 0;
}

/*
 * Checks e against r, saying on out when it fails and on passes (NULL: nowhere) "  PASS"
 * when it holds, and notes the verdict, from source, in rec. Whether it held.
 */
static bool check_one(struct explore_record *rec, const char *source, const struct explore_expect *e,
		      const struct explore_result *r, FILE *out, FILE *passes)
{
	bool holds = explore_expect_holds(e, r, out);
	struct store_explore_expect *v;

	if (holds && passes) {
		fprintf(passes, "  PASS  %s: %s  (it is %ld)\n", source, e->text, explore_expect_count(e, r));
		fflush(passes);
	}

	if (rec->x.n_expects == EXPLORE_RECORD_VERDICTS)
		return holds;
	v = &rec->verdicts[rec->x.n_expects++];
	snprintf(v->source, sizeof(v->source), "%s", source);
	snprintf(v->text, sizeof(v->text), "%s", e->text);
	v->value = explore_expect_count(e, r);
	v->holds = holds;
	return holds;
}

bool explore_record_check(struct explore_record *rec, const struct explore_options *es,
			  const struct explore_scenario_expects *in_file, const struct explore_result *r, FILE *out,
			  FILE *passes)
{
	bool all = true;

	for (int e = 0; e < es->n_expects; e++)
		all &= check_one(rec, "--expect", &es->expects[e], r, out, passes);
	for (int i = 0; i < in_file->n; i++)
		if (explore_scenario_applies(&in_file->items[i], r))
			all &= check_one(rec, in_file->items[i].where, &in_file->items[i].expect, r, out, passes);
	return all;
}

void explore_record_free(struct explore_record *rec)
{
	free(rec->x.events);
	rec->x.events = NULL;
	rec->x.n_events = 0;
}

/* The enum finding called name, or -1 (a kind a newer claimbench stored). */
static int finding_of(const char *name)
{
	for (int f = 0; f < FINDING_COUNT; f++)
		if (strcmp(finding_names[f], name) == 0)
			return f;
	return -1;
}

/* The enum event_kind called name; a kind this binary does not know reads as a check (the harness's note). */
static enum event_kind event_of(const char *name)
{
	for (int k = 0; k < EVENT_KINDS; k++)
		if (strcmp(explore_event_names[k], name) == 0)
			return (enum event_kind)k;
	return EVENT_CHECK;
}

int explore_record_result(const struct store_explore *x, struct explore_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->strategy = x->strategy;
	r->mode = x->mode;
	r->workers = x->workers;
	r->claims = x->claims;
	r->jobs = x->jobs;
	r->explored = x->schedules;
	r->complete = strcmp(x->search, explore_search_names[SEARCH_EVERY]) == 0;
	r->sampled = strcmp(x->search, explore_search_names[SEARCH_SAMPLE]) == 0;
	r->interrupted = strcmp(x->search, explore_search_names[SEARCH_INTERRUPTED]) == 0;
	r->replayed = strcmp(x->search, explore_search_names[SEARCH_REPLAY]) == 0;
	r->estimated = isnan(x->space) ? 0 : x->space;
	r->bounded = x->bounded;
	r->blocked = x->blocked;
	r->violating = x->violating;
	r->redelivered = x->redelivered;
	r->fenced = x->fenced;
	r->seconds = isnan(x->seconds) ? 0 : x->seconds;
	for (int i = 0; i < x->n_findings; i++) {
		int f = finding_of(x->findings[i].name);

		if (f < 0)
			continue;
		r->with[f] = x->findings[i].schedules;
		r->shown.count[f] = x->findings[i].in_shown;
		r->shown_violates |= x->findings[i].in_shown && x->findings[i].violation;
	}
	if (!x->shown_trace[0])
		return 0;
	if (trace_parse(x->shown_trace, &r->shown.trace, err, errlen) < 0)
		return -1;
	r->shown_asked = strcmp(x->shown_why, explore_shown_names[SHOWN_ASKED]) == 0;
	r->shown.blocked = x->shown_blocked;
	r->shown.redeliveries = x->shown_redeliveries;
	r->shown.fenced = x->shown_fenced;
	r->shown.events = calloc(x->n_events ? x->n_events : 1, sizeof(*r->shown.events));
	if (!r->shown.events) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < x->n_events; i++) {
		const struct store_explore_event *se = &x->events[i];
		struct step_event *e = &r->shown.events[i];

		e->kind = event_of(se->kind);
		e->worker = se->worker;
		e->blocked = se->blocked;
		e->returned = se->returned;
		snprintf(e->statement, sizeof(e->statement), "%s", se->statement);
		snprintf(e->result, sizeof(e->result), "%s", se->result);
	}
	r->shown.n_events = x->n_events;
	return 0;
}

/* Whether event e is a choice of a trace (a step, a crash, an expiry), and which into *c. */
static bool event_choice(const struct step_event *e, struct choice *c)
{
	switch (e->kind) {
	case EVENT_STEP:
		*c = (struct choice){ .kind = CHOICE_STEP, .worker = e->worker };
		return true;
	case EVENT_CRASH:
		*c = (struct choice){ .kind = CHOICE_CRASH, .worker = e->worker };
		return true;
	case EVENT_EXPIRE:
		*c = (struct choice){ .kind = CHOICE_EXPIRE, .worker = -1 };
		return true;
	default:
		return false;
	}
}

/* Writes choice c as a trace writes it ("1", "c0", "e") into buf. */
static void choice_text(struct choice c, char *buf, size_t len)
{
	struct trace one = { .at = { c }, .n = 1 };

	trace_format(&one, buf, len);
}

bool explore_record_disagrees(const struct explore_result *r, char *why, size_t len)
{
	const struct trace *t = &r->shown.trace;
	char in_trace[16], in_events[16];
	struct choice c;
	int n = 0;

	if (!r->shown.events)
		return false;
	for (size_t i = 0; i < r->shown.n_events; i++) {
		if (!event_choice(&r->shown.events[i], &c))
			continue;
		if (n < t->n && choice_equal(c, t->at[n])) {
			n++;
			continue;
		}
		choice_text(c, in_events, sizeof(in_events));
		if (n < t->n) {
			choice_text(t->at[n], in_trace, sizeof(in_trace));
			snprintf(why, len, "the trace's choice %d is \"%s\", but event %zu is \"%s\"", n + 1, in_trace, i + 1,
				 in_events);
		} else {
			snprintf(why, len, "the trace makes %d choices, but event %zu is one more (\"%s\")", t->n, i + 1,
				 in_events);
		}
		return true;
	}
	if (n == t->n)
		return false;
	snprintf(why, len, "the trace makes %d choices, but the events only %d", t->n, n);
	return true;
}
