/* Explore's table and JSON; see explore_print.h. */
#include <math.h>
#include <string.h>

#include "cli/explore_kinds.h"
#include "cli/explore_mark.h"
#include "cli/explore_print.h"
#include "output/json_out.h"

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

void explore_print_json_begin(FILE *out)
{
	fprintf(out, "[\n");
}

void explore_print_json_end(FILE *out)
{
	fprintf(out, "]\n");
}

/* The JSON of the shown schedule of r. */
static json_object *shown_json(const struct explore_result *r)
{
	json_object *o = json_object_new_object(), *events = json_object_new_array(), *counts = json_object_new_object();
	char trace[4 * TRACE_MAX], why[160];
	long mark;

	trace_format(&r->shown.trace, trace, sizeof(trace));
	json_put(o, "trace", json_object_new_string(trace));
	json_put(o, "violation", json_object_new_boolean(r->shown_violates));
	for (int f = 0; f < FINDING_COUNT; f++)
		json_put(counts, finding_names[f], json_object_new_int64((int64_t)r->shown.count[f]));
	json_put(o, "findings", counts);
	json_put(o, "redeliveries", json_object_new_int64((int64_t)r->shown.redeliveries));
	json_put(o, "fenced", json_object_new_int64((int64_t)r->shown.fenced));
	mark = explore_mark_duplicate(&r->shown, why, sizeof(why));
	json_put(o, "violated_at", mark >= 0 ? json_object_new_int64(mark + 1) : NULL);
	json_put(o, "violated", mark >= 0 ? json_object_new_string(why) : NULL);
	for (size_t i = 0; i < r->shown.n_events; i++) {
		const struct step_event *e = &r->shown.events[i];
		json_object *ev = json_object_new_object();

		json_put(ev, "worker", e->worker >= 0 ? json_object_new_int(e->worker) : NULL);
		json_put(ev, "kind", json_object_new_string(explore_event_names[e->kind]));
		json_put(ev, "statement", json_object_new_string(e->statement));
		json_put(ev, "blocked", json_object_new_boolean(e->blocked));
		json_put(ev, "result", e->returned ? json_object_new_string(e->result) : NULL);
		json_object_array_add(events, ev);
	}
	json_put(o, "events", events);
	return o;
}

void explore_print_json(FILE *out, const struct explore_result *r, bool first)
{
	json_object *o = json_object_new_object(), *with = json_object_new_object();

	json_put(o, "strategy", json_object_new_string(r->strategy));
	json_put(o, "claim_mode", json_object_new_string(r->mode));
	json_put(o, "workers", json_object_new_int(r->workers));
	json_put(o, "claims", json_object_new_int(r->claims));
	json_put(o, "jobs", json_object_new_int(r->jobs));
	json_put(o, "schedules", json_object_new_int64(r->explored));
	json_put(o, "complete", json_object_new_boolean(r->complete));
	json_put(o, "sampled", json_object_new_boolean(r->sampled));
	json_put(o, "interrupted", json_object_new_boolean(r->interrupted));
	json_put(o, "space", r->complete || r->sampled ? json_number(r->estimated) : NULL);
	json_put(o, "bounded", json_object_new_int64(r->bounded));
	json_put(o, "blocked", json_object_new_int64(r->blocked));
	json_put(o, "violating", json_object_new_int64(r->violating));
	json_put(o, "redelivered", json_object_new_int64(r->redelivered));
	json_put(o, "fenced", json_object_new_int64(r->fenced));
	for (int f = 0; f < FINDING_COUNT; f++)
		json_put(with, finding_names[f], json_object_new_int64(r->with[f]));
	json_put(o, "with", with);
	json_put(o, "seconds", json_number(r->seconds));
	json_put(o, "shown", r->shown.events ? shown_json(r) : NULL);
	if (!first)
		fprintf(out, ",\n");
	json_print(out, o);
	json_object_put(o);
}
