#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/expect.h"
#include "model/config.h"
#include "model/metric_table.h"
#include "model/timeline.h"

/* The text of a number macro's value, such as "256". */
#define TEXT_OF(n) #n
#define NUMBER_TEXT(n) TEXT_OF(n)

enum expr_kind { EXPR_NUMBER, EXPR_REF, EXPR_BINARY, EXPR_NEGATE };
enum aggregate { AGG_MEAN, AGG_MIN, AGG_MAX };

/* A reference to one metric of the runs of one strategy. */
struct expr_ref {
	char strategy[64];	/* strategy name */
	char mode[8];		/* claim mode, "" for any */
	int workers;		/* worker count, 0 for any */
	char group[64];		/* scenario section, "" for any */
	char path[64];		/* metric path; a phase's field when phase is set */
	char phase[40];		/* phase[NAME].FIELD: the timeline phase's name; "" for a run's metric */
	enum aggregate agg;	/* how the matching runs combine */
};

/* A node of an expression tree. */
struct expr {
	enum expr_kind kind;	/* what it is */
	double number;		/* EXPR_NUMBER: the value */
	struct expr_ref ref;	/* EXPR_REF: the reference */
	char op;		/* EXPR_BINARY: + - * / */
	struct expr *left;	/* EXPR_BINARY: left operand; EXPR_NEGATE: the operand */
	struct expr *right;	/* EXPR_BINARY: right operand */
};

/* The parser's position and error. */
struct parser {
	const char *text;	/* the whole assertion */
	const char *p;		/* the next character */
	char *err;		/* where an error goes */
	size_t errlen;		/* its size */
	bool failed;		/* an error was recorded */
	int depth;		/* the ( and unary - open around ps->p */
	int nodes;		/* the nodes made so far */
};

static struct expr *parse_sum(struct parser *ps);

/* Records an error at the current column (the first one wins). Returns NULL. */
static struct expr *parse_error(struct parser *ps, const char *expected)
{
	if (!ps->failed)
		snprintf(ps->err, ps->errlen, "expected %s at column %d of \"%s\"", expected,
			 (int)(ps->p - ps->text) + 1, ps->text);
	ps->failed = true;
	return NULL;
}

static void skip_space(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static void free_expr(struct expr *e)
{
	if (!e)
		return;
	free_expr(e->left);
	free_expr(e->right);
	free(e);
}

/* A new node of kind, or NULL with an error. */
static struct expr *new_expr(struct parser *ps, enum expr_kind kind)
{
	struct expr *e;

	if (++ps->nodes > EXPECT_MAX_TERMS)
		return parse_error(ps, "at most " NUMBER_TEXT(EXPECT_MAX_TERMS) " numbers, references and operators");
	e = calloc(1, sizeof(*e));
	if (!e)
		parse_error(ps, "memory");
	else
		e->kind = kind;
	return e;
}

/* True for the characters of a reference: strategy names, :mode, @workers, [group], .path. */
static bool ref_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == ':' || c == '@' || c == '.' || c == '[' ||
	       c == ']';
}

/* Moves a trailing [GROUP] of head into ref->group. 0, or -1 with an error. */
static int split_group(struct parser *ps, char *head, struct expr_ref *ref)
{
	char *open = strchr(head, '['), *close = strchr(head, ']');
	size_t len = strlen(head);

	if (!open && !close)
		return 0;
	if (!open || close != head + len - 1 || close < open + 2 || strchr(open + 1, '[') ||
	    (size_t)(close - open - 1) >= sizeof(ref->group)) {
		parse_error(ps, "a scenario section in [] at the end of STRATEGY[:MODE][@WORKERS][SECTION]");
		return -1;
	}
	memcpy(ref->group, open + 1, (size_t)(close - open - 1));
	ref->group[close - open - 1] = '\0';
	*open = '\0';
	return 0;
}

/*
 * Moves a path phase[NAME].FIELD of ref into ref->phase (NAME) and ref->path (FIELD), a
 * field of model/timeline.h's list. 0 (also for a path that names no phase), or -1 with an error.
 */
static int split_phase(struct parser *ps, struct expr_ref *ref)
{
	static const char open[] = "phase[";
	char *name = ref->path + strlen(open), *close;
	size_t i;

	if (strncmp(ref->path, open, strlen(open)) != 0)
		return 0;
	close = strchr(name, ']');
	if (!close || close == name || close[1] != '.' || (size_t)(close - name) >= sizeof(ref->phase)) {
		parse_error(ps, "phase[NAME].FIELD, NAME a phase of the run's timeline (clean, idle-in-tx, clean-2 ...)");
		return -1;
	}
	memcpy(ref->phase, name, (size_t)(close - name));
	ref->phase[close - name] = '\0';
	for (i = 0; timeline_field_names[i] && strcmp(timeline_field_names[i], close + 2) != 0; i++)
		;
	if (!timeline_field_names[i]) {
		char known[512];
		size_t used = 0;

		for (size_t k = 0; timeline_field_names[k] && used < sizeof(known); k++)
			used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s", k ? ", " : "",
						 timeline_field_names[k]);
		snprintf(ps->err, ps->errlen, "unknown phase field \"%s\" before column %d of \"%s\"; known: %s",
			 close + 2, (int)(ps->p - ps->text) + 1, ps->text, known);
		ps->failed = true;
		return -1;
	}
	memmove(ref->path, close + 2, strlen(close + 2) + 1);
	return 0;
}

/* The prefix of an adapter's strategy name (adapter:NAME, docs/adapters.md), whose colon is no mode's. */
#define EXPECT_ADAPTER_PREFIX "adapter:"

/* Splits word (STRATEGY[:MODE][@WORKERS][[SECTION]].PATH) into ref. 0, or -1 with an error. */
static int split_ref(struct parser *ps, const char *word, struct expr_ref *ref)
{
	const char *dot = strchr(word, '.');
	char head[128];
	char *at, *colon;

	if (!dot || dot == word || !dot[1] || (size_t)(dot - word) >= sizeof(head) ||
	    strlen(dot + 1) >= sizeof(ref->path)) {
		parse_error(ps, "a reference STRATEGY[:MODE][@WORKERS].METRIC");
		return -1;
	}
	memcpy(head, word, (size_t)(dot - word));
	head[dot - word] = '\0';
	strcpy(ref->path, dot + 1);
	if (split_phase(ps, ref) < 0 || split_group(ps, head, ref) < 0)
		return -1;
	at = strchr(head, '@');
	if (at) {
		char *end;

		*at = '\0';
		errno = 0;
		ref->workers = (int)strtol(at + 1, &end, 10);
		if (errno || *end || ref->workers < 1) {
			parse_error(ps, "a worker count after @");
			return -1;
		}
	}
	colon = strrchr(head, ':');
	if (colon && colon - head == (ptrdiff_t)strlen(EXPECT_ADAPTER_PREFIX) - 1 &&
	    strncmp(head, EXPECT_ADAPTER_PREFIX, strlen(EXPECT_ADAPTER_PREFIX)) == 0)
		colon = NULL; /* adapter:NAME, no mode */
	if (colon) {
		*colon = '\0';
		if (strcmp(colon + 1, claim_mode_name(MODE_HOLD)) != 0 && strcmp(colon + 1, claim_mode_name(MODE_FLIP)) != 0) {
			parse_error(ps, "hold or flip after :");
			return -1;
		}
		strcpy(ref->mode, colon + 1);
	}
	if (!*head || strlen(head) >= sizeof(ref->strategy)) {
		parse_error(ps, "a strategy name");
		return -1;
	}
	strcpy(ref->strategy, head);
	return 0;
}

/* reference | min(reference) | max(reference) | mean(reference), at ps->p. */
static struct expr *parse_ref(struct parser *ps)
{
	static const char *const aggs[] = { "mean", "min", "max" };
	char word[192];
	size_t len = 0;
	struct expr *e;
	int agg = AGG_MEAN;

	while (ref_char(ps->p[len]))
		len++;
	if (len == 0 || len >= sizeof(word))
		return parse_error(ps, "a number, a reference or (");
	memcpy(word, ps->p, len);
	word[len] = '\0';
	ps->p += len;
	skip_space(ps);
	if (*ps->p == '(') {
		for (agg = 0; agg < 3 && strcmp(word, aggs[agg]) != 0; agg++)
			;
		if (agg == 3)
			return parse_error(ps, "mean, min or max before (");
		ps->p++;
		skip_space(ps);
		for (len = 0; ref_char(ps->p[len]); len++)
			;
		if (len == 0 || len >= sizeof(word))
			return parse_error(ps, "a reference inside the parentheses");
		memcpy(word, ps->p, len);
		word[len] = '\0';
		ps->p += len;
		skip_space(ps);
		if (*ps->p != ')')
			return parse_error(ps, ")");
		ps->p++;
	}
	e = new_expr(ps, EXPR_REF);
	if (!e)
		return NULL;
	e->ref.agg = (enum aggregate)agg;
	if (split_ref(ps, word, &e->ref) < 0) {
		free(e);
		return NULL;
	}
	return e;
}

/* The length of the run of decimal digits at p. */
static size_t digits(const char *p)
{
	size_t n = 0;

	while (isdigit((unsigned char)p[n]))
		n++;
	return n;
}

/* A decimal number at ps->p: DIGITS[.DIGITS][e[+-]DIGITS] or .DIGITS..., finite. */
static struct expr *parse_number(struct parser *ps)
{
	const char *p = ps->p;
	char text[64];
	size_t len;
	struct expr *e;

	p += digits(p);
	if (*p == '.')
		p += 1 + digits(p + 1);
	if (*p == 'e' || *p == 'E') {
		size_t sign = p[1] == '+' || p[1] == '-';

		if (digits(p + 1 + sign))
			p += 1 + sign + digits(p + 1 + sign);
	}
	len = (size_t)(p - ps->p);
	if (ref_char(*p) || len >= sizeof(text))
		return parse_error(ps, "a decimal number such as 12, 0.5 or 2e3");
	memcpy(text, ps->p, len);
	text[len] = '\0';
	e = new_expr(ps, EXPR_NUMBER);
	if (!e)
		return NULL;
	e->number = strtod(text, NULL);
	if (!isfinite(e->number)) {
		free(e);
		return parse_error(ps, "a number within the range of a double");
	}
	ps->p = p;
	return e;
}

/* number | reference | aggregate | ( sum ) | - factor, at most EXPECT_MAX_DEPTH ( and - deep */
static struct expr *parse_factor(struct parser *ps)
{
	struct expr *e;

	skip_space(ps);
	if ((*ps->p == '(' || *ps->p == '-') && ps->depth >= EXPECT_MAX_DEPTH)
		return parse_error(ps, "at most " NUMBER_TEXT(EXPECT_MAX_DEPTH) " levels of ( and unary - inside each other");
	if (*ps->p == '(') {
		ps->p++;
		ps->depth++;
		e = parse_sum(ps);
		ps->depth--;
		if (!e)
			return NULL;
		skip_space(ps);
		if (*ps->p != ')') {
			free_expr(e);
			return parse_error(ps, ")");
		}
		ps->p++;
		return e;
	}
	if (*ps->p == '-') {
		ps->p++;
		e = new_expr(ps, EXPR_NEGATE);
		ps->depth++;
		if (e && !(e->left = parse_factor(ps))) {
			free(e);
			e = NULL;
		}
		ps->depth--;
		return e;
	}
	if (isdigit((unsigned char)*ps->p) || (*ps->p == '.' && isdigit((unsigned char)ps->p[1])))
		return parse_number(ps);
	return parse_ref(ps);
}

/* a op b, op one of + - * / */
static double apply(char op, double a, double b)
{
	return op == '+' ? a + b : op == '-' ? a - b : op == '*' ? a * b : a / b;
}

/* Whether x holds numbers only; then its value is in *value. */
static bool constant(const struct expr *x, double *value)
{
	double a, b;

	switch (x->kind) {
	case EXPR_NUMBER:
		*value = x->number;
		return true;
	case EXPR_NEGATE:
		if (!constant(x->left, &a))
			return false;
		*value = -a;
		return true;
	case EXPR_BINARY:
		if (!constant(x->left, &a) || !constant(x->right, &b))
			return false;
		*value = apply(x->op, a, b);
		return true;
	case EXPR_REF:
		break;
	}
	return false;
}

/* Refuses a division by a constant 0 and numbers that combine into no finite number. 0, or -1 with an error. */
static int check_constant(struct parser *ps, const struct expr *node)
{
	double v;

	if (node->op == '/' && constant(node->right, &v) && v == 0) {
		parse_error(ps, "a divisor other than 0");
		return -1;
	}
	if (constant(node, &v) && !isfinite(v)) {
		parse_error(ps, "numbers whose result is within the range of a double");
		return -1;
	}
	return 0;
}

/* Parses a left-associative chain of next separated by the operators in ops. */
static struct expr *parse_chain(struct parser *ps, const char *ops, struct expr *(*next)(struct parser *))
{
	struct expr *left = next(ps);

	while (left) {
		struct expr *node;

		skip_space(ps);
		if (!*ps->p || !strchr(ops, *ps->p))
			return left;
		node = new_expr(ps, EXPR_BINARY);
		if (!node)
			break;
		node->op = *ps->p++;
		node->left = left;
		left = node;
		node->right = next(ps);
		if (!node->right || check_constant(ps, node) < 0)
			break;
	}
	free_expr(left);
	return NULL;
}

static struct expr *parse_product(struct parser *ps)
{
	return parse_chain(ps, "*/", parse_factor);
}

static struct expr *parse_sum(struct parser *ps)
{
	return parse_chain(ps, "+-", parse_product);
}

/* Reads a comparison operator at ps->p. 0, or -1 with an error. */
static int parse_compare(struct parser *ps, enum compare_op *op)
{
	static const struct { const char *text; enum compare_op op; } ops[] = {
		{ "==", CMP_EQ }, { "!=", CMP_NE }, { "<=", CMP_LE }, { ">=", CMP_GE }, { "<", CMP_LT }, { ">", CMP_GT },
	};

	skip_space(ps);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t len = strlen(ops[i].text);

		if (strncmp(ps->p, ops[i].text, len) == 0) {
			ps->p += len;
			*op = ops[i].op;
			return 0;
		}
	}
	parse_error(ps, "one of == != < <= > >=");
	return -1;
}

int expect_parse(const char *name, const char *text, struct expectation *out, char *err, size_t errlen)
{
	struct parser ps = { .text = text, .p = text, .err = err, .errlen = errlen };

	memset(out, 0, sizeof(*out));
	out->lhs = parse_sum(&ps);
	if (out->lhs && parse_compare(&ps, &out->op) == 0)
		out->rhs = parse_sum(&ps);
	skip_space(&ps);
	if (out->rhs && *ps.p)
		parse_error(&ps, "the end of the assertion");
	out->name = strdup(name);
	out->text = strdup(text);
	if (!ps.failed && (!out->name || !out->text))
		parse_error(&ps, "memory");
	if (ps.failed) {
		expect_free(out);
		return -1;
	}
	return 0;
}

void expect_free(struct expectation *e)
{
	free_expr(e->lhs);
	free_expr(e->rhs);
	free(e->name);
	free(e->text);
	memset(e, 0, sizeof(*e));
}

/* Checks the references in tree x against the n runs to be made. 0, or -1 with err. */
static int check_refs(const struct expr *x, const struct expect_target *targets, size_t n, char *err, size_t errlen)
{
	bool known = false, in_group = false, has_phase = false;
	char paths[2048];

	if (!x)
		return 0;
	if (x->kind != EXPR_REF)
		return check_refs(x->left, targets, n, err, errlen) < 0 ? -1 : check_refs(x->right, targets, n, err, errlen);
	for (size_t i = 0; i < n; i++) {
		bool same = strcmp(targets[i].strategy, x->ref.strategy) == 0, here;

		known |= same;
		here = same && (!x->ref.group[0] || (targets[i].group && strcmp(targets[i].group, x->ref.group) == 0));
		in_group |= here;
		has_phase |= here && targets[i].timeline && timeline_has_phase(targets[i].timeline, x->ref.phase);
	}
	if (!known) {
		snprintf(err, errlen, "strategy \"%s\" is not among the strategies this scenario runs", x->ref.strategy);
		return -1;
	}
	if (!in_group) {
		snprintf(err, errlen, "section [%s] runs no strategy \"%s\"", x->ref.group, x->ref.strategy);
		return -1;
	}
	if (x->ref.phase[0] && !has_phase) {
		snprintf(err, errlen, "phase[%s]: no timeline (--phase) of %s%s%s%s has a phase so named (a phase is named by "
			 "its kind, the second of a kind KIND-2 ...)", x->ref.phase, x->ref.strategy, x->ref.group[0] ? " in [" : "",
			 x->ref.group, x->ref.group[0] ? "]" : "");
		return -1;
	}
	if (!x->ref.phase[0] && !metric_find(x->ref.path)) {
		metric_paths_list(paths, sizeof(paths));
		snprintf(err, errlen, "unknown metric \"%s\"; known: %s", x->ref.path, paths);
		return -1;
	}
	return 0;
}

int expect_check(const struct expectation *e, const struct expect_target *targets, size_t n, char *err,
		 size_t errlen)
{
	if (check_refs(e->lhs, targets, n, err, errlen) < 0)
		return -1;
	return check_refs(e->rhs, targets, n, err, errlen);
}

/* Whether tree x has a reference to strategy name. */
static bool names_strategy(const struct expr *x, const char *name)
{
	if (!x)
		return false;
	if (x->kind == EXPR_REF)
		return strcmp(x->ref.strategy, name) == 0;
	return names_strategy(x->left, name) || names_strategy(x->right, name);
}

bool expect_references(const struct expectation *e, const char *name)
{
	return names_strategy(e->lhs, name) || names_strategy(e->rhs, name);
}

/* Whether run r matches reference ref. */
static bool matches(const struct expr_ref *ref, const struct run_result *r)
{
	return strcmp(r->strategy, ref->strategy) == 0 && (!ref->mode[0] || strcmp(r->claim_mode, ref->mode) == 0) &&
	       (!ref->workers || r->workers == ref->workers) &&
	       (!ref->group[0] || (r->group && strcmp(r->group, ref->group) == 0));
}

/*
 * The value ref names in run r into *v: a metric, or a field of its timeline phase
 * ref->phase. 0, or -1 when r has no such metric or phase.
 */
static int ref_value(const struct expr_ref *ref, const struct run_result *r, double *v)
{
	if (!ref->phase[0])
		return metric_value(r, ref->path, v);
	for (size_t i = 0; i < r->n_timeline; i++)
		if (strcmp(r->timeline[i].name, ref->phase) == 0)
			return timeline_field(&r->timeline[i], ref->path, v);
	return -1;
}

/* Evaluates x over the runs into *out. 0, or -1 with err. */
static int eval(const struct expr *x, const struct run_result *runs, size_t n, double *out, char *err, size_t errlen)
{
	double a, b, sum = 0, v;
	size_t count = 0;

	switch (x->kind) {
	case EXPR_NUMBER:
		*out = x->number;
		return 0;
	case EXPR_NEGATE:
		if (eval(x->left, runs, n, &a, err, errlen) < 0)
			return -1;
		*out = -a;
		return 0;
	case EXPR_BINARY:
		if (eval(x->left, runs, n, &a, err, errlen) < 0 || eval(x->right, runs, n, &b, err, errlen) < 0)
			return -1;
		*out = apply(x->op, a, b);
		return 0;
	case EXPR_REF:
		break;
	}
	for (size_t i = 0; i < n; i++) {
		if (!matches(&x->ref, &runs[i]) || ref_value(&x->ref, &runs[i], &v) < 0)
			continue;
		if (count == 0 || (x->ref.agg == AGG_MIN && v < *out) || (x->ref.agg == AGG_MAX && v > *out))
			*out = v;
		sum += v;
		count++;
	}
	if (count == 0) {
		snprintf(err, errlen, "no run matches %s%s%s%s%.0d%s%s%s.%s%s%s%s", x->ref.strategy, x->ref.mode[0] ? ":" : "",
			 x->ref.mode, x->ref.workers ? "@" : "", x->ref.workers, x->ref.group[0] ? "[" : "", x->ref.group,
			 x->ref.group[0] ? "]" : "", x->ref.phase[0] ? "phase[" : "", x->ref.phase, x->ref.phase[0] ? "]." : "",
			 x->ref.path);
		return -1;
	}
	if (x->ref.agg == AGG_MEAN)
		*out = sum / (double)count;
	return 0;
}

int expect_eval(const struct expectation *e, const struct run_result *runs, size_t n, double *lhs, double *rhs,
		bool *pass, char *err, size_t errlen)
{
	if (eval(e->lhs, runs, n, lhs, err, errlen) < 0 || eval(e->rhs, runs, n, rhs, err, errlen) < 0)
		return -1;
	if (!isfinite(*lhs) || !isfinite(*rhs)) {
		snprintf(err, errlen, "%g vs %g: a side is not a finite number (a division by 0?)", *lhs, *rhs);
		return -1;
	}
	switch (e->op) {
	case CMP_EQ: *pass = *lhs == *rhs; break;
	case CMP_NE: *pass = *lhs != *rhs; break;
	case CMP_LT: *pass = *lhs < *rhs; break;
	case CMP_LE: *pass = *lhs <= *rhs; break;
	case CMP_GT: *pass = *lhs > *rhs; break;
	case CMP_GE: *pass = *lhs >= *rhs; break;
	}
	return 0;
}
