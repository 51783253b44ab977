/*
 * Unit tests of the backends' harness SQL (db/backend_sql.h, db/NAME/harness_sql.c): each
 * driver points at its engine's struct backend_sql; every statement the harness always
 * sends is there and expands (engine/sql_template.c); what comes in pairs comes together
 * (a kill and its liveness test, a trigger function and its trigger, a costs plan and its
 * counters, row triggers' parts); each table's DDL marks that table as the run's; and the
 * queue, sampler and guarded statements that differ by engine are the engine's own.
 */
#include <string.h>

#include "check.h"
#include "db/backend.h"
#include "engine/sql_template.h"

/* The process whose notes mark the tables. */
static const struct owner run_owner = { .pid = 42, .host = "h", .started = 7 };

/* Whether sql_expand takes tmpl for the tables of a queue run, its audit and a guarded run's on sql's engine. */
static bool expands(const struct backend_sql *sql, const char *tmpl)
{
	const struct sql_names names = {
		.jobs = "\"j\"", .tickets = "\"t\"", .cache = "\"c\"", .control = "\"k\"", .audit = "\"a\"",
		.owner = &run_owner, .sql = sql, .wait_limit_s = "1",
	};
	char buf[8192];

	return tmpl && sql_expand(tmpl, &names, buf, sizeof(buf)) == 0;
}

/* Whether tmpl holds word. */
static bool holds(const char *tmpl, const char *word)
{
	return tmpl && strstr(tmpl, word) != NULL;
}

/*
 * Each pressure kind db's timeline SQL does not refuse has every statement its phase sends
 * (queue/timeline_runner.c), and a session's name is read only where one is given.
 */
static void check_timeline_sql(const struct backend_ops *db, const struct backend_timeline_sql *t)
{
	const struct backend_sql *sql = db->sql;
	const struct {
		enum timeline_kind kind;	/* a pressure kind */
		bool has;			/* whether the statements its phase sends are all given */
	} needs[] = {
		{ TIMELINE_IDLE_IN_TX, t->take_xid && t->xid_now },
		{ TIMELINE_LONG_WRITER, t->take_xid && t->xid_now && t->create_writer && t->writer_insert },
		{ TIMELINE_HELD_SNAPSHOT, sql->snapshot_begin && t->xid_now },
		{ TIMELINE_ACTIVE_READERS, sql->snapshot_begin && t->reader_scan },
	};

	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
		CHECK(t->refusals[needs[i].kind] || needs[i].has, "%s: --phase %s is refused (%s) or has its statements (%s)",
		      db->name, timeline_kind_names[needs[i].kind], t->refusals[needs[i].kind] ? "refused" : "runs",
		      needs[i].has ? "all" : "some missing");
	CHECK(t->reader_name || (!t->readers_seen && !t->sessions_named),
	      "%s: sessions are counted by name only where they are named (reader_name %s)", db->name,
	      t->reader_name ? "given" : "none");
	for (int k = 0; k < TIMELINE_KIND_COUNT; k++)
		CHECK(!t->refusals[k] || timeline_is_pressure(k), "%s: a refusal only for a pressure kind (%s)", db->name,
		      timeline_kind_names[k]);
}

/* Every backend's SQL: the statements always sent, present and expanding; the pairs whole. */
static void test_every_backend(void)
{
	for (int d = 0; d < DIALECT_COUNT; d++) {
		const struct backend_ops *db = backend_registry[d];
		const struct backend_sql *sql = db->sql;

		CHECK(sql != NULL, "%s has its harness SQL", db->name);
		check_need(sql != NULL, "the driver's harness SQL");
		CHECK(sql->now && sql->lease_until && sql->mark && sql->clock_tick_ns > 0,
		      "%s: {now}, a lease's end, {mark:} and the clock's tick (%lld ns)", db->name,
		      (long long)sql->clock_tick_ns);
		CHECK(expands(sql, sql->create_queue) && holds(sql->create_queue, "{mark:jobs}"),
		      "%s: the queue table's DDL expands and marks the table", db->name);
		CHECK(expands(sql, sql->analyze_queue) && expands(sql, sql->insert_job) && expands(sql, sql->explain_head),
		      "%s: ANALYZE, the producer's insert and the head lookup's plan expand", db->name);
		CHECK(!sql->publish_counters || expands(sql, sql->publish_counters), "%s: the counters' publishing expands",
		      db->name);
		CHECK(sql->snapshot_begin != NULL, "%s: a held snapshot's BEGIN", db->name);
		CHECK((sql->terminate_session != NULL) == (sql->session_alive != NULL),
		      "%s: a session it terminates, it can tell alive (terminate %s, alive %s)", db->name,
		      sql->terminate_session ? "yes" : "no", sql->session_alive ? "yes" : "no");
		CHECK((sql->sample != NULL) != (sql->wal_suffix != NULL),
		      "%s: the sampler reads a server or a WAL file, one of them", db->name);
		check_need(sql->audit && sql->guarded, "the audit's and the guarded workloads' SQL");
		CHECK(expands(sql, sql->audit->create_table) && holds(sql->audit->create_table, "{mark:audit}"),
		      "%s: the audit table's DDL expands and marks the table", db->name);
		CHECK(sql->audit->create_function
			      ? sql->audit->create_trigger != NULL && sql->audit->drop_function != NULL
			      : sql->audit->row_now && sql->audit->row_identity && sql->audit->row_body_open &&
					sql->audit->row_body_close && sql->audit->row_shape,
		      "%s: the audit's trigger function with its trigger and drop, or every part of its row triggers",
		      db->name);
		CHECK(expands(sql, sql->guarded->create_cache) && holds(sql->guarded->create_cache, "{mark:cache}") &&
			      expands(sql, sql->guarded->create_status) &&
			      holds(sql->guarded->create_status, "{mark:control}") &&
			      expands(sql, sql->guarded->create_line) && holds(sql->guarded->create_line, "{mark:control}"),
		      "%s: the guarded tables' DDL expands and marks each table", db->name);
		CHECK(!sql->costs || (sql->costs->live ? !sql->costs->plan
						       : sql->costs->plan && sql->costs->by_statement &&
								 sql->costs->database_wide && sql->costs->track_statements &&
								 sql->costs->flush),
		      "%s: costs read live, or planned with every counter's statement", db->name);
		if (sql->timeline)
			check_timeline_sql(db, sql->timeline);
		/* The checks before a run ask the capabilities; the SQL must be there when they let it run. */
		CHECK(!(db->caps & CAP_VACUUM) == !sql->vacuum, "%s: CAP_VACUUM (%s) as it has a vacuum statement (%s)",
		      db->name, db->caps & CAP_VACUUM ? "set" : "unset", sql->vacuum ? "given" : "none");
		CHECK(!db->no_pressure_phases == !!sql->timeline,
		      "%s: its pressure phases refused (%s) exactly when it has no timeline SQL (%s)", db->name,
		      db->no_pressure_phases ? "refused" : "run", sql->timeline ? "given" : "none");
	}
}

/* What differs by engine is the engine's own: the driver points at its own SQL. */
static void test_engines_apart(void)
{
	const struct backend_sql *pg = backend_named("postgresql")->sql, *lite = backend_named("sqlite")->sql,
				 *maria = backend_named("mariadb")->sql;

	CHECK_STR_EQ(pg->now, "clock_timestamp()", "PostgreSQL's {now}");
	CHECK_STR_EQ(lite->now, "julianday('now')", "SQLite's {now}: a julian day");
	CHECK_STR_EQ(maria->now, "NOW(6)", "MariaDB's {now}");
	CHECK(holds(pg->create_queue, "WHERE status = 'new'") && holds(lite->create_queue, "WHERE status = 'new'") &&
		      !holds(maria->create_queue, "WHERE status"),
	      "partial indexes on PostgreSQL and SQLite, none on InnoDB");
	CHECK(holds(maria->insert_job, "ON DUPLICATE KEY") && holds(pg->insert_job, "ON CONFLICT (id) DO NOTHING"),
	      "the producer's insert ignores a duplicate in each engine's words");
	CHECK(pg->reap_begin && !lite->reap_begin && !maria->reap_begin, "only PostgreSQL's reaper bounds its waits");
	CHECK(pg->sample && maria->sample && lite->wal_suffix && !lite->terminate_session,
	      "PostgreSQL and MariaDB sample a server; SQLite its -wal file and has no session to kill");
	CHECK_STR_EQ(maria->sample_no_sessions, "-1", "MariaDB's sample names a session even when no worker has one");
	CHECK_EQ(lite->clock_tick_ns, 1000000, "SQLite's clock ticks in milliseconds");
	CHECK(pg->guarded->truncate_cache && !lite->guarded->truncate_cache && !maria->guarded->truncate_cache,
	      "only PostgreSQL empties a truncating guard's cache with TRUNCATE");
	CHECK(holds(maria->guarded->rollback, "RELEASE_ALL_LOCKS") && !pg->guarded->rollback,
	      "MariaDB's guarded ROLLBACK releases the session's locks; PostgreSQL's is the common one");
	CHECK(pg->guard_wait == GUARD_WAIT_SESSION && lite->guard_wait == GUARD_WAIT_EACH_TAKE &&
		      maria->guard_wait == GUARD_WAIT_UNSET && lite->no_wait_by_zero_wait && !pg->no_wait_by_zero_wait,
	      "lock waits: set once on PostgreSQL, around each take on SQLite (0 for none), never on MariaDB");
	CHECK(pg->costs && maria->costs && maria->costs->live && !lite->costs,
	      "costs: planned on PostgreSQL, live on MariaDB, none on SQLite");
	CHECK(pg->timeline && pg->vacuum && !lite->timeline && !lite->vacuum && !maria->vacuum,
	      "PostgreSQL builds the timeline's phases and vacuums a table; SQLite builds none, neither vacuums");
	CHECK(maria->timeline && !maria->timeline->refusals[TIMELINE_HELD_SNAPSHOT] &&
		      !maria->timeline->refusals[TIMELINE_ACTIVE_READERS] && maria->timeline->refusals[TIMELINE_IDLE_IN_TX] &&
		      maria->timeline->refusals[TIMELINE_LONG_WRITER] && !maria->timeline->readers_seen,
	      "MariaDB holds read views (held-snapshot, active-readers), refuses the XID holders, counts no reader by name");
	for (int k = 0; k < TIMELINE_KIND_COUNT; k++)
		CHECK(!pg->timeline->refusals[k], "PostgreSQL refuses no phase kind by its timeline SQL (%s)",
		      timeline_kind_names[k]);
}

int main(void)
{
	test_every_backend();
	test_engines_apart();
	return check_exit_status();
}
