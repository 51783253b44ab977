/* Explore's JSON document, written (explore --json, the result store) and read back; see explore_print.h. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "explore/explore_print.h"
#include "output/json_out.h"

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
