/* Explore's expectations, its own options, its scenario expectations and their checking; see explore_options.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/explore_options.h"
#include "plugin/strategy.h"

/* The kinds of an expectation beyond the findings, by name. */
static const struct {
	const char *name;	/* as written */
	int kind;		/* its EXPECT_* */
} extra_kinds[] = {
	{ "violation", EXPECT_VIOLATION }, { "blocked", EXPECT_BLOCKED },
	{ "bounded", EXPECT_BOUNDED }, { "schedules", EXPECT_SCHEDULES },
	{ "redelivered", EXPECT_REDELIVERED }, { "fenced", EXPECT_FENCED },
};

int explore_kind_of(const char *name, size_t len)
{
	for (int f = 0; f < FINDING_COUNT; f++)
		if (strlen(finding_names[f]) == len && strncmp(finding_names[f], name, len) == 0)
			return f;
	for (size_t i = 0; i < sizeof(extra_kinds) / sizeof(extra_kinds[0]); i++)
		if (strlen(extra_kinds[i].name) == len && strncmp(extra_kinds[i].name, name, len) == 0)
			return extra_kinds[i].kind;
	return -1;
}

const char *explore_kind_name(int kind)
{
	if (kind >= 0 && kind < FINDING_COUNT)
		return finding_names[kind];
	for (size_t i = 0; i < sizeof(extra_kinds) / sizeof(extra_kinds[0]); i++)
		if (extra_kinds[i].kind == kind)
			return extra_kinds[i].name;
	return "";
}

int explore_expect_parse(const char *text, struct explore_expect *e, char *err, size_t errlen)
{
	static const char *const ops[] = { "==", "!=", "<=", ">=", "<", ">" };
	const char *p = text + strspn(text, " ");
	size_t len = strcspn(p, " <>=!");
	char *end;

	memset(e, 0, sizeof(*e));
	snprintf(e->text, sizeof(e->text), "%s", text);
	e->kind = explore_kind_of(p, len);
	if (e->kind < 0) {
		snprintf(err, errlen, "--expect \"%s\": unknown kind \"%.*s\"; expected a finding (duplicate, lost, stuck, "
			 "zombie, deadlock, lock-error, empty-claimable, fifo-inversion, error), violation, blocked, bounded, schedules, "
			 "redelivered or fenced",
			 text, (int)len, p);
		return -1;
	}
	p += len;
	p += strspn(p, " ");
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (strncmp(p, ops[i], strlen(ops[i])) == 0) {
			snprintf(e->op, sizeof(e->op), "%s", ops[i]);
			p += strlen(ops[i]);
			break;
		}
	}
	e->value = strtol(p, &end, 10);
	if (!*e->op || end == p || *(end + strspn(end, " "))) {
		snprintf(err, errlen, "--expect \"%s\": expected KIND OP NUMBER, OP one of == != < <= > >=", text);
		return -1;
	}
	return 0;
}

long explore_expect_count(const struct explore_expect *e, const struct explore_result *r)
{
	switch (e->kind) {
	case EXPECT_VIOLATION:
		return r->violating;
	case EXPECT_BLOCKED:
		return r->blocked;
	case EXPECT_BOUNDED:
		return r->bounded;
	case EXPECT_SCHEDULES:
		return r->explored;
	case EXPECT_REDELIVERED:
		return r->redelivered;
	case EXPECT_FENCED:
		return r->fenced;
	default:
		return r->with[e->kind];
	}
}

bool explore_expect_holds(const struct explore_expect *e, const struct explore_result *r, FILE *out)
{
	long n = explore_expect_count(e, r);
	bool ok;

	if (strcmp(e->op, "==") == 0)
		ok = n == e->value;
	else if (strcmp(e->op, "!=") == 0)
		ok = n != e->value;
	else if (strcmp(e->op, "<=") == 0)
		ok = n <= e->value;
	else if (strcmp(e->op, ">=") == 0)
		ok = n >= e->value;
	else if (strcmp(e->op, "<") == 0)
		ok = n < e->value;
	else
		ok = n > e->value;
	if (!ok)
		fprintf(out, "claimbench explore: %s %s: expectation failed: %s (it is %ld)\n", r->strategy, r->mode, e->text,
			n);
	return ok;
}

/* The explore options of row o in the struct at base. */
static struct explore_options *explore_of(const struct option_def *o, void *base)
{
	return (struct explore_options *)((char *)base + o->offset);
}

int parse_explore_show(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct explore_options *eo = explore_of(o, base);

	eo->show = text ? explore_kind_of(text, strlen(text)) : -1;
	if (!text || eo->show >= 0)
		return 0;
	snprintf(err, errlen, "--%s: unknown kind \"%s\" (the kinds of --expect)", o->name, text);
	return -1;
}

void format_explore_show(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct explore_options *eo = (const struct explore_options *)((const char *)base + o->offset);

	snprintf(buf, len, "%s", eo->show < 0 ? "" : explore_kind_name(eo->show));
}

int parse_explore_expect(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct explore_options *eo = explore_of(o, base);

	if (!text) {
		eo->n_expects = 0;
		return 0;
	}
	if (eo->n_expects == EXPLORE_MAX_EXPECTS) {
		snprintf(err, errlen, "--%s: at most %d, got \"%s\" beyond them", o->name, EXPLORE_MAX_EXPECTS, text);
		return -1;
	}
	if (explore_expect_parse(text, &eo->expects[eo->n_expects], err, errlen) < 0)
		return -1;
	eo->n_expects++;
	return 0;
}

void format_explore_expect(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct explore_options *eo = (const struct explore_options *)((const char *)base + o->offset);
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < eo->n_expects && used < len; i++) {
		int wrote = snprintf(buf + used, len - used, "%s%s", i ? "; " : "", eo->expects[i].text);

		if (wrote < 0)
			return;
		used += (size_t)wrote;
	}
}

long explore_max_steps(const struct explore_options *es)
{
	return es->max_steps ? es->max_steps : 6 * es->claims + 6;
}

/*
 * Refuses a --max-steps, given or made from --claims, with which a schedule of workers could
 * make more choices than a trace holds: each worker's statements, one crash and one expiry of
 * the leases. 0, or -1 with err naming the limit.
 */
static int check_trace_room(const struct explore_options *es, int workers, char *err, size_t errlen)
{
	long most = (TRACE_MAX - 2) / workers;

	if (explore_max_steps(es) <= most)
		return 0;
	if (es->max_steps)
		snprintf(err, errlen, "--max-steps: at most %ld with %d worker%s, got %ld: a schedule holds %d choices "
			 "(every worker's statements, a crash and an expiry of the leases)", most, workers,
			 workers == 1 ? "" : "s", es->max_steps, TRACE_MAX);
	else
		snprintf(err, errlen, "--claims: at most %ld with %d worker%s, got %ld: a worker's statements, 6C+6 = %ld "
			 "by default, may be at most %ld, since a schedule holds %d choices (every worker's statements, "
			 "a crash and an expiry of the leases); give fewer claims, or a --max-steps of at most %ld",
			 (most - 6) / 6, workers, workers == 1 ? "" : "s", es->claims, explore_max_steps(es), most, TRACE_MAX,
			 most);
	return -1;
}

int explore_check_options(const struct run_config *cfg, const struct explore_options *es, char *err, size_t errlen)
{
	if (cfg->n_worker_points != 1 || cfg->workers[0] < 1 || cfg->workers[0] > EXPLORE_MAX_WORKERS) {
		snprintf(err, errlen, "--workers: explore takes one worker count, 1 to %d", EXPLORE_MAX_WORKERS);
		return -1;
	}
	if (cfg->n_queues > 1) {
		snprintf(err, errlen, "--queue: explore runs a backlog of jobs in one queue, not several classes");
		return -1;
	}
	if (cfg->jobs > 64) {
		snprintf(err, errlen, "--jobs: explore takes at most 64 jobs (every schedule is run)");
		return -1;
	}
	if (cfg->format == FORMAT_CSV) {
		snprintf(err, errlen, "--format: explore prints table or json, got csv");
		return -1;
	}
	if (es->schedule && es->sample) {
		snprintf(err, errlen, "--schedule replays one schedule: --sample does not go with it");
		return -1;
	}
	return check_trace_room(es, cfg->workers[0], err, errlen);
}

/*
 * Reads "STRATEGY[:MODE].KIND OP N" into x, its strategy and mode among cfg's: 0; 1 when
 * they are not (replay: the line read, to be left out), or -1 with why in err.
 */
static int read_line(const char *value, const struct run_config *cfg, bool replay, struct explore_scenario_expect *x,
		     char *err, size_t errlen)
{
	const char *dot = strchr(value, '.');
	size_t len = dot ? (size_t)(dot - value) : 0;
	const char *colon = memchr(value, ':', len);
	size_t name_len = colon ? (size_t)(colon - value) : len;
	bool explored = false;

	if (!dot || name_len == 0 || name_len >= sizeof(x->strategy)) {
		snprintf(err, errlen, "expected STRATEGY[:MODE].KIND OP N, e.g. naive.duplicate >= 1");
		return -1;
	}
	snprintf(x->strategy, sizeof(x->strategy), "%.*s", (int)name_len, value);
	x->mode = -1;
	for (int m = 0; colon && claim_mode_names[m]; m++)
		if (strlen(claim_mode_names[m]) == len - name_len - 1 && strncmp(claim_mode_names[m], colon + 1,
										 len - name_len - 1) == 0)
			x->mode = m;
	if (colon && x->mode < 0) {
		snprintf(err, errlen, "unknown claim mode \"%.*s\" (hold or flip)", (int)(len - name_len - 1), colon + 1);
		return -1;
	}
	for (size_t i = 0; i < cfg->n_strategies; i++)
		explored |= strcmp(cfg->strategies[i].ops->name, x->strategy) == 0 &&
			    (x->mode < 0 || (int)cfg->strategies[i].mode == x->mode);
	if (!explored && !replay) {
		snprintf(err, errlen, "%.*s is not explored here (see --strategy and --claim-mode)", (int)len, value);
		return -1;
	}
	if (explore_expect_parse(dot + 1, &x->expect, err, errlen) < 0)
		return -1;
	return explored ? 0 : 1;
}

int explore_scenario_add(struct explore_scenario_expects *out, const char *path, int line, const char *key,
			 const char *value, const struct run_config *cfg, bool replay, char *err, size_t errlen)
{
	struct explore_scenario_expect *x = &out->items[out->n];
	char why[512];

	if (out->n == EXPLORE_SCENARIO_MAX_EXPECTS) {
		snprintf(err, errlen, "%s:%d: [%s] holds at most %d lines", path, line, EXPLORE_EXPECT_SECTION,
			 EXPLORE_SCENARIO_MAX_EXPECTS);
		return -1;
	}
	switch (read_line(value, cfg, replay, x, why, sizeof(why))) {
	case 0:
		break;
	case 1:
		out->left_out++;
		return 0;
	default:
		snprintf(err, errlen, "%s:%d: explore expectation \"%s\": %s", path, line, key, why);
		return -1;
	}
	snprintf(x->expect.text, sizeof(x->expect.text), "%s (%s)", key, value);
	snprintf(x->where, sizeof(x->where), "%s:%d", path, line);
	out->n++;
	return 0;
}

/* Whether line x is about r's strategy and mode (it is checked against r). */
static bool scenario_applies(const struct explore_scenario_expect *x, const struct explore_result *r)
{
	return strcmp(x->strategy, r->strategy) == 0 && (x->mode < 0 || strcmp(claim_mode_name(x->mode), r->mode) == 0);
}

/*
 * Checks e against r, saying on out when it fails and on passes (NULL: nowhere) "  PASS"
 * when it holds, and notes the verdict, from source, in r (out of memory: said on out,
 * counted as failed). Whether it held.
 */
static bool check_one(struct explore_result *r, const char *source, const struct explore_expect *e, FILE *out,
		      FILE *passes)
{
	bool holds = explore_expect_holds(e, r, out);

	if (holds && passes) {
		fprintf(passes, "  PASS  %s: %s  (it is %ld)\n", source, e->text, explore_expect_count(e, r));
		fflush(passes);
	}
	if (explore_result_note(r, source, e->text, explore_expect_count(e, r), holds) < 0) {
		fprintf(out, "claimbench explore: out of memory noting the verdict of %s\n", e->text);
		return false;
	}
	return holds;
}

bool explore_check(struct explore_result *r, const struct explore_options *es,
		   const struct explore_scenario_expects *in_file, FILE *out, FILE *passes)
{
	bool all = true;

	for (int e = 0; e < es->n_expects; e++)
		all &= check_one(r, "--expect", &es->expects[e], out, passes);
	for (int i = 0; i < in_file->n; i++)
		if (scenario_applies(&in_file->items[i], r))
			all &= check_one(r, in_file->items[i].where, &in_file->items[i].expect, out, passes);
	return all;
}
