#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/faults.h"
#include "model/timeline.h"

const char *const timeline_kind_names[TIMELINE_KIND_COUNT] = {
	[TIMELINE_WARMUP] = "warmup",
	[TIMELINE_CLEAN] = "clean",
	[TIMELINE_LOAD] = "load",
	[TIMELINE_IDLE_IN_TX] = "idle-in-tx",
	[TIMELINE_HELD_SNAPSHOT] = "held-snapshot",
	[TIMELINE_ACTIVE_READERS] = "active-readers",
	[TIMELINE_VACUUM] = "vacuum",
	[TIMELINE_RECOVERY] = "recovery",
	[TIMELINE_CRASH_WORKERS] = "crash-workers",
	[TIMELINE_KILL_BACKENDS] = "kill-backends",
	[TIMELINE_RESTART_SERVER] = "restart-server",
	[TIMELINE_POOL_EXHAUSTION] = "pool-exhaustion",
	[TIMELINE_LONG_WRITER] = "long-writer",
};

/* What the ARG of a kind that takes one is, as its messages spell it. */
struct arg_spelling {
	const char *placeholder;	/* ":F", ":N" ... after the kind */
	const char *example;		/* an example of it: ":1.5" */
	const char *meaning;		/* what it is, with its range */
};

/* The ARG of each kind that takes one; a NULL placeholder: the kind takes none. */
static const struct arg_spelling arg_spellings[TIMELINE_KIND_COUNT] = {
	[TIMELINE_LOAD] = { ":F", ":1.5", "F a factor of --arrival-rate above 0 and at most 100" },
	[TIMELINE_ACTIVE_READERS] = { ":N", ":4", "N sessions from 1 to 16" },
	[TIMELINE_CRASH_WORKERS] = { ":N", ":2", "N workers from 1 to 1024, or a share of them above 0 and at most "
				     "100% (25%)" },
	[TIMELINE_KILL_BACKENDS] = { ":RATE", ":2", "RATE server sessions terminated per second, above 0 and at most 100" },
	[TIMELINE_POOL_EXHAUSTION] = { ":N", ":200", "N idle connections from 1 to 1000" },
};

/* The longest phase, in seconds: a day. */
#define TIMELINE_MAX_PHASE_S 86400.0

/* The largest load factor. */
#define TIMELINE_MAX_LOAD 100.0

/* A duration's units and their length in seconds; the longer spelling first. */
static const struct {
	const char *unit;	/* as written after the number */
	double seconds;		/* one of it, in seconds */
} duration_units[] = { { "ms", 0.001 }, { "s", 1 }, { "m", 60 }, { "h", 3600 } };

/* The kind called name, or -1. */
static int kind_of(const char *name, size_t len)
{
	for (int k = 0; k < TIMELINE_KIND_COUNT; k++)
		if (strlen(timeline_kind_names[k]) == len && strncmp(timeline_kind_names[k], name, len) == 0)
			return k;
	return -1;
}

/* Reads DURATION (a number and a unit) from text into *s. 0, or -1 with err for the phase item. */
static int parse_duration(const char *item, const char *text, double *s, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end == text || errno || !isfinite(v) || *text == '-' || *text == '+') {
		snprintf(err, errlen, "--phase \"%s\": a duration such as 500ms, 10s, 2m or 1h expected, got \"%s\"",
			 item, text);
		return -1;
	}
	for (size_t u = 0; u < sizeof(duration_units) / sizeof(duration_units[0]); u++) {
		if (strcmp(end, duration_units[u].unit) != 0)
			continue;
		*s = v * duration_units[u].seconds;
		if (*s <= 0 || *s > TIMELINE_MAX_PHASE_S) {
			snprintf(err, errlen, "--phase \"%s\": a duration above 0 and at most 24h expected, got \"%s\"",
				 item, text);
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "--phase \"%s\": the duration \"%s\" needs a unit: ms, s, m or h (such as 10s)", item, text);
	return -1;
}

/* Whether v, read from text up to end, is a whole number from low to high. */
static bool whole_in(double v, const char *text, const char *end, double low, double high)
{
	return end != text && !*end && v == floor(v) && v >= low && v <= high;
}

/* Reads ARG of a phase of kind from text into step. 0, or -1 with err. */
static int parse_arg(const char *item, enum timeline_kind kind, const char *text, struct timeline_step *step,
		     char *err, size_t errlen)
{
	char *end;
	double v;
	bool ok;

	errno = 0;
	v = strtod(text, &end);
	ok = !errno && end != text;
	switch (kind) {
	case TIMELINE_LOAD:
		ok = ok && !*end && v > 0 && v <= TIMELINE_MAX_LOAD;
		break;
	case TIMELINE_ACTIVE_READERS:
		ok = ok && whole_in(v, text, end, 1, TIMELINE_MAX_READERS);
		break;
	case TIMELINE_CRASH_WORKERS:
		step->arg_share = ok && strcmp(end, "%") == 0;
		ok = ok && (step->arg_share ? v > 0 && v <= 100 : whole_in(v, text, end, 1, TIMELINE_MAX_CRASH));
		break;
	case TIMELINE_KILL_BACKENDS:
		ok = ok && !*end && v > 0 && v <= TIMELINE_MAX_KILL_RATE;
		break;
	default:
		ok = ok && whole_in(v, text, end, 1, TIMELINE_MAX_POOL);
		break;
	}
	if (!ok || *text == '+' || *text == '-' || !isfinite(v)) {
		snprintf(err, errlen, "--phase \"%s\": %s%s:DURATION, %s, got \"%s\"", item, timeline_kind_names[kind],
			 arg_spellings[kind].placeholder, arg_spellings[kind].meaning, text);
		return -1;
	}
	step->arg = v;
	return 0;
}

/* Parses one item KIND[:ARG]:DURATION (len bytes at text) into step. 0, or -1 with err. */
static int parse_item(const char *text, size_t len, struct timeline_step *step, char *err, size_t errlen)
{
	char item[128], *first, *second;
	int kind;
	bool takes_arg;

	while (len && (*text == ' ' || *text == '\t'))
		text++, len--;
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	if (len == 0 || len >= sizeof(item)) {
		snprintf(err, errlen, "--phase: KIND[:ARG]:DURATION expected, got %s", len ? "a longer item" : "an empty item");
		return -1;
	}
	memcpy(item, text, len);
	item[len] = '\0';
	first = strchr(item, ':');
	kind = kind_of(item, first ? (size_t)(first - item) : len);
	if (kind < 0) {
		snprintf(err, errlen, "--phase \"%s\": unknown kind; known: warmup, clean, load:F, idle-in-tx, held-snapshot, "
			 "active-readers:N, vacuum, recovery, crash-workers:N, kill-backends:RATE, restart-server, "
			 "pool-exhaustion:N, long-writer", item);
		return -1;
	}
	takes_arg = arg_spellings[kind].placeholder != NULL;
	second = first ? strchr(first + 1, ':') : NULL;
	if (!first || (takes_arg && !second)) {
		snprintf(err, errlen, "--phase \"%s\": a duration expected (%s%s:DURATION, such as %s%s:10s)", item,
			 timeline_kind_names[kind], takes_arg ? arg_spellings[kind].placeholder : "",
			 timeline_kind_names[kind], takes_arg ? arg_spellings[kind].example : "");
		return -1;
	}
	if (!takes_arg && second) {
		snprintf(err, errlen, "--phase \"%s\": %s takes no argument (%s:DURATION)", item, timeline_kind_names[kind],
			 timeline_kind_names[kind]);
		return -1;
	}
	*step = (struct timeline_step){ .kind = (enum timeline_kind)kind };
	if (takes_arg) {
		char arg[sizeof(item)];

		snprintf(arg, sizeof(arg), "%.*s", (int)(second - first - 1), first + 1);
		if (parse_arg(item, step->kind, arg, step, err, errlen) < 0)
			return -1;
	}
	return parse_duration(item, (takes_arg ? second : first) + 1, &step->duration_s, err, errlen);
}

int timeline_parse(const char *text, struct timeline *tl, char *err, size_t errlen)
{
	const char *p = text;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (tl->n == TIMELINE_MAX_PHASES) {
			snprintf(err, errlen, "--phase: at most %d phases", TIMELINE_MAX_PHASES);
			return -1;
		}
		if (parse_item(p, len, &tl->steps[tl->n], err, errlen) < 0)
			return -1;
		tl->n++;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* Writes v into buf (len bytes) in the fewest significant digits that read back as v (%g's six may not). */
static void exact_number(double v, char *buf, size_t len)
{
	for (int digits = 6; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

void timeline_format(const struct timeline *tl, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < tl->n && used < len; i++) {
		const struct timeline_step *st = &tl->steps[i];
		char arg[32] = "", ms[32];

		if (arg_spellings[st->kind].placeholder) {
			arg[0] = ':';
			exact_number(st->arg, arg + 1, sizeof(arg) - 2);
			if (st->arg_share)
				strcat(arg, "%");
		}
		exact_number(st->duration_s * 1000, ms, sizeof(ms));
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s:%sms", i ? "," : "", timeline_kind_names[st->kind],
					 arg, ms);
	}
}

double timeline_total_s(const struct timeline *tl)
{
	double total = 0;

	for (size_t i = 0; i < tl->n; i++)
		total += tl->steps[i].duration_s;
	return total;
}

double timeline_warmup_s(const struct timeline *tl)
{
	double total = 0;

	for (size_t i = 0; i < tl->n && tl->steps[i].kind == TIMELINE_WARMUP; i++)
		total += tl->steps[i].duration_s;
	return total;
}

double timeline_rate_factor(const struct timeline *tl, size_t i)
{
	return tl->steps[i].kind == TIMELINE_LOAD ? tl->steps[i].arg : 1;
}

/* The arrivals due before the end of phase i at base rate (a real number: phase by phase, rate x factor x length). */
static double arrivals_through(const struct timeline *tl, double rate, size_t i)
{
	double total = 0;

	for (size_t j = 0; j <= i; j++)
		total += rate * timeline_rate_factor(tl, j) * tl->steps[j].duration_s;
	return total;
}

long timeline_arrivals(const struct timeline *tl, double rate)
{
	if (rate <= 0 || tl->n == 0)
		return 0;
	return (long)ceil(arrivals_through(tl, rate, tl->n - 1) - 1e-9);
}

int64_t timeline_due_ns(const struct timeline *tl, double rate, long k)
{
	double before = 0, from_s = 0;

	for (size_t i = 0; i < tl->n; i++) {
		double through = arrivals_through(tl, rate, i);

		if ((double)k < through - 1e-9 || i + 1 == tl->n)
			return llround((from_s + ((double)k - before) / (rate * timeline_rate_factor(tl, i))) * 1e9);
		before = through;
		from_s += tl->steps[i].duration_s;
	}
	return llround((double)k * 1e9 / rate);
}

void timeline_phase_name(const struct timeline *tl, size_t i, char *buf, size_t len)
{
	int before = 0;

	for (size_t j = 0; j < i; j++)
		before += tl->steps[j].kind == tl->steps[i].kind;
	if (before)
		snprintf(buf, len, "%s-%d", timeline_kind_names[tl->steps[i].kind], before + 1);
	else
		snprintf(buf, len, "%s", timeline_kind_names[tl->steps[i].kind]);
}

bool timeline_has_phase(const struct timeline *tl, const char *name)
{
	char buf[64];

	for (size_t i = 0; i < tl->n; i++) {
		timeline_phase_name(tl, i, buf, sizeof(buf));
		if (strcmp(buf, name) == 0)
			return true;
	}
	return false;
}

bool timeline_has_kind(const struct timeline *tl, enum timeline_kind kind)
{
	for (size_t i = 0; i < tl->n; i++)
		if (tl->steps[i].kind == kind)
			return true;
	return false;
}

bool timeline_is_pressure(enum timeline_kind kind)
{
	return kind != TIMELINE_WARMUP && kind != TIMELINE_CLEAN && kind != TIMELINE_RECOVERY;
}

const char *const timeline_field_names[] = {
	"throughput_median", "throughput_p10", "latency_p50_ms", "latency_p99_ms", "latency_max_ms", "depth_start",
	"depth_end", "depth_max", "dead_start", "dead_end", "xmin_age_max", "vacuums", "autovacuums", "errors", "arrivals", "completed",
	"recovery_s", "faults", "pool_held", "pool_refused", "pool_seen", NULL,
};

/* A count as a number: NAN when unknown. */
static double count_value(int64_t v)
{
	return v == TIMELINE_UNKNOWN ? NAN : (double)v;
}

int timeline_field(const struct timeline_phase *p, const char *name, double *out)
{
	const double values[] = {
		p->throughput_median, p->throughput_p10, p->latency_p50_ms, p->latency_p99_ms, p->latency_max_ms,
		(double)p->depth_start, (double)p->depth_end, (double)p->depth_max, count_value(p->dead_start),
		count_value(p->dead_end), count_value(p->xmin_age_max), count_value(p->vacuums), count_value(p->autovacuums),
		(double)p->errors, (double)p->arrivals,
		(double)p->completed, p->recovery_s, (double)p->faults, count_value(p->pool_held),
		count_value(p->pool_refused), count_value(p->pool_seen),
	};

	for (size_t i = 0; timeline_field_names[i]; i++) {
		if (strcmp(timeline_field_names[i], name) == 0) {
			*out = values[i];
			return 0;
		}
	}
	return -1;
}

int timeline_fault_kind(enum timeline_kind kind)
{
	switch (kind) {
	case TIMELINE_CRASH_WORKERS:
		return FAULT_CRASH;
	case TIMELINE_KILL_BACKENDS:
		return FAULT_KILL_BACKEND;
	case TIMELINE_RESTART_SERVER:
		return FAULT_RESTART;
	default:
		return -1;
	}
}

long timeline_faults_due(const struct timeline_step *step, int workers, double since_s)
{
	long all, so_far;

	if (since_s < 0)
		return 0;
	switch (step->kind) {
	case TIMELINE_CRASH_WORKERS:
		if (!step->arg_share)
			return (long)step->arg;
		all = (long)ceil(step->arg / 100 * workers - 1e-9);
		return all < 1 ? 1 : all;
	case TIMELINE_RESTART_SERVER:
		return 1;
	case TIMELINE_KILL_BACKENDS:
		all = (long)ceil(step->arg * step->duration_s - 1e-9);
		so_far = (long)floor(since_s * step->arg + 1e-9) + 1;
		return so_far < all ? so_far : all;
	default:
		return 0;
	}
}
