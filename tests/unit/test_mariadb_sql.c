/*
 * Unit tests of the shared templates as MariaDB's prepared statements take them
 * (db/mariadb/mariadb_sql.c): $N as '?' bound once per use, several statements, an UPDATE's
 * RETURNING of columns as a capture and a SELECT, what cannot be translated refused; and
 * of a mariadb: target read with libpq's parser (db/mariadb/mariadb_target.c), written back (as the
 * run's own account connects) and masked (db/conninfo.c); and of the templates' placeholders in MariaDB's dialect (engine/sql_template.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "db/conninfo.h"
#include "db/mariadb/mariadb_sql.h"
#include "db/mariadb/parts.h"
#include "db/mariadb/mariadb_target.h"
#include "engine/sql_template.h"

/* Parameters: each '?' once per use, quoted text and comments left alone. */
static void test_parameters(void)
{
	struct mariadb_translation t;
	char err[256] = "";
	int rc;

	rc = mariadb_translate("SELECT id FROM \"j\" WHERE queue = $2 AND id > $1 AND note <> '$1' AND q2 = $2 -- $3",
			       2, false, &t, err, sizeof(err));
	CHECK(rc == 0 && t.nparts == 1, "a SELECT is one statement (%s)", err);
	if (rc == 0) {
		CHECK_STR_EQ(t.parts[0].sql, "SELECT id FROM \"j\" WHERE queue = ? AND id > ? AND note <> '$1' AND q2 = ? "
			     "-- $3", "$N outside quotes and comments became ? (got %s)", t.parts[0].sql);
		CHECK(t.parts[0].nbinds == 3 && t.parts[0].bind_param[0] == 1 && t.parts[0].bind_param[1] == 0 &&
		      t.parts[0].bind_param[2] == 1, "a parameter used twice is bound twice, in order of use");
		CHECK(!t.nowait, "no NOWAIT");
	}
	mariadb_translation_free(&t);
	rc = mariadb_translate("SELECT id FROM j WHERE q = $1 ORDER BY id LIMIT $2", 2, false, &t, err, sizeof(err));
	CHECK(rc == 0 && !t.parts[0].bind_integer[0] && t.parts[0].bind_integer[1],
	      "a parameter after LIMIT is bound as an integer, which MariaDB wants there; others as text");
	mariadb_translation_free(&t);
	CHECK(mariadb_translate("SELECT $3", 2, false, &t, err, sizeof(err)) < 0 && strstr(err, "$3"),
	      "a parameter beyond nparams is refused (%s)", err);
	rc = mariadb_translate("SELECT id FROM j ORDER BY id LIMIT 1 FOR UPDATE NOWAIT", 0, false, &t, err, sizeof(err));
	CHECK(rc == 0 && t.nowait, "NOWAIT is noted: its lock wait timeout is a lock not available");
	mariadb_translation_free(&t);
}

/* Several statements, each its own; an empty template refused. */
static void test_statements(void)
{
	struct mariadb_translation t;
	char err[256] = "";
	int rc;

	rc = mariadb_translate("INSERT INTO t VALUES ($1, ';'); DELETE FROM t WHERE id = $1;", 1, false, &t, err, sizeof(err));
	CHECK(rc == 0 && t.nparts == 2, "two statements, the ';' in quotes not a separator (%s)", err);
	if (rc == 0)
		CHECK(strcmp(t.parts[0].sql, "INSERT INTO t VALUES (?, ';')") == 0 &&
		      strcmp(t.parts[1].sql, "DELETE FROM t WHERE id = ?") == 0, "each statement as written, trimmed");
	mariadb_translation_free(&t);
	CHECK(mariadb_translate(" ; ", 0, false, &t, err, sizeof(err)) < 0, "an empty template is refused (%s)", err);
}

/* An UPDATE's RETURNING: the new values captured in the UPDATE, then selected; expressions refused. */
static void test_update_returning(void)
{
	struct mariadb_translation t;
	char err[256] = "";
	int rc;

	rc = mariadb_translate("UPDATE \"j\" SET status = 'active', attempts = attempts + 1 WHERE id = $1 AND "
			       "status IN (SELECT 'new') RETURNING id, attempts", 1, false, &t, err, sizeof(err));
	CHECK(rc == 0 && t.nparts == 2, "UPDATE ... RETURNING becomes two statements (%s)", err);
	if (rc == 0) {
		CHECK_STR_EQ(t.parts[0].sql, "UPDATE \"j\" SET status = 'active', "
			     "attempts = (@claimbench_returning_2 := attempts + 1), id = (@claimbench_returning_1 := id) "
			     "WHERE id = ? AND status IN (SELECT 'new')",
			     "the UPDATE captures the value it assigns a column, and an unassigned column after its own "
			     "assignments (got %s)", t.parts[0].sql);
		CHECK(strcmp(t.parts[1].sql, "SELECT @claimbench_returning_1, @claimbench_returning_2") == 0 &&
		      t.parts[1].captured && !t.parts[0].captured, "then a SELECT of the captures, run only after a match");
	}
	mariadb_translation_free(&t);
	rc = mariadb_translate("UPDATE j SET n = 1 RETURNING n", 0, false, &t, err, sizeof(err));
	CHECK(rc == 0 && strcmp(t.parts[0].sql, "UPDATE j SET n = (@claimbench_returning_1 := 1)") == 0,
	      "an UPDATE without WHERE captures its assignment (%s)", rc == 0 ? t.parts[0].sql : err);
	mariadb_translation_free(&t);
	rc = mariadb_translate("UPDATE j SET j.\"n\" = f(a, 'x,y'), m = (SELECT 2), `n` = n + 1, k = 3 "
			       "WHERE id = (SELECT id FROM j LIMIT 1) RETURNING j.n, m, n, id", 0, false, &t, err,
			       sizeof(err));
	CHECK(rc == 0 && strcmp(t.parts[0].sql, "UPDATE j SET j.\"n\" = f(a, 'x,y'), "
				"m = (@claimbench_returning_2 := (SELECT 2)), `n` = (@claimbench_returning_1 := n + 1), "
				"k = 3, id = (@claimbench_returning_4 := id) WHERE id = (SELECT id FROM j LIMIT 1)") == 0 &&
		      strcmp(t.parts[1].sql, "SELECT @claimbench_returning_1, @claimbench_returning_2, "
			     "@claimbench_returning_1, @claimbench_returning_4") == 0,
	      "a column's last assignment captured, qualified or quoted, commas in calls and quotes no separator; "
	      "a column named twice read from one capture (%s)", rc == 0 ? t.parts[0].sql : err);
	mariadb_translation_free(&t);
	CHECK(mariadb_translate("UPDATE j SET n = 1 WHERE id = $1 RETURNING n + 1", 1, false, &t, err, sizeof(err)) < 0 &&
	      strstr(err, "columns only"), "RETURNING an expression is refused with the reason (%s)", err);
	rc = mariadb_translate("DELETE FROM j WHERE id = $1 RETURNING id", 1, false, &t, err, sizeof(err));
	CHECK(rc == 0 && t.nparts == 1, "DELETE ... RETURNING is MariaDB's own: left as it is");
	mariadb_translation_free(&t);
}

/*
 * The text of what t's UPDATE ... RETURNING became, for a message: "pinned" when its second
 * part sends nothing (its row the parameters), else that part's statement.
 */
static const char *second_part(const struct mariadb_translation *t)
{
	if (t->nparts < 2)
		return "one part only";
	return t->parts[1].sql ? t->parts[1].sql : "pinned";
}

/*
 * An UPDATE whose WHERE pins every returned column to a parameter, joined by AND and not
 * assigned: the UPDATE alone, then a part with no statement whose row is the parameters
 * (one round trip saved); anything else still captured and selected.
 */
static void test_update_returning_pinned(void)
{
	static const struct {
		const char *sql;	/* the template */
		int nparams;		/* its parameters */
		bool pinned;		/* whether its RETURNING is answered from the parameters */
		int param;		/* then the parameter of its first returned column: 0 for $1 */
	} cases[] = {
		{ "UPDATE j SET status = 'done', done_at = NOW(6) WHERE id = $1 AND status = 'active' RETURNING id", 1,
		  true, 0 },
		{ "UPDATE j SET status = 'done' WHERE queue = 'a' AND $2 = j.id AND claimed_by = $1 RETURNING id", 2,
		  true, 1 },
		{ "UPDATE j SET status = 'done' WHERE `id` = $1 RETURNING j.id", 1, true, 0 },
		{ "UPDATE j SET status = 'done' WHERE id = $1 OR id = $2 RETURNING id", 2, false, 0 },
		{ "UPDATE j SET id = $2 WHERE id = $1 RETURNING id", 2, false, 0 },
		{ "UPDATE j SET status = 'done' WHERE id <= $1 RETURNING id", 1, false, 0 },
		{ "UPDATE j SET status = 'done' WHERE id = $1 RETURNING id, attempts", 1, false, 0 },
		{ "UPDATE j SET status = 'done' WHERE (id = $1) RETURNING id", 1, false, 0 },
		{ "UPDATE j SET status = 'done' WHERE payload = 'id = $1' RETURNING id", 1, false, 0 },
		{ "UPDATE j SET status = 'done' WHERE NOT j.id = $1 RETURNING id", 1, false, 0 },
		{ "UPDATE j SET status = 'done' WHERE a-j.id = $1 RETURNING id", 1, false, 0 },
		{ "UPDATE j SET status = 'done' WHERE o.id = $1 RETURNING j.id", 1, false, 0 },
		{ "UPDATE j SET status = 'done' WHERE attempts BETWEEN 0 AND id = $1 RETURNING id", 1, false, 0 },
		{ "UPDATE j, o SET j.status = 'done' WHERE j.id = $1 AND o.id = j.id RETURNING j.id", 1, false, 0 },
		{ "UPDATE j JOIN o ON o.id = j.id SET j.status = 'done' WHERE j.id = $1 RETURNING j.id", 1, false, 0 },
		{ "UPDATE j SET status = 'done' WHERE j.id = $1 RETURNING j.id", 1, true, 0 },
	};
	struct mariadb_translation t;
	char err[256] = "";

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = mariadb_translate(cases[i].sql, cases[i].nparams, false, &t, err, sizeof(err));
		bool pinned = rc == 0 && t.nparts == 2 && !t.parts[1].sql;

		CHECK(rc == 0 && pinned == cases[i].pinned, "%s: %s (got %s)", cases[i].sql,
		      cases[i].pinned ? "answered from its parameters" : "captured and selected",
		      rc == 0 ? second_part(&t) : err);
		if (pinned && cases[i].pinned)
			CHECK(t.parts[1].captured && t.parts[1].nreturn == 1 && t.parts[1].return_param[0] == cases[i].param &&
			      !strstr(t.parts[0].sql, "RETURNING") && !strstr(t.parts[0].sql, "@claimbench"),
			      "%s: the UPDATE sent alone (%s), its row parameter %d (got %d), run only after a match",
			      cases[i].sql, t.parts[0].sql, cases[i].param + 1, t.parts[1].return_param[0] + 1);
		mariadb_translation_free(&t);
	}
	CHECK(mariadb_translate("UPDATE j SET status = 'new' WHERE id = $1 RETURNING id", 1, true, &t, err, sizeof(err)) == 0 &&
	      t.nparts == 3 && t.parts[2].sql && t.parts[2].list,
	      "on the query path (many rows) a pinned RETURNING is still gathered as lists (%s)", second_part(&t));
	mariadb_translation_free(&t);
}

/*
 * An UPDATE's RETURNING that may match many rows (the query path: the reaper): the
 * variables emptied, each matched row's value added to a list, the lists read back.
 */
static void test_update_returning_many(void)
{
	struct mariadb_translation t;
	char err[256] = "", list[] = "V3132,N,V,V2C27", bad[] = "V1", *cursor = list, *value = NULL;
	int rc;

	rc = mariadb_translate("UPDATE j SET status = 'new' WHERE status = 'active' RETURNING id", 0, true, &t, err,
			       sizeof(err));
	CHECK(rc == 0 && t.nparts == 3, "UPDATE ... RETURNING of many rows becomes three statements (%s)", err);
	if (rc == 0) {
		CHECK(strcmp(t.parts[0].sql, "SET @claimbench_returning_1 = NULL") == 0 && !t.parts[0].captured,
		      "first the capture is emptied (got %s)", t.parts[0].sql);
		CHECK_STR_EQ(t.parts[1].sql, "UPDATE j SET status = 'new', id = IF((@claimbench_returning_1 := "
			     "CONCAT_WS(',', @claimbench_returning_1, IFNULL(CONCAT('V', HEX(CAST(id AS CHAR))), 'N'))) "
			     "IS NULL, id, id) WHERE status = 'active'",
		      "the UPDATE adds every matched row's id to a list (got %s)", t.parts[1].sql);
		CHECK(t.parts[2].captured && t.parts[2].list, "then a SELECT of the list, run only after a match");
	}
	mariadb_translation_free(&t);
	CHECK(mariadb_list_next(&cursor, &value) == 1 && strcmp(value, "12") == 0, "a list's value: hex decoded");
	CHECK(mariadb_list_next(&cursor, &value) == 1 && value == NULL, "N: an SQL NULL");
	CHECK(mariadb_list_next(&cursor, &value) == 1 && value && !*value, "V alone: an empty text");
	CHECK(mariadb_list_next(&cursor, &value) == 1 && strcmp(value, ",'") == 0, "a value may hold ','");
	CHECK_EQ(mariadb_list_next(&cursor, &value), 0, "then the list's end");
	cursor = bad;
	CHECK(mariadb_list_next(&cursor, &value) < 0, "odd hex is no list");
}

/*
 * The most columns RETURNING may name, each short, on the query path: each column's list
 * capture is far longer than the column, so the UPDATE outgrows three times the statement
 * (it overflowed its buffer, found by ASan).
 */
static void test_update_returning_many_columns(void)
{
	struct mariadb_translation t;
	char sql[256], want[4096], err[256] = "";
	size_t used, wused;
	int rc;

	used = (size_t)snprintf(sql, sizeof(sql), "UPDATE j SET status = 'new' RETURNING ");
	wused = (size_t)snprintf(want, sizeof(want), "UPDATE j SET status = 'new'");
	for (int c = 0; c < MARIADB_MAX_RETURNING; c++) {
		used += (size_t)snprintf(sql + used, sizeof(sql) - used, "%s%c", c ? "," : "", 'a' + c);
		wused += (size_t)snprintf(want + wused, sizeof(want) - wused,
					  ", %c = IF((@claimbench_returning_%d := CONCAT_WS(',', @claimbench_returning_%d, "
					  "IFNULL(CONCAT('V', HEX(CAST(%c AS CHAR))), 'N'))) IS NULL, %c, %c)",
					  'a' + c, c + 1, c + 1, 'a' + c, 'a' + c, 'a' + c);
	}
	rc = mariadb_translate(sql, 0, true, &t, err, sizeof(err));
	CHECK(rc == 0 && t.nparts == 3, "UPDATE ... RETURNING of %d columns on the query path translates (%s)",
	      MARIADB_MAX_RETURNING, err);
	if (rc == 0)
		CHECK_STR_EQ(t.parts[1].sql, want, "each of the %d columns gathers its list", MARIADB_MAX_RETURNING);
	mariadb_translation_free(&t);
}

/* A target in key=value and URI form; what is missing or means nothing to MariaDB refused; masking. */
static void test_targets(void)
{
	struct mariadb_target t;
	char err[256] = "", *masked;

	CHECK(mariadb_target_parse("//alice:s3cr3t@db.example:3307/queue", &t, err, sizeof(err)) == 0 &&
	      strcmp(t.user, "alice") == 0 && strcmp(t.password, "s3cr3t") == 0 && t.has_password &&
	      strcmp(t.host, "db.example") == 0 && t.port == 3307 && strcmp(t.database, "queue") == 0,
	      "a URI gives user, password, host, port and database (%s)", err);
	CHECK(mariadb_target_parse("host=/tmp/x/mysqld.sock user=root dbname=q", &t, err, sizeof(err)) == 0 &&
	      strcmp(t.socket, "/tmp/x/mysqld.sock") == 0 && !t.host[0] && !t.has_password,
	      "a host starting with / is the socket file (%s)", err);
	CHECK(mariadb_target_parse("host=h user=u", &t, err, sizeof(err)) < 0 && strstr(err, "database"),
	      "no database: refused, naming it (%s)", err);
	CHECK(mariadb_target_parse("host=h user=u dbname=q sslmode=require", &t, err, sizeof(err)) < 0 &&
	      strstr(err, "sslmode"), "a key that means nothing to MariaDB is refused (%s)", err);
	CHECK(mariadb_target_parse("host='h password=zz", &t, err, sizeof(err)) < 0 && !strstr(err, "zz"),
	      "an unparsable target is refused without its text (%s)", err);
	masked = conninfo_masked("mariadb://alice:s3cr3t@db.example/queue");
	CHECK(masked && !strstr(masked, "s3cr3t") && strncmp(masked, "mariadb:", 8) == 0 && strstr(masked, "password=***"),
	      "a mariadb: URI is masked (%s)", masked ? masked : "(null)");
	free(masked);
	CHECK(conninfo_parses("mariadb:") && !conninfo_parses("mariadb:host='x"), "mariadb: alone parses; a bad one not");
}

/*
 * A target written back as key=value (how the run's own account connects: the harness's
 * target with its user and password) reads back as the same target, a socket path's and a
 * password's quotes and backslashes included; one that does not fit is refused.
 */
static void test_target_format(void)
{
	struct mariadb_target t = { .port = 0, .connect_timeout_s = 7, .has_password = true }, back;
	char text[1024], err[256] = "";

	snprintf(t.socket, sizeof(t.socket), "/tmp/it's a \\dir/mysqld.sock");
	snprintf(t.user, sizeof(t.user), "claimbench_42_jobs");
	snprintf(t.password, sizeof(t.password), "p'w\\ x-Aa0");
	snprintf(t.database, sizeof(t.database), "q");
	CHECK(mariadb_target_format(&t, text, sizeof(text)) == 0 && mariadb_target_parse(text, &back, err, sizeof(err)) == 0,
	      "a socket target is written and read back (%s; %s)", text, err);
	CHECK(strcmp(back.socket, t.socket) == 0 && !back.host[0] && strcmp(back.user, t.user) == 0 &&
	      back.has_password && strcmp(back.password, t.password) == 0 && strcmp(back.database, "q") == 0 &&
	      back.port == 0 && back.connect_timeout_s == 7,
	      "every field as it was: socket %s, user %s, password %s, timeout %d", back.socket, back.user, back.password,
	      back.connect_timeout_s);
	memset(t.socket, 0, sizeof(t.socket));
	snprintf(t.host, sizeof(t.host), "db.example");
	t.port = 3307;
	CHECK(mariadb_target_format(&t, text, sizeof(text)) == 0 && mariadb_target_parse(text, &back, err, sizeof(err)) == 0 &&
	      strcmp(back.host, "db.example") == 0 && back.port == 3307 && !back.socket[0],
	      "a TCP target reads back with its host and port (%s)", text);
	CHECK(mariadb_target_format(&t, text, 40) == -1, "a target that does not fit in 40 bytes is refused");
}

/* {mark:...} as a table COMMENT in the CREATE, {now} and a lease in MariaDB's clock, a guarded run's {wait_limit_s}. */
static void test_dialect(void)
{
	static const struct owner run_owner = { .pid = 42, .host = "h", .started = 7 };
	struct sql_names names = { .jobs = "\"j\"", .tickets = "\"t\"", .owner = &run_owner,
				   .sql = &mariadb_harness_sql };
	struct sql_recovery_text text;
	char buf[512];

	CHECK(sql_expand("CREATE TABLE {jobs} (id bigint) ENGINE = InnoDB {mark:jobs}", &names, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "CREATE TABLE \"j\" (id bigint) ENGINE = InnoDB "
		     "COMMENT = 'claimbench run: pid 42 on h started 7; table j'") == 0,
	      "{mark:jobs} is the table's COMMENT, its note naming it (got %s)", buf);
	CHECK(sql_expand("SET done_at = {now}", &names, buf, sizeof(buf)) == 0 && strcmp(buf, "SET done_at = NOW(6)") == 0,
	      "{now} is NOW(6)");
	sql_names_lease(&names, &text, 1500, false);
	CHECK(sql_expand("{lease_until}", &names, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "NOW(6) + INTERVAL 1500000 MICROSECOND") == 0, "a lease of 1500 ms (got %s)", buf);
	CHECK(sql_expand("FOR UPDATE WAIT {wait_limit_s}", &names, buf, sizeof(buf)) < 0,
	      "{wait_limit_s} of a run with no wait limit (a queue run's names) is refused");
	names.wait_limit_s = "2";
	CHECK(sql_expand("SELECT slot FROM t FOR UPDATE WAIT {wait_limit_s}", &names, buf, sizeof(buf)) == 0 &&
	      strcmp(buf, "SELECT slot FROM t FOR UPDATE WAIT 2") == 0, "{wait_limit_s} is the guarded run's (got %s)", buf);
}

int main(void)
{
	test_dialect();
	test_parameters();
	test_statements();
	test_update_returning();
	test_update_returning_pinned();
	test_update_returning_many();
	test_update_returning_many_columns();
	test_targets();
	test_target_format();
	return check_exit_status();
}
