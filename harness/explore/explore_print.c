/* Explore's table, of a result explored or read back from the store; see explore_print.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/explore_print.h"
#include "explore/scheduler.h"

const char *const explore_search_names[SEARCH_KINDS] = {
	[SEARCH_INTERRUPTED] = "interrupted", [SEARCH_EVERY] = "every", [SEARCH_SAMPLE] = "sample",
	[SEARCH_REPLAY] = "replay", [SEARCH_LIMIT] = "limit",
};

const char *const explore_shown_names[SHOWN_KINDS] = {
	[SHOWN_ASKED] = "asked", [SHOWN_VIOLATION] = "violation", [SHOWN_FINDING] = "finding",
	[SHOWN_REDELIVERY] = "redelivery", [SHOWN_BLOCKED] = "blocked", [SHOWN_FIRST] = "first",
};

enum explore_search explore_search_of(const struct explore_result *r)
{
	if (r->interrupted)
		return SEARCH_INTERRUPTED;
	if (r->complete)
		return SEARCH_EVERY;
	if (r->sampled)
		return SEARCH_SAMPLE;
	if (r->replayed)
		return SEARCH_REPLAY;
	return SEARCH_LIMIT;
}

enum explore_shown explore_shown_of(const struct explore_result *r)
{
	if (r->shown_asked)
		return SHOWN_ASKED;
	if (r->shown_violates)
		return SHOWN_VIOLATION;
	for (int f = 0; f < FINDING_COUNT; f++)
		if (r->shown.count[f])
			return SHOWN_FINDING;
	if (r->shown.redeliveries || r->shown.fenced)
		return SHOWN_REDELIVERY;
	return r->shown.blocked ? SHOWN_BLOCKED : SHOWN_FIRST;
}

/* What one worker holds as the steps go. */
struct holding {
	long job;	/* the job it last claimed, 0 for none */
	size_t since;	/* the step (index in the events) that claimed it */
};

/* The job a step's result names: the first value of "N row(s): name=V, ...", 0 when it names none. */
static long result_job(const struct step_event *e)
{
	const char *eq;

	if (!e->returned || strncmp(e->result, "1 row: ", 7) != 0 || !(eq = strchr(e->result, '=')))
		return 0;
	return strtol(eq + 1, NULL, 10);
}

long explore_mark_duplicate(const struct schedule_outcome *o, char *why, size_t size)
{
	struct holding held[EXPLORE_MAX_WORKERS];

	why[0] = '\0';
	if (!o->count[FINDING_DUPLICATE])
		return -1;
	memset(held, 0, sizeof(held));
	for (size_t i = 0; i < o->n_events; i++) {
		const struct step_event *e = &o->events[i];
		long job;

		if (e->kind == EVENT_CRASH && e->worker >= 0 && e->worker < EXPLORE_MAX_WORKERS)
			held[e->worker].job = 0;
		if (e->kind == EVENT_EXPIRE)
			memset(held, 0, sizeof(held));
		if (e->kind != EVENT_STEP || e->worker < 0 || e->worker >= EXPLORE_MAX_WORKERS ||
		    !(job = result_job(e)) || held[e->worker].job == job)
			continue;
		for (int w = 0; w < EXPLORE_MAX_WORKERS; w++)
			if (w != e->worker && held[w].job == job) {
				snprintf(why, size, "duplicate: job %ld, already held by w%d since step %zu", job, w,
					 held[w].since + 1);
				return (long)i;
			}
		held[e->worker] = (struct holding){ .job = job, .since = i };
	}
	return -1;
}

const char *const explore_event_names[EVENT_KINDS] = {
	[EVENT_STEP] = "step", [EVENT_FOLDED] = "folded", [EVENT_CRASH] = "crash",
	[EVENT_EXPIRE] = "expire", [EVENT_CHECK] = "check",
};

/* Describes r's schedules: how many of how many, and how they were searched. */
static void describe_space(const struct explore_result *r, char *buf, size_t len)
{
	switch (explore_search_of(r)) {
	case SEARCH_INTERRUPTED:
		snprintf(buf, len, "%ld of more (interrupted)", r->explored);
		break;
	case SEARCH_EVERY:
		snprintf(buf, len, "%ld of %ld (every schedule)", r->explored, r->explored);
		break;
	case SEARCH_SAMPLE:
		snprintf(buf, len, "%ld of ~%.0f (a seeded sample; the space estimated)", r->explored, r->estimated);
		break;
	case SEARCH_REPLAY:
		snprintf(buf, len, "1 (the schedule replayed)");
		break;
	case SEARCH_LIMIT:
	default:
		snprintf(buf, len, "%ld of more (the limit of --max-schedules)", r->explored);
		break;
	}
}

/* What the shown schedule is, in words, indexed by enum explore_shown. */
static const char *const shown_words[SHOWN_KINDS] = {
	[SHOWN_ASKED] = "the shortest schedule of the kind asked (--show)",
	[SHOWN_VIOLATION] = "the shortest schedule with a violation",
	[SHOWN_FINDING] = "the shortest schedule with a finding",
	[SHOWN_REDELIVERY] = "the shortest schedule with a redelivery or a fenced completion",
	[SHOWN_BLOCKED] = "the shortest schedule with a blocked step",
	[SHOWN_FIRST] = "a schedule (nothing found)",
};

/* The column a step's statement starts at; its continuation lines are indented so. */
#define TRACE_INDENT 21

/* The widest a trace's line is made, its indent included. */
#define TRACE_WIDTH 110

/*
 * Writes text from the trace's statement column on: wrapped at blanks to TRACE_WIDTH, each
 * line after the first indented TRACE_INDENT, then tail (" -> ...") on the last line when it
 * fits, else on a line of its own.
 */
static void print_wrapped(FILE *out, const char *text, const char *tail)
{
	const size_t room = TRACE_WIDTH - TRACE_INDENT;
	size_t col = 0, len = strlen(text);

	while (len > room) {
		size_t cut = room;

		while (cut > room / 2 && text[cut] != ' ')
			cut--;
		if (text[cut] != ' ')
			cut = room;
		fprintf(out, "%.*s\n%*s", (int)cut, text, TRACE_INDENT, "");
		text += cut + (text[cut] == ' ');
		len = strlen(text);
	}
	fputs(text, out);
	col = len;
	if (col + 1 + strlen(tail) <= room)
		fprintf(out, "%s%s\n", col ? " " : "", tail);
	else
		fprintf(out, "\n%*s%s\n", TRACE_INDENT, "", tail);
}

void explore_print_table(FILE *out, const struct explore_result *r)
{
	char space[128], trace[4 * TRACE_MAX], why[160];
	long mark;

	describe_space(r, space, sizeof(space));
	fprintf(out, "%s %s: %d worker%s x %d claim%s on %d job%s\n", r->strategy, r->mode, r->workers,
		r->workers == 1 ? "" : "s", r->claims, r->claims == 1 ? "" : "s", r->jobs, r->jobs == 1 ? "" : "s");
	fprintf(out, "  schedules  %s; %ld bounded, %ld with a blocked step; %.1f s, %.1f schedules/s\n", space,
		r->bounded, r->blocked, r->seconds, r->seconds > 0 ? (double)r->explored / r->seconds : 0);
	fprintf(out, "  schedules with");
	for (int f = 0; f < FINDING_COUNT; f++)
		fprintf(out, "  %s %ld", finding_names[f], r->with[f]);
	fprintf(out, "  (redelivered %ld, fenced %ld)\n", r->redelivered, r->fenced);
	if (!r->shown.events)
		return;
	trace_format(&r->shown.trace, trace, sizeof(trace));
	fprintf(out, "  %s: --schedule %s\n", shown_words[explore_shown_of(r)], trace);
	fprintf(out, "   ");
	for (int f = 0; f < FINDING_COUNT; f++)
		if (r->shown.count[f])
			fprintf(out, " %s %llu", finding_names[f], (unsigned long long)r->shown.count[f]);
	fprintf(out, "%s redeliveries %llu, fenced %llu\n", "", (unsigned long long)r->shown.redeliveries,
		(unsigned long long)r->shown.fenced);
	mark = explore_mark_duplicate(&r->shown, why, sizeof(why));
	for (size_t i = 0; i < r->shown.n_events; i++) {
		const struct step_event *e = &r->shown.events[i];
		char who[16], result[EXPLORE_TEXT + 32];

		if (e->worker >= 0)
			snprintf(who, sizeof(who), "w%d", e->worker);
		else
			snprintf(who, sizeof(who), "--");
		snprintf(result, sizeof(result), "-> %s%s", e->blocked ? "blocked, then " : "",
			 e->returned ? e->result : "(had not returned)");
		fprintf(out, "  %s %3zu %-3s %-7s ", (long)i == mark ? "=>" : "  ", i + 1, who, explore_event_names[e->kind]);
		print_wrapped(out, e->statement, result);
		if ((long)i == mark)
			fprintf(out, "%*s^^ %s\n", TRACE_INDENT, "", why);
	}
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

/*
 * Whether the shown schedule of r, read back from the store, has a trace its events do
 * not follow: its steps, crashes and expiries, in order, are not the trace's choices (a
 * store changed by hand, or by another program). When so, says where in why.
 */
static bool trace_disagrees(const struct explore_result *r, char *why, size_t len)
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

void explore_print_stored(FILE *out, const struct explore_result *r)
{
	char why[128];

	explore_print_table(out, r);
	if (trace_disagrees(r, why, sizeof(why)))
		fprintf(out, "  the stored trace and events disagree (not as explore stored them): %s\n", why);
	for (size_t i = 0; i < r->n_verdicts; i++) {
		const struct explore_verdict *v = &r->verdicts[i];

		fprintf(out, "  expectation %s: %s (it is %ld; %s)\n", v->holds ? "held" : "FAILED", v->text, v->value,
			v->source);
	}
}
