/* Unit tests of scenario files and expectations. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "temp_file.h"
#include "analysis/expect.h"
#include "cli/scenario.h"
#include "cli/scenario_strategies.h"

/* Loads text as a scenario file; on failure err holds the message. 0 or -1. */
static int load(const char *name, const char *text, struct scenario *s, char *err, size_t errlen)
{
	const char *path = temp_file_write(name, text);
	int rc = scenario_load(path, s, err, errlen);

	unlink(path);
	return rc;
}

static void test_good_file(void)
{
	struct scenario s;
	char err[512] = "";
	const struct scenario_section *g, *e;
	int rc = load("good", "# a comment\n[global]\njobs = 200\nworkers = 1,2,4 ; inline comment\n\n"
			      "[blocking]\nstrategy = for-update\n[expect]\nno dups = skip-locked.duplicates == 0\n",
		      &s, err, sizeof(err));

	CHECK_EQ(rc, 0, "a good file parses (%s)", err);
	if (rc < 0)
		return;
	CHECK(strstr(s.name, "good") != NULL && strstr(s.name, ".ini") == NULL,
	      "the scenario is named after its file without .ini (%s)", s.name);
	CHECK(strstr(s.text, "[blocking]") != NULL, "the file's text is kept");
	CHECK_EQ(s.n_sections, 3, "three sections in file order");
	g = scenario_section(&s, "global");
	CHECK(g && g->n_entries == 2 && strcmp(g->entries[1].key, "workers") == 0 &&
	      strcmp(g->entries[1].value, "1,2,4") == 0 && g->entries[1].line == 4,
	      "keys keep their trimmed value (inline comment dropped) and their line");
	e = scenario_section(&s, "expect");
	CHECK(e && e->n_entries == 1 && strcmp(e->entries[0].key, "no dups") == 0 &&
	      strcmp(e->entries[0].value, "skip-locked.duplicates == 0") == 0 && e->entries[0].line == 9,
	      "an expectation's name is its key and its assertion the value");
	CHECK_EQ(scenario_section(&s, "missing"), NULL, "scenario_section returns NULL for an absent section");
	scenario_free(&s);
}

/* Checks that text fails to load with a message containing want. */
static void check_bad(const char *what, const char *text, const char *want)
{
	struct scenario s;
	char err[512] = "";
	int rc = load("bad", text, &s, err, sizeof(err));

	CHECK(rc == -1 && strstr(err, want) != NULL, "%s: refused with \"%s\" (got \"%s\")", what, want, err);
}

static void test_bad_files(void)
{
	struct scenario s;
	char err[512] = "";

	check_bad("a line that is no key = value", "[global]\njobs = 1\nthis is not a key\n",
		  "bad.ini:3: expected [section], key = value");
	check_bad("an unclosed section header", "[global\njobs = 1\n", "bad.ini:1: expected [section]");
	check_bad("a key before any section", "jobs = 1\n[global]\n", ":1: a key before any [section]");
	check_bad("a key given twice", "[global]\njobs = 1\nworkers = 2\njobs = 3\n",
		  ":4: key given twice in this section (first at line 2)");
	check_bad("a section given twice", "[a]\njobs = 1\n[b]\njobs = 1\n[a]\nworkers = 2\n",
		  ":5: this section was already given: a");
	CHECK(scenario_load("/nonexistent/x.ini", &s, err, sizeof(err)) == -1 &&
	      strstr(err, "/nonexistent/x.ini: cannot read the scenario") != NULL, "a missing file names itself (%s)",
	      err);
}

/* Loads text of len bytes (NUL bytes allowed) as a scenario file; on failure err holds the message. 0 or -1. */
static int load_bytes(const char *text, size_t len, struct scenario *s, char *err, size_t errlen)
{
	const char *path = temp_file_write("bytes", "");
	FILE *f = fopen(path, "w");
	int rc;

	check_need(f && fwrite(text, 1, len, f) == len && fclose(f) == 0, "writing a scenario");
	rc = scenario_load(path, s, err, errlen);
	unlink(path);
	return rc;
}

/* Lines as long as real statements, up to SCENARIO_MAX_LINE; NUL bytes and longer lines refused with file:line. */
static void test_line_limits(void)
{
	static char text[2 * SCENARIO_MAX_LINE];
	struct scenario s;
	char err[512] = "";
	const struct scenario_section *sec;
	size_t head;
	int rc;

	head = (size_t)snprintf(text, sizeof(text), "[global]\njobs = 1\n[strategy long]\nclaim = SELECT id FROM {jobs} WHERE ");
	while (head < SCENARIO_MAX_LINE - 100)
		head += (size_t)snprintf(text + head, sizeof(text) - head, "queue = :queue AND ");
	head += (size_t)snprintf(text + head, sizeof(text) - head, "true LIMIT 1 ; a comment\n");
	rc = load("long", text, &s, err, sizeof(err));
	sec = rc == 0 ? scenario_section(&s, "strategy long") : NULL;
	CHECK(sec && sec->n_entries == 1 && strlen(sec->entries[0].value) > 60000 &&
	      strcmp(sec->entries[0].value + strlen(sec->entries[0].value) - 12, "true LIMIT 1") == 0,
	      "a line of %zu bytes is read whole, its comment cut off (%s)", strlen(strstr(text, "claim")), err);
	if (rc == 0)
		scenario_free(&s);
	snprintf(text, sizeof(text), "[global]\njobs = 1\n; ");
	memset(text + strlen(text), 'x', SCENARIO_MAX_LINE);
	strcat(text, "\nworkers = 2\n");
	CHECK(load("toolong", text, &s, err, sizeof(err)) == -1 &&
	      strstr(err, "toolong.ini:3: line too long: a line may hold at most 65536 bytes") != NULL,
	      "a line of 65,538 bytes is refused with its line (%s)", err);
	rc = load_bytes("[global]\njobs = 1 ;\0\nworkers = 2\n", 32, &s, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "bytes.ini:2: a NUL byte in the line: a scenario is text") != NULL,
	      "a NUL byte is refused with its line, not hiding the rest of the line (%s)", err);
	if (rc == 0)
		scenario_free(&s);
	err[0] = '\0';
	rc = load("dialect", "\xEF\xBB\xBF[global]\njobs: 5\n  ; an indented comment\nworkers = 1,2 ;a comment\n"
		  "note = a;b\n[g]\n  jobs = 7\n", &s, err, sizeof(err));
	sec = rc == 0 ? scenario_section(&s, "global") : NULL;
	CHECK(sec && sec->n_entries == 3 && strcmp(sec->entries[0].value, "5") == 0 &&
	      strcmp(sec->entries[1].value, "1,2") == 0 && strcmp(sec->entries[2].value, "a;b") == 0 &&
	      scenario_section(&s, "g") && scenario_section(&s, "g")->entries[0].line == 7,
	      "a byte order mark, key: value, indented comments, ; after a blank only, an indented first key (%s)", err);
	if (rc == 0)
		scenario_free(&s);
}

/* Two hand-made runs per strategy to evaluate expectations over. */
static void make_runs(struct run_result *runs)
{
	memset(runs, 0, 4 * sizeof(*runs));
	runs[0] = (struct run_result){ .strategy = "skip-locked", .claim_mode = "hold", .workers = 10, .group = "a" };
	runs[0].metrics.makespan_s = 2.0;
	runs[0].metrics.fairness.jain = 1.0;
	runs[1] = (struct run_result){ .strategy = "skip-locked", .claim_mode = "hold", .workers = 20, .group = "b" };
	runs[1].metrics.makespan_s = 1.0;
	runs[1].metrics.fairness.jain = 0.96;
	runs[2] = (struct run_result){ .strategy = "for-update", .claim_mode = "hold", .workers = 10 };
	runs[2].metrics.makespan_s = 20.0;
	runs[3] = (struct run_result){ .strategy = "naive", .claim_mode = "flip", .workers = 10 };
	runs[3].metrics.duplicates = 7;
}

/* Parses and evaluates text over runs; checks the verdict and the left side. */
static void check_eval(const char *text, const struct run_result *runs, bool want_pass, double want_lhs)
{
	struct expectation e;
	char err[256] = "";
	double lhs = 0, rhs = 0;
	bool pass = !want_pass;
	int rc = expect_parse("t", text, &e, err, sizeof(err));

	if (rc == 0)
		rc = expect_eval(&e, runs, 4, &lhs, &rhs, &pass, err, sizeof(err));
	CHECK(rc == 0 && pass == want_pass && lhs == want_lhs, "\"%s\" is %s with left side %g (got %s, %g; %s)",
	      text, want_pass ? "PASS" : "FAIL", want_lhs, pass ? "PASS" : "FAIL", lhs, err);
	expect_free(&e);
}

static void test_expectations(void)
{
	struct run_result runs[4];
	struct expectation e;
	const struct expect_target strategies[] = {
		{ "skip-locked", "a", NULL }, { "skip-locked", "b", NULL }, { "for-update", NULL, NULL }, { "naive", "", NULL },
	};
	char err[512];

	make_runs(runs);
	check_eval("skip-locked.duplicates == 0", runs, true, 0);
	check_eval("naive.duplicates > 0", runs, true, 7);
	check_eval("skip-locked.makespan_s <= 1.3", runs, false, 1.5);
	check_eval("max(skip-locked.makespan_s) == 2", runs, true, 2);
	check_eval("min(skip-locked.fairness.jain) >= 0.98", runs, false, 0.96);
	check_eval("skip-locked@10.fairness.jain >= 0.98", runs, true, 1);
	check_eval("for-update:hold.makespan_s >= 5 * skip-locked@10.makespan_s", runs, true, 20);
	check_eval("for-update.makespan_s / skip-locked.makespan_s - 10 > 3", runs, true, 20.0 / 1.5 - 10);
	check_eval("(1 + 2) * -2 == -6", runs, true, -6);
	check_eval("skip-locked[a].makespan_s == 2", runs, true, 2);
	check_eval("max(skip-locked:hold@20[b].fairness.jain) >= 0.98", runs, false, 0.96);
	check_eval("skip-locked[b].makespan_s * 2 == skip-locked[a].makespan_s", runs, true, 2);
	runs[3].strategy = "adapter:pgq"; /* an adapter's strategy: the colon after adapter is no mode's */
	check_eval("adapter:pgq.duplicates == 7", runs, true, 7);
	check_eval("max(adapter:pgq:flip@10.duplicates) > 0", runs, true, 7);
	CHECK(expect_parse("t", "adapter:pgq:grab.duplicates == 0", &e, err, sizeof(err)) == -1 &&
	      strstr(err, "hold or flip") != NULL, "an adapter's unknown claim mode is refused (%s)", err);
	runs[3].strategy = "naive";

	CHECK(expect_parse("t", "skip-locked.duplicates = 0", &e, err, sizeof(err)) == -1 &&
	      strstr(err, "expected one of == != < <= > >= at column 24") != NULL, "a single = is refused (%s)", err);
	CHECK(expect_parse("t", "skip-locked.duplicates == ", &e, err, sizeof(err)) == -1 &&
	      strstr(err, "expected a number, a reference or (") != NULL, "a missing right side is refused (%s)", err);
	CHECK(expect_parse("t", "skip-locked == 0", &e, err, sizeof(err)) == -1 &&
	      strstr(err, "a reference STRATEGY[:MODE][@WORKERS].METRIC") != NULL, "a reference without a metric (%s)",
	      err);
	CHECK(expect_parse("t", "median(naive.duplicates) == 0", &e, err, sizeof(err)) == -1 &&
	      strstr(err, "mean, min or max") != NULL, "an unknown aggregate (%s)", err);
	CHECK(expect_parse("t", "naive:grab.duplicates == 0", &e, err, sizeof(err)) == -1 &&
	      strstr(err, "hold or flip") != NULL, "an unknown claim mode (%s)", err);
	CHECK(expect_parse("t", "naive[a.duplicates == 0", &e, err, sizeof(err)) == -1 &&
	      strstr(err, "a scenario section in []") != NULL, "an unclosed section (%s)", err);
	CHECK(expect_parse("t", "naive[].duplicates == 0", &e, err, sizeof(err)) == -1 &&
	      strstr(err, "a scenario section in []") != NULL, "an empty section (%s)", err);
	CHECK(expect_parse("t", "naive[a]:flip.duplicates == 0", &e, err, sizeof(err)) == -1 &&
	      strstr(err, "a scenario section in []") != NULL, "a section not at the end (%s)", err);
	CHECK(expect_parse("t", "naive.duplicates == 0 0", &e, err, sizeof(err)) == -1 &&
	      strstr(err, "the end of the assertion") != NULL, "trailing text (%s)", err);

	CHECK(expect_parse("t", "ticket.duplicates == 0", &e, err, sizeof(err)) == 0 &&
	      expect_check(&e, strategies, 4, err, sizeof(err)) == -1 &&
	      strstr(err, "strategy \"ticket\" is not among") != NULL, "a strategy the scenario does not run (%s)", err);
	expect_free(&e);
	CHECK(expect_parse("t", "skip-locked[c].duplicates == 0", &e, err, sizeof(err)) == 0 &&
	      expect_check(&e, strategies, 4, err, sizeof(err)) == -1 &&
	      strstr(err, "section [c] runs no strategy \"skip-locked\"") != NULL, "a section that runs no such strategy (%s)",
	      err);
	expect_free(&e);
	CHECK(expect_parse("t", "for-update[a].duplicates == 0", &e, err, sizeof(err)) == 0 &&
	      expect_check(&e, strategies, 4, err, sizeof(err)) == -1 && strstr(err, "section [a] runs no strategy") != NULL,
	      "a strategy run only outside the section (%s)", err);
	expect_free(&e);
	CHECK(expect_parse("t", "naive.dupes == 0", &e, err, sizeof(err)) == 0 &&
	      expect_check(&e, strategies, 4, err, sizeof(err)) == -1 && strstr(err, "unknown metric \"dupes\"") != NULL,
	      "an unknown metric lists the known ones (%.60s...)", err);
	expect_free(&e);
	CHECK(expect_parse("t", "naive@99.duplicates == 0", &e, err, sizeof(err)) == 0 &&
	      expect_check(&e, strategies, 4, err, sizeof(err)) == 0, "a well-formed expectation passes the check");
	CHECK(expect_eval(&e, runs, 4, &(double){ 0 }, &(double){ 0 }, &(bool){ false }, err, sizeof(err)) == -1 &&
	      strstr(err, "no run matches naive@99.duplicates") != NULL, "a reference matching no run (%s)", err);
	expect_free(&e);
}

/* Checks that text is refused as an assertion with a message containing want. */
static void check_refused_assertion(const char *what, const char *text, const char *want)
{
	struct expectation e;
	char err[768] = "";
	int rc = expect_parse("t", text, &e, err, sizeof(err));

	if (rc == 0)
		expect_free(&e);
	CHECK(rc == -1 && strstr(err, want) != NULL, "%s: refused with \"%s\" (got \"%s\")", what, want, err);
}

/* Text of n copies of unit, then tail; a static buffer. */
static const char *repeated(const char *unit, int n, const char *tail)
{
	static char text[8192];

	text[0] = '\0';
	for (int i = 0; i < n; i++)
		strcat(text, unit);
	strcat(text, tail);
	return text;
}

/* Deep nesting and long chains are bounded; numbers are decimal and finite; a side that is no number fails. */
static void test_expectation_bounds(void)
{
	struct run_result runs[4];
	struct expectation e;
	char err[512] = "";
	bool pass = true;

	make_runs(runs);
	check_refused_assertion("100 unary minus signs", repeated("-", 100, "1 == 1"),
				"expected at most 32 levels of ( and unary - inside each other at column 33");
	check_refused_assertion("100 parentheses", repeated("(", 100, "1 == 1"),
				"expected at most 32 levels of ( and unary - inside each other at column 33");
	check_refused_assertion("a chain of 300 terms", repeated("1 + ", 300, "1 == 1"),
				"expected at most 256 numbers, references and operators");
	check_eval(repeated("-", 32, "1 == 1"), runs, true, 1);
	check_eval("((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))) == 1", runs, true, 1);
	check_refused_assertion("a hexadecimal number", "naive.duplicates == 0x10", "expected a decimal number");
	check_refused_assertion("an infinite number", "naive.duplicates < 1e999",
				"expected a number within the range of a double");
	check_refused_assertion("a number that ends in a letter", "naive.duplicates < 12abc", "expected a decimal number");
	check_refused_assertion("a division by 0", "naive.duplicates < 1/0", "expected a divisor other than 0");
	check_refused_assertion("0/0", "naive.duplicates != 0/0", "expected a divisor other than 0");
	check_refused_assertion("a division by a sum that is 0", "naive.duplicates / (1 - 1) > 0",
				"expected a divisor other than 0");
	check_refused_assertion("numbers that overflow", "naive.duplicates < 1e300 * 1e300",
				"expected numbers whose result is within the range of a double");
	check_eval("naive.duplicates < 2e3", runs, true, 7);
	check_eval("naive.duplicates == .7E1", runs, true, 7);
	CHECK(expect_parse("t", "naive.duplicates / skip-locked@10.duplicates != 0", &e, err, sizeof(err)) == 0 &&
	      expect_eval(&e, runs, 4, &(double){ 0 }, &(double){ 0 }, &pass, err, sizeof(err)) == -1 &&
	      strstr(err, "a side is not a finite number") != NULL,
	      "a division by a measured 0 fails instead of passing (%s)", err);
	expect_free(&e);
}

/* Loads text and its [strategy NAME] sections into ss. 0, or -1 with err. */
static int load_strategies(const char *text, struct scenario *s, struct scenario_strategies *ss, char *err,
			   size_t errlen)
{
	if (load("defs", text, s, err, errlen) < 0)
		return -1;
	if (scenario_strategies_load(s, ss, err, errlen) == 0)
		return 0;
	scenario_free(s);
	return -1;
}

/* Checks that the definitions in text are refused with a message containing want. */
static void check_bad_definition(const char *what, const char *text, const char *want)
{
	struct scenario s;
	struct scenario_strategies ss;
	char err[768] = "";
	int rc = load_strategies(text, &s, &ss, err, sizeof(err));

	if (rc == 0) {
		scenario_strategies_free(&ss);
		scenario_free(&s);
	}
	CHECK(rc == -1 && strstr(err, want) != NULL, "%s: refused with \"%s\" (got \"%s\")", what, want, err);
}

static void test_sql_strategies(void)
{
	struct scenario s;
	struct scenario_strategies ss;
	char err[768] = "";
	const struct sql_strategy *seed, *plain;
	int rc = load_strategies("[global]\njobs = 5\n"
				 "[strategy seed-002]\n"
				 "claim = UPDATE {jobs} SET status = 'active', claimed_by = :worker, attempts = attempts + 1\n"
				 "    WHERE id = (SELECT id FROM {jobs} WHERE queue = :queue AND status = 'new'\n"
				 "    ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id, attempts\n"
				 "complete = UPDATE {jobs} SET status = 'done' WHERE id = :id AND claimed_by = :worker\n"
				 "    AND attempts = :attempt::int AND ':id' <> 'x' -- :nope\n"
				 "modes = hold,flip\nbackends = postgresql,sqlite\n"
				 "[strategy plain]\nclaim = SELECT id FROM {jobs} WHERE queue = :queue /* :worker */ LIMIT 1\n"
				 "[group]\nstrategy = seed-002,skip-locked\n",
				 &s, &ss, err, sizeof(err));

	CHECK(rc == 0 && ss.n == 2, "two definitions load (%s)", err);
	if (rc < 0)
		return;
	seed = &ss.defs[0];
	plain = &ss.defs[1];
	CHECK(ss.ops[0] == &seed->ops && strcmp(seed->ops.name, "seed-002") == 0, "a definition's strategy is named");
	CHECK(strstr(seed->roles[SQL_ROLE_CLAIM].sql, "claimed_by = $1") &&
	      strstr(seed->roles[SQL_ROLE_CLAIM].sql, "queue = $2") && seed->roles[SQL_ROLE_CLAIM].nparams == 2 &&
	      seed->roles[SQL_ROLE_CLAIM].params[0] == SQL_PARAM_WORKER, "placeholders are numbered by first use (%s)",
	      seed->roles[SQL_ROLE_CLAIM].sql);
	CHECK(strstr(seed->roles[SQL_ROLE_CLAIM].sql, "\nWHERE id = (SELECT") != NULL,
	      "an indented line continues the value on a line of its own");
	CHECK(strstr(seed->roles[SQL_ROLE_COMPLETE].sql, "attempts = $3::int AND ':id' <> 'x' -- :nope") &&
	      seed->roles[SQL_ROLE_COMPLETE].nparams == 3,
	      "casts, quoted text and comments are left alone (%s)", seed->roles[SQL_ROLE_COMPLETE].sql);
	CHECK(strstr(seed->roles[SQL_ROLE_COMPLETE].origin, "defs.ini:7: complete of strategy seed-002") != NULL,
	      "a statement knows where it was written (%s)", seed->roles[SQL_ROLE_COMPLETE].origin);
	CHECK(seed->claim_marks && !plain->claim_marks, "a claim that writes :worker marks the job active itself");
	CHECK(seed->ops.modes == (MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP)) && seed->ops.default_mode == MODE_FLIP &&
	      seed->ops.dialects == (DIALECT_BIT(DIALECT_POSTGRESQL) | DIALECT_BIT(DIALECT_SQLITE)),
	      "modes and backends are read");
	CHECK(plain->ops.modes == MODE_BIT(MODE_FLIP) && plain->ops.dialects == DIALECT_BIT(DIALECT_POSTGRESQL) &&
	      plain->ops.n_statements == 1 && !plain->roles[SQL_ROLE_COMPLETE].given,
	      "by default flip mode, PostgreSQL, and the harness's completions");
	CHECK(strstr(plain->ops.summary, "defs.ini:11") != NULL, "the default summary says where it is defined (%s)",
	      plain->ops.summary);
	scenario_strategies_free(&ss);
	scenario_free(&s);

	check_bad_definition("no claim", "[strategy a]\nmodes = flip\n", "defs.ini:1: [strategy a]: no claim key");
	check_bad_definition("a built-in's name", "[x]\njobs = 1\n[strategy skip-locked]\nclaim = SELECT 1\n",
			     "defs.ini:3: [strategy skip-locked]: skip-locked is a built-in strategy");
	check_bad_definition("a name with a colon", "[strategy a:b]\nclaim = SELECT 1\n",
			     "defs.ini:1: [strategy a:b]: a strategy's name is a word");
	check_bad_definition("an unknown key", "[strategy a]\nclaim = SELECT 1\nlock = yes\n",
			     "defs.ini:3: strategy a: unknown key \"lock\"");
	check_bad_definition("an unknown placeholder", "[strategy a]\nclaim = SELECT id FROM {jobs} WHERE queue = :q\n",
			     "defs.ini:2: claim of strategy a: unknown placeholder :q");
	check_bad_definition("a placeholder the claim has no value for", "[strategy a]\nclaim = SELECT :attempt\n",
			     "defs.ini:2: claim of strategy a: no value for the placeholder :attempt");
	check_bad_definition("an unknown table placeholder", "[strategy a]\nclaim = SELECT id FROM {tickets}\n",
			     "defs.ini:2: claim of strategy a: unknown placeholder {tickets}");
	check_bad_definition("a numbered parameter", "[strategy a]\nclaim = SELECT 1\nfail = UPDATE {jobs} SET x = $1\n",
			     "defs.ini:3: fail of strategy a: write parameters by name");
	check_bad_definition("a mode that does not exist", "[strategy a]\nclaim = SELECT 1\nmodes = flip,grab\n",
			     "defs.ini:3: strategy a: modes: unknown name \"grab\"; known: hold flip");
	check_bad_definition("a backend that does not exist", "[strategy a]\nclaim = SELECT 1\nbackends = mysql\n",
			     "defs.ini:3: strategy a: backends: unknown name \"mysql\"; known: postgresql sqlite");
	check_bad_definition("a key given twice", "[strategy a]\nclaim = SELECT 1\nmodes = flip\nclaim = SELECT 2\n",
			     "defs.ini:4: key given twice in this section (first at line 2)");
}

int main(void)
{
	test_good_file();
	test_bad_files();
	test_line_limits();
	test_sql_strategies();
	test_expectations();
	test_expectation_bounds();
	return check_exit_status();
}
