/* Explore's table and JSON, written and read back; see explore_print.h. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "explore/explore_print.h"
#include "explore/scheduler.h"
#include "output/json_out.h"

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
	json_put(o, "why", json_object_new_string(explore_shown_names[explore_shown_of(r)]));
	json_put(o, "blocked", json_object_new_boolean(r->shown.blocked));
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

/* The JSON of r's verdicts, in order checked. */
static json_object *verdicts_json(const struct explore_result *r)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < r->n_verdicts; i++) {
		const struct explore_verdict *v = &r->verdicts[i];
		json_object *o = json_object_new_object();

		json_put(o, "source", json_object_new_string(v->source));
		json_put(o, "expectation", json_object_new_string(v->text));
		json_put(o, "value", json_object_new_int64(v->value));
		json_put(o, "holds", json_object_new_boolean(v->holds));
		json_object_array_add(a, o);
	}
	return a;
}

json_object *explore_json(const struct explore_result *r)
{
	json_object *o = json_object_new_object(), *with = json_object_new_object();
	int failed = 0;

	if (!o || !with) {
		json_object_put(o);
		json_object_put(with);
		return NULL;
	}
	failed |= json_put(o, "strategy", json_object_new_string(r->strategy));
	failed |= json_put(o, "claim_mode", json_object_new_string(r->mode));
	failed |= json_put(o, "workers", json_object_new_int(r->workers));
	failed |= json_put(o, "claims", json_object_new_int(r->claims));
	failed |= json_put(o, "jobs", json_object_new_int(r->jobs));
	failed |= json_put(o, "crashes", json_object_new_boolean(r->crashes));
	failed |= json_put(o, "lease_expiry", json_object_new_boolean(r->lease_expiry));
	failed |= json_put(o, "max_steps", json_object_new_int(r->max_steps));
	failed |= json_put(o, "search", json_object_new_string(explore_search_names[explore_search_of(r)]));
	failed |= json_put(o, "schedules", json_object_new_int64(r->explored));
	failed |= json_put(o, "complete", json_object_new_boolean(r->complete));
	failed |= json_put(o, "sampled", json_object_new_boolean(r->sampled));
	failed |= json_put(o, "interrupted", json_object_new_boolean(r->interrupted));
	failed |= json_put(o, "space", r->complete || r->sampled ? json_number(r->estimated) : NULL);
	failed |= json_put(o, "seed", r->sampled ? json_object_new_uint64(r->seed) : NULL);
	failed |= json_put(o, "bounded", json_object_new_int64(r->bounded));
	failed |= json_put(o, "blocked", json_object_new_int64(r->blocked));
	failed |= json_put(o, "violating", json_object_new_int64(r->violating));
	failed |= json_put(o, "redelivered", json_object_new_int64(r->redelivered));
	failed |= json_put(o, "fenced", json_object_new_int64(r->fenced));
	for (int f = 0; f < FINDING_COUNT; f++)
		failed |= json_put(with, finding_names[f], json_object_new_int64(r->with[f]));
	failed |= json_put(o, "with", with);
	failed |= json_put(o, "seconds", json_number(r->seconds));
	failed |= json_put(o, "shown", r->shown.events ? shown_json(r) : NULL);
	failed |= json_put(o, "expects", verdicts_json(r));
	if (failed) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

void explore_print_json(FILE *out, const struct explore_result *r, bool first)
{
	json_object *o = explore_json(r);

	if (!first)
		fprintf(out, ",\n");
	if (o)
		json_print(out, o);
	else
		fprintf(out, "null\n");
	json_object_put(o);
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

/* What reading a document keeps: the first thing wrong with it. */
struct doc_reader {
	char *err;		/* where the first fault is said */
	size_t errlen;		/* its size */
	bool failed;		/* a fault was said */
};

/* Says the first fault of the document: key, and what it should have been. */
static void doc_fault(struct doc_reader *d, const char *key, const char *want)
{
	if (d->failed)
		return;
	snprintf(d->err, d->errlen, "its \"%s\" is not %s", key, want);
	d->failed = true;
}

/* The member key of o, of type; NULL (a fault said unless null is allowed and it is null or absent). */
static json_object *doc_member(struct doc_reader *d, json_object *o, const char *key, json_type type, bool null)
{
	static const char *const wanted[] = {
		[json_type_boolean] = "true or false", [json_type_double] = "a number", [json_type_int] = "a whole number",
		[json_type_object] = "an object", [json_type_array] = "an array", [json_type_string] = "a string",
	};
	json_object *v = NULL;

	if (json_object_object_get_ex(o, key, &v) && json_object_is_type(v, type))
		return v;
	if (type == json_type_double && json_object_is_type(v, json_type_int))
		return v;
	if (!(null && !v))
		doc_fault(d, key, wanted[type]);
	return NULL;
}

/* The whole number key of o, 0 with a fault said when it is not one. */
static int64_t doc_int(struct doc_reader *d, json_object *o, const char *key)
{
	return json_object_get_int64(doc_member(d, o, key, json_type_int, false));
}

/* The number key of o (NaN when null), 0 with a fault said when it is neither. */
static double doc_number(struct doc_reader *d, json_object *o, const char *key)
{
	json_object *v = doc_member(d, o, key, json_type_double, true);

	return v ? json_object_get_double(v) : NAN;
}

/* The boolean key of o, false with a fault said when it is not one. */
static bool doc_bool(struct doc_reader *d, json_object *o, const char *key)
{
	return json_object_get_boolean(doc_member(d, o, key, json_type_boolean, false));
}

/* Copies the string key of o into buf, cleaned; "" (null allowed: when null) or a fault said. */
static void doc_text(struct doc_reader *d, json_object *o, const char *key, bool null, char *buf, size_t size)
{
	json_object *v = doc_member(d, o, key, json_type_string, null);

	text_clean(buf, size, v ? json_object_get_string(v) : "", SIZE_MAX);
}

/* Reads the counts per finding of object key of o into counts (unsigned: as) by name; unknown names left out. */
static void doc_findings(struct doc_reader *d, json_object *o, const char *key, long *counts, uint64_t *as)
{
	json_object *by_name = doc_member(d, o, key, json_type_object, false);

	for (int f = 0; by_name && f < FINDING_COUNT; f++) {
		json_object *v;

		if (!json_object_object_get_ex(by_name, finding_names[f], &v))
			continue;
		if (counts)
			counts[f] = (long)json_object_get_int64(v);
		else
			as[f] = json_object_get_uint64(v);
	}
}

/* The enum event_kind called name; a kind this binary does not know reads as a check (the harness's note). */
static enum event_kind event_of(const char *name)
{
	for (int k = 0; k < EVENT_KINDS; k++)
		if (strcmp(explore_event_names[k], name) == 0)
			return (enum event_kind)k;
	return EVENT_CHECK;
}

/* Reads the shown schedule, object o, into r. 0, or -1 with a fault said (or out of memory). */
static int read_shown(struct doc_reader *d, json_object *o, struct explore_result *r)
{
	json_object *events = doc_member(d, o, "events", json_type_array, false);
	size_t n = events ? json_object_array_length(events) : 0;
	char text[4 * TRACE_MAX], why[16];

	doc_text(d, o, "trace", false, text, sizeof(text));
	doc_text(d, o, "why", false, why, sizeof(why));
	r->shown_violates = doc_bool(d, o, "violation");
	r->shown.blocked = doc_bool(d, o, "blocked");
	r->shown.redeliveries = (uint64_t)doc_int(d, o, "redeliveries");
	r->shown.fenced = (uint64_t)doc_int(d, o, "fenced");
	doc_findings(d, o, "findings", NULL, r->shown.count);
	if (d->failed)
		return -1;
	if (trace_parse(text, &r->shown.trace, d->err, d->errlen) < 0) {
		d->failed = true;
		return -1;
	}
	r->shown_asked = strcmp(why, explore_shown_names[SHOWN_ASKED]) == 0;
	r->shown.events = calloc(n ? n : 1, sizeof(*r->shown.events));
	if (!r->shown.events) {
		snprintf(d->err, d->errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n && !d->failed; i++) {
		json_object *ev = json_object_array_get_idx(events, i);
		struct step_event *e = &r->shown.events[i];
		json_object *worker = NULL;
		char kind[16];

		if (!json_object_is_type(ev, json_type_object)) {
			doc_fault(d, "events", "an array of objects");
			break;
		}
		e->worker = (json_object_object_get_ex(ev, "worker", &worker) && worker) ? (int)doc_int(d, ev, "worker")
											   : -1;
		doc_text(d, ev, "kind", false, kind, sizeof(kind));
		e->kind = event_of(kind);
		doc_text(d, ev, "statement", false, e->statement, sizeof(e->statement));
		e->blocked = doc_bool(d, ev, "blocked");
		e->returned = doc_member(d, ev, "result", json_type_string, true) != NULL;
		doc_text(d, ev, "result", true, e->result, sizeof(e->result));
		r->shown.n_events = i + 1;
	}
	return d->failed ? -1 : 0;
}

/* Reads the verdicts, array key "expects" of o, into r. 0, or -1 with a fault said (or out of memory). */
static int read_verdicts(struct doc_reader *d, json_object *o, struct explore_result *r)
{
	json_object *a = doc_member(d, o, "expects", json_type_array, false);
	size_t n = a ? json_object_array_length(a) : 0;

	for (size_t i = 0; i < n && !d->failed; i++) {
		json_object *v = json_object_array_get_idx(a, i);
		char source[288], text[128];
		long value;
		bool holds;

		if (!json_object_is_type(v, json_type_object)) {
			doc_fault(d, "expects", "an array of objects");
			break;
		}
		doc_text(d, v, "source", false, source, sizeof(source));
		doc_text(d, v, "expectation", false, text, sizeof(text));
		value = (long)doc_int(d, v, "value");
		holds = doc_bool(d, v, "holds");
		if (!d->failed && explore_result_note(r, source, text, value, holds) < 0) {
			snprintf(d->err, d->errlen, "out of memory");
			return -1;
		}
	}
	return d->failed ? -1 : 0;
}

/* The enum explore_search called name, or SEARCH_KINDS. */
static enum explore_search search_of(const char *name)
{
	int k = 0;

	while (k < SEARCH_KINDS && strcmp(explore_search_names[k], name) != 0)
		k++;
	return (enum explore_search)k;
}

int explore_json_read(const char *text, struct explore_read *out, char *err, size_t errlen)
{
	struct doc_reader d = { .err = err, .errlen = errlen };
	struct explore_result *r = &out->result;
	json_object *doc = json_tokener_parse(text ? text : "");
	json_object *shown = NULL;
	char search[16];
	int rc = -1;

	memset(out, 0, sizeof(*out));
	r->strategy = out->strategy;
	r->mode = out->mode;
	if (!json_object_is_type(doc, json_type_object)) {
		snprintf(err, errlen, "it is not a JSON object");
		goto out;
	}
	doc_text(&d, doc, "strategy", false, out->strategy, sizeof(out->strategy));
	doc_text(&d, doc, "claim_mode", false, out->mode, sizeof(out->mode));
	r->workers = (int)doc_int(&d, doc, "workers");
	r->claims = (int)doc_int(&d, doc, "claims");
	r->jobs = (int)doc_int(&d, doc, "jobs");
	r->crashes = doc_bool(&d, doc, "crashes");
	r->lease_expiry = doc_bool(&d, doc, "lease_expiry");
	r->max_steps = (int)doc_int(&d, doc, "max_steps");
	doc_text(&d, doc, "search", false, search, sizeof(search));
	r->explored = (long)doc_int(&d, doc, "schedules");
	r->estimated = doc_number(&d, doc, "space");
	r->bounded = (long)doc_int(&d, doc, "bounded");
	r->blocked = (long)doc_int(&d, doc, "blocked");
	r->violating = (long)doc_int(&d, doc, "violating");
	r->redelivered = (long)doc_int(&d, doc, "redelivered");
	r->fenced = (long)doc_int(&d, doc, "fenced");
	r->seconds = doc_number(&d, doc, "seconds");
	doc_findings(&d, doc, "with", r->with, NULL);
	if (!d.failed && search_of(search) == SEARCH_KINDS)
		doc_fault(&d, "search", "one of every, sample, limit, replay and interrupted");
	if (d.failed)
		goto out;
	r->complete = search_of(search) == SEARCH_EVERY;
	r->sampled = search_of(search) == SEARCH_SAMPLE;
	r->interrupted = search_of(search) == SEARCH_INTERRUPTED;
	r->replayed = search_of(search) == SEARCH_REPLAY;
	r->seed = r->sampled ? json_object_get_uint64(doc_member(&d, doc, "seed", json_type_int, false)) : 0;
	if (isnan(r->estimated))
		r->estimated = 0;
	if (isnan(r->seconds))
		r->seconds = 0;
	shown = doc_member(&d, doc, "shown", json_type_object, true);
	if (d.failed || (shown && read_shown(&d, shown, r) < 0) || read_verdicts(&d, doc, r) < 0)
		goto out;
	rc = 0;
out:
	json_object_put(doc);
	return rc;
}
