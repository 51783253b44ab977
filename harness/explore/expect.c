/* Explore's expectations; see expect.h. */
#include <stdlib.h>
#include <string.h>

#include "explore/expect.h"
#include "explore/explore.h"

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
