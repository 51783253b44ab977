/*
 * sql-defined: a strategy a scenario file writes in SQL alone ([strategy NAME]), as
 * pgbench runs a user's script. One strategy_ops per definition, built before the run
 * starts; the claim runs the user's claim statement in a transaction (begun IMMEDIATE on
 * SQLite) and, unless that statement marked the job active itself (it writes :worker),
 * marks it active as the harness does for a select-then-update claim. Complete and fail
 * run the user's statements when given, else the harness's fenced ones.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "queue/claim.h"
#include "plugin/sql_strategy.h"
#include "queue/worker.h"

enum { SLOT_CLAIM = SLOT_STRATEGY, SLOT_DONE, SLOT_FAILED };

/* The placeholders' names, by enum sql_param. */
static const char *const param_names[SQL_PARAM_COUNT] = {
	[SQL_PARAM_QUEUE] = "queue",
	[SQL_PARAM_WORKER] = "worker",
	[SQL_PARAM_ID] = "id",
	[SQL_PARAM_ATTEMPT] = "attempt",
};

/* The {word} placeholders the run fills (sql_expand), as a user's statement may use them. */
static const char *const run_words[] = { "jobs", "now", "claimable", "unfinished", "lease_until" };

#define BIT(p) (1u << (p))

unsigned sql_role_params(enum sql_role role)
{
	if (role == SQL_ROLE_CLAIM)
		return BIT(SQL_PARAM_QUEUE) | BIT(SQL_PARAM_WORKER);
	return BIT(SQL_PARAM_ID) | BIT(SQL_PARAM_WORKER) | BIT(SQL_PARAM_ATTEMPT);
}

const char *sql_role_key(enum sql_role role)
{
	static const char *const keys[SQL_ROLE_COUNT] = { "claim", "complete", "fail" };

	return keys[role];
}

/* The length of the identifier at s (letters, digits, _), 0 when none starts there. */
static size_t word_length(const char *s)
{
	size_t n = 0;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n;
}

/* The length of what at s is copied as it is: a quoted text or identifier, or a comment; 0 when none starts there. */
static size_t verbatim_length(const char *s)
{
	const char *end;

	if (*s == '\'' || *s == '"') {
		end = strchr(s + 1, *s);
		return end ? (size_t)(end - s) + 1 : strlen(s);
	}
	if (s[0] == '-' && s[1] == '-')
		return strcspn(s, "\n");
	if (s[0] == '/' && s[1] == '*') {
		end = strstr(s + 2, "*/");
		return end ? (size_t)(end - s) + 2 : strlen(s);
	}
	if (s[0] == ':' && s[1] == ':')
		return 2;
	return 0;
}

/* The list of role's parameters as ":queue, :worker", for a message. */
static void allowed_list(enum sql_role role, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int p = 0; p < SQL_PARAM_COUNT && used < len; p++)
		if (sql_role_params(role) & BIT(p))
			used += (size_t)snprintf(buf + used, len - used, "%s:%s", used ? ", " : "", param_names[p]);
}

/* Checks the {word} at s is one the run fills; its length, or 0 with err. */
static size_t run_word_length(const char *s, char *err, size_t errlen)
{
	size_t n = word_length(s + 1);

	for (size_t i = 0; n && s[n + 1] == '}' && i < sizeof(run_words) / sizeof(run_words[0]); i++)
		if (strlen(run_words[i]) == n && strncmp(run_words[i], s + 1, n) == 0)
			return n + 2;
	snprintf(err, errlen, "unknown placeholder %.*s (the run fills {jobs}, {now}, {claimable}, {unfinished} "
		 "and {lease_until})", (int)(n + 2 < 40 ? n + 2 : 40), s);
	return 0;
}

/*
 * Turns the :name at s into $n in st, numbering a name on first use. Its length, or 0
 * with err when the name is unknown or not one of role's.
 */
static size_t translate_param(struct sql_defined_statement *st, enum sql_role role, const char *s, char *out,
			      size_t outlen, char *err, size_t errlen)
{
	size_t n = word_length(s + 1);
	char allowed[64];
	int p = 0, i = 0;

	while (p < SQL_PARAM_COUNT && !(strlen(param_names[p]) == n && strncmp(param_names[p], s + 1, n) == 0))
		p++;
	allowed_list(role, allowed, sizeof(allowed));
	if (p == SQL_PARAM_COUNT || !(sql_role_params(role) & BIT(p))) {
		snprintf(err, errlen, "%s placeholder :%.*s (a %s statement may use %s)",
			 p == SQL_PARAM_COUNT ? "unknown" : "no value for the", (int)(n < 40 ? n : 40), s + 1,
			 sql_role_key(role), allowed);
		return 0;
	}
	while (i < st->nparams && st->params[i] != (enum sql_param)p)
		i++;
	if (i == st->nparams)
		st->params[st->nparams++] = (enum sql_param)p;
	snprintf(out, outlen, "$%d", i + 1);
	return n + 1;
}

int sql_strategy_set(struct sql_strategy *def, enum sql_role role, const char *text, const char *origin, char *err,
		     size_t errlen)
{
	struct sql_defined_statement *st = &def->roles[role];
	size_t pos = 0;

	memset(st, 0, sizeof(*st));
	snprintf(st->origin, sizeof(st->origin), "%s", origin);
	if (strlen(text) >= sizeof(st->written)) {
		snprintf(err, errlen, "the statement is longer than %zu bytes", sizeof(st->written) - 1);
		return -1;
	}
	strcpy(st->written, text);
	while (*text) {
		char piece[12];		/* the $n a :name becomes: room for any int */
		const char *from = text;	/* what is copied: the text itself, or piece */
		size_t n = verbatim_length(text), copied;

		if (n == 0 && text[0] == '$' && isdigit((unsigned char)text[1])) {
			snprintf(err, errlen, "write parameters by name (:queue, :worker, :id, :attempt), not as $n");
			return -1;
		}
		if (n == 0 && text[0] == '{' && !(n = run_word_length(text, err, errlen)))
			return -1;
		if (n == 0 && text[0] == ':' && word_length(text + 1)) {
			n = translate_param(st, role, text, piece, sizeof(piece), err, errlen);
			if (!n)
				return -1;
			from = piece;
		}
		if (n == 0)
			n = 1;
		copied = from == piece ? strlen(piece) : n;
		if (pos + copied >= sizeof(st->sql)) {
			snprintf(err, errlen, "the statement is longer than %zu bytes", sizeof(st->sql) - 1);
			return -1;
		}
		memcpy(st->sql + pos, from, copied);
		pos += copied;
		text += n;
	}
	st->sql[pos] = '\0';
	st->given = true;
	return 0;
}

static enum claim_result sql_claim(struct worker *w, int64_t *job_id);

const struct sql_strategy *sql_strategy_of(const struct strategy_ops *st)
{
	return st->claim == sql_claim ? (const struct sql_strategy *)st : NULL;	/* ops is its first member */
}

/* The definition whose strategy w runs. */
static const struct sql_strategy *definition(const struct worker *w)
{
	return sql_strategy_of(w->shared->strategy);
}

/* Points params at what st's $1..$n stand for for w, with id the job's id as text. */
static void fill_params(const struct sql_defined_statement *st, const struct worker *w, const char *id,
			const char **params)
{
	for (int i = 0; i < st->nparams; i++) {
		switch (st->params[i]) {
		case SQL_PARAM_QUEUE:
			params[i] = w->queue;
			break;
		case SQL_PARAM_WORKER:
			params[i] = w->identity_text;
			break;
		case SQL_PARAM_ID:
			params[i] = id;
			break;
		default:
			params[i] = w->attempt_text;
			break;
		}
	}
}

/* Ends w with a broken contract of the claim (why) and rolls its transaction back. CLAIM_ERROR. */
static enum claim_result broken_claim(struct worker *w, const char *why)
{
	char reason[sizeof(w->abort_reason)];

	snprintf(reason, sizeof(reason), "claim of strategy %s %s", definition(w)->name, why);
	worker_abort_strategy(w, reason);
	worker_rollback(w);
	return CLAIM_ERROR;
}

/*
 * Runs the claim statement in a transaction: at most one row (id, and attempts when it
 * marks the job active itself), which the harness marks active otherwise; commits in
 * flip mode, keeps the transaction open in hold mode.
 */
static enum claim_result sql_claim(struct worker *w, int64_t *job_id)
{
	const struct sql_strategy *def = definition(w);
	const struct sql_defined_statement *st = &def->roles[SQL_ROLE_CLAIM];
	const char *params[SQL_PARAM_COUNT];
	int64_t claimed[2] = { 0, -1 };	/* the job and, from a claim that marks it, its attempt number */
	int rows;

	fill_params(st, w, NULL, params);
	if (worker_begin(w) < 0)
		return CLAIM_ERROR;
	rows = worker_exec(w, SLOT_CLAIM, st->nparams, params, claimed, 2);
	if (rows > 1)
		return broken_claim(w, "returned several rows: it must take at most one job");
	*job_id = claimed[0];
	if (!def->claim_marks || rows <= 0)
		return claim_picked(w, rows, job_id);
	if (claimed[1] < 0)
		return broken_claim(w, "marks the job active (it writes :worker) but returned no attempt "
				    "number: end it with RETURNING id, attempts");
	worker_note_attempt(w, claimed[1]);
	if (w->shared->mode == MODE_FLIP && worker_commit(w) < 0)
		return CLAIM_ERROR;
	return CLAIM_OK;
}

/* Marks the job done or failed with the definition's statement for it, else the harness's. */
static int sql_finish(struct worker *w, int64_t job_id, int slot)
{
	const struct sql_strategy *def = definition(w);
	enum sql_role role = slot == SLOT_COMPLETE ? SQL_ROLE_COMPLETE : SQL_ROLE_FAIL;
	const struct sql_defined_statement *st = &def->roles[role];
	const char *params[SQL_PARAM_COUNT];
	char id[24];

	if (!st->given)
		return worker_finish(w, job_id, slot);
	fill_params(st, w, worker_id_text(id, job_id), params);
	return worker_settle(w, worker_exec(w, role == SQL_ROLE_COMPLETE ? SLOT_DONE : SLOT_FAILED, st->nparams,
					    params, NULL, 0));
}

/* What the harness reads from each statement's result, for the refusal of one that cannot return it. */
static const char claim_returns[] = "the job's id first, at most one row: SELECT id ... LIMIT 1, or an UPDATE "
				    "... RETURNING id";
static const char marking_claim_returns[] = "the job's id and attempts (it writes :worker, so it marks the job "
					    "active itself): end it with RETURNING id, attempts";
static const char finish_returns[] = "a row when it marked the job, none when it refused: end it with RETURNING id";

void sql_strategy_finish(struct sql_strategy *def, unsigned dialect_bits, unsigned mode_bits, unsigned session_needs)
{
	static const int slots[SQL_ROLE_COUNT] = { SLOT_CLAIM, SLOT_DONE, SLOT_FAILED };
	size_t n = 0;

	def->claim_marks = false;
	for (int r = 0; r < SQL_ROLE_COUNT; r++) {
		const struct sql_defined_statement *st = &def->roles[r];

		if (!st->given)
			continue;
		def->statements[n] = (struct strategy_statement){ .slot = slots[r], .nparams = st->nparams,
								  .sql = { [DIALECT_POSTGRESQL] = st->sql,
									   [DIALECT_SQLITE] = st->sql,
									   [DIALECT_MARIADB] = st->sql } };
		def->contracts[n] = (struct result_contract){ .columns = 1, .returns = finish_returns };
		def->origins[n++] = st->origin;
		for (int i = 0; r == SQL_ROLE_CLAIM && i < st->nparams; i++)
			def->claim_marks |= st->params[i] == SQL_PARAM_WORKER;
	}
	if (def->roles[SQL_ROLE_CLAIM].given)
		def->contracts[0] = def->claim_marks ?
			(struct result_contract){ .columns = 2, .integers = 2, .returns = marking_claim_returns } :
			(struct result_contract){ .columns = 1, .integers = 1, .returns = claim_returns };
	def->ops = (struct strategy_ops){
		.name = def->name,
		.summary = def->summary,
		.session_needs = SESSION_NEEDS_PREPARED | session_needs,
		.dialects = dialect_bits,
		.modes = mode_bits,
		.default_mode = mode_bits & MODE_BIT(MODE_FLIP) ? MODE_FLIP : MODE_HOLD,
		.statements = def->statements,
		.n_statements = n,
		.origins = def->origins,
		.contracts = def->contracts,
		.begin_sql = { [DIALECT_SQLITE] = "BEGIN IMMEDIATE" },
		.claim = sql_claim,
		.finish = sql_finish,
	};
}
