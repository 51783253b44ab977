/*
 * `claimbench cleanup`: what dead claimbench processes left behind, found by the owner
 * notes they wrote (db/ownership.h), removed as the user who owns each thing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter/adapter_run.h"
#include "adapter/final_state.h"
#include "adapter/manifest.h"
#include "adapter/run_marker.h"
#include "base/exit_status.h"
#include "cli/commands.h"
#include "db/backend.h"
#include "db/leftovers.h"
#include "db/ownership.h"
#include "db/pooler.h"

/* A directory a claimbench process makes under $TMPDIR: a backend's throwaway, a pooler's, an adapter run's scratch. */
struct leftover_kind {
	const char *prefix;		/* the start of its name */
	watchdog_stop_fn stop;		/* stops what runs in it first; NULL: nothing does */
	const char *what_runs;		/* what stop stops, for a failure's message: "server", "pgbouncer" */
};

/* The kind of leftover directory name is, or false when claimbench makes none of that name. */
static bool leftover_kind_of(const char *name, struct leftover_kind *kind)
{
	for (size_t k = 0; k < backend_registry_len; k++) {
		const struct backend_throwaway *t = backend_registry[k]->throwaway;

		if (t && strncmp(name, t->dir_prefix, strlen(t->dir_prefix)) == 0) {
			*kind = (struct leftover_kind){ t->dir_prefix, t->stop_leftover, "server" };
			return true;
		}
	}
	if (strncmp(name, POOLER_DIR_PREFIX, strlen(POOLER_DIR_PREFIX)) == 0) {
		*kind = (struct leftover_kind){ POOLER_DIR_PREFIX, pooler_stop_leftover, "pgbouncer" };
		return true;
	}
	if (strncmp(name, ADAPTER_SCRATCH_PREFIX, strlen(ADAPTER_SCRATCH_PREFIX)) == 0) {
		*kind = (struct leftover_kind){ ADAPTER_SCRATCH_PREFIX, NULL, "adapter" };
		return true;
	}
	return false;
}

/* What a cleanup did, for its summary and exit status. */
struct tally {
	bool dry_run;		/* only say what would be removed */
	size_t removed;		/* things removed (or, dry, to remove) */
	size_t kept;		/* things left alone: a live owner, another host, no note */
	size_t failed;		/* things that could not be removed */
};

/* Reads the owner note of directory path into o. 0, or -1 when there is none claimbench wrote. */
static int read_note(const char *path, struct owner *o)
{
	char note_path[PATH_MAX + 32], note[512];
	ssize_t n;
	int fd;

	snprintf(note_path, sizeof(note_path), "%s/%s", path, LEFTOVERS_OWNER_FILE);
	fd = open(note_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, note, sizeof(note) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	note[n] = '\0';
	note[strcspn(note, "\n")] = '\0';
	return owner_parse(note, o);
}

/* Removes the leftover directory path of kind (stopping its server or pooler first), as its owner. */
static void remove_dir(const char *path, const struct leftover_kind *kind, struct tally *t)
{
	char err[512];
	struct run_as as;

	if (t->dry_run) {
		printf("would remove %s\n", path);
		t->removed++;
		return;
	}
	if (run_as_owner_of(&as, path, err, sizeof(err)) < 0) {
		printf("cannot remove %s: %s\n", path, err);
		t->failed++;
		return;
	}
	if ((kind->stop && kind->stop(path, &as) < 0) || leftovers_remove(path, &as) < 0) {
		printf("cannot remove %s: its %s would not stop or the directory would not go\n", path, kind->what_runs);
		t->failed++;
	} else {
		printf("removed %s\n", path);
		t->removed++;
	}
	run_as_free(&as);
}

/* Looks at one entry of the temporary directory base: a leftover of a dead process is removed. */
static void visit_entry(const char *base, const char *name, struct tally *t)
{
	struct leftover_kind kind;
	char path[PATH_MAX];
	struct owner o;
	struct stat st;

	if (!leftover_kind_of(name, &kind))
		return;
	snprintf(path, sizeof(path), "%s/%s", base, name);
	if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return;
	if (read_note(path, &o) < 0) {
		printf("left alone: %s (no owner note: not made by this claimbench)\n", path);
		t->kept++;
	} else if (owner_alive(&o)) {
		printf("left alone: %s (claimbench pid %ld is running)\n", path, o.pid);
		t->kept++;
	} else {
		remove_dir(path, &kind, t);
	}
}

/* Removes the leftover directories of dead processes under $TMPDIR (or /tmp). */
static void clean_temporary(struct tally *t)
{
	const char *base = getenv("TMPDIR");
	struct dirent *e;
	DIR *dir;

	if (!base || !*base)
		base = "/tmp";
	dir = opendir(base);
	if (!dir) {
		printf("cannot read %s: %s\n", base, strerror(errno));
		t->failed++;
		return;
	}
	while ((e = readdir(dir)))
		visit_entry(base, e->d_name, t);
	closedir(dir);
}

/* A table found in the database with its owner note. */
struct marked_table {
	char name[128];			/* its name, unquoted */
	unsigned long long oid;		/* its oid (PostgreSQL's), 0 on SQLite */
	struct owner owner;		/* what its note says */
	bool readable;			/* the note could be read */
	bool dropped;			/* cleanup dropped it (dry: would drop it) */
};

/* The marked tables of one database, as db_marked_fn collects them. */
struct marked_list {
	struct marked_table items[256];	/* the tables */
	size_t n;			/* entries used */
};

/* db_marked_fn: keeps one marked table. */
static void keep_marked(void *ctx, const char *name, unsigned long long oid, const char *note)
{
	struct marked_list *l = ctx;
	struct marked_table *m;

	if (l->n == sizeof(l->items) / sizeof(l->items[0]))
		return;
	m = &l->items[l->n++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->oid = oid;
	m->readable = owner_parse(note, &m->owner) == 0;
	m->dropped = false;
}

/* Counts a row of a query into the int at ctx. */
static int count_one(void *ctx, const int64_t *cols, int ncols)
{
	(void)cols;
	(void)ncols;
	++*(int *)ctx;
	return 0;
}

/*
 * Drops the function named as the dead run's table name, which cleanup has dropped, where
 * the backend's runs make one (backend_ops.run_function_probe: PostgreSQL's --verify audit
 * trigger function, named as its audit table), when one exists that carries a claimbench
 * owner note; nothing else. Called once every table is gone,
 * since the run's triggers on its other tables depend on it.
 */
static void drop_run_function(const struct backend_ops *db, struct db_conn *conn, const char *name, struct tally *t)
{
	char quoted[300], sql[1024];
	int found = 0;

	if (!db->run_function_probe || db->quote_identifier(conn, name, quoted, sizeof(quoted)) < 0)
		return;
	snprintf(sql, sizeof(sql), db->run_function_probe, quoted);
	if (db->query(conn, sql, count_one, &found) < 0 || !found)
		return;
	if (t->dry_run) {
		printf("would drop function %s()\n", name);
		return;
	}
	snprintf(sql, sizeof(sql), db->run_function_drop, quoted);
	if (db->exec(conn, sql) == 0) {
		printf("dropped function %s()\n", name);
	} else {
		printf("cannot drop function %s(): %s\n", name, db->error_message(conn));
		t->failed++;
	}
}

/*
 * Drops the account named as the dead run's table name, which cleanup has dropped, where
 * the backend makes one per run for a scenario's SQL (MariaDB: backend_ops.account_create),
 * when it is such an account: it holds the privileges the run gave it on that table and
 * nothing more (an account of the user's own of that name is left alone, unnamed).
 */
static void drop_run_account(const struct backend_ops *db, struct db_conn *conn, const char *name, struct tally *t)
{
	int made;

	if (!db->account_made_for)
		return;
	made = db->account_made_for(conn, name);
	if (made < 0) {
		printf("cannot tell whether account %s is a dead run's: %s\n", name, db->error_message(conn));
		t->failed++;
		return;
	}
	if (!made)
		return;
	if (t->dry_run) {
		printf("would drop account %s\n", name);
		t->removed++;
		return;
	}
	if (db->account_drop(conn, name) == 0) {
		printf("dropped account %s\n", name);
		t->removed++;
	} else {
		printf("cannot drop account %s: %s\n", name, db->error_message(conn));
		t->failed++;
	}
}

/* Drops the table name, a dead run's: the one that carries its note, never one the note names. true when it went. */
static bool drop_table(const struct backend_ops *db, struct db_conn *conn, const char *name, struct tally *t)
{
	char quoted[300], sql[340];

	if (t->dry_run) {
		printf("would drop table %s\n", name);
		t->removed++;
		return true;
	}
	if (db->quote_identifier(conn, name, quoted, sizeof(quoted)) < 0) {
		printf("cannot drop table %s: its name cannot be quoted\n", name);
		t->failed++;
		return false;
	}
	snprintf(sql, sizeof(sql), "DROP TABLE %s", quoted);
	if (db->exec(conn, sql) == 0) {
		printf("dropped table %s\n", name);
		t->removed++;
		return true;
	}
	printf("cannot drop table %s: %s\n", name, db->error_message(conn));
	t->failed++;
	return false;
}

/*
 * A dead run's adapter marker m (adapter/run_marker.h): drops what the adapter it names made
 * for the run's queue, by its manifest (tables, schemas, cleanup SQL), before the marker
 * itself goes. true when they went (dry: would go), false when they stay, saying why, and the
 * marker with them, for a cleanup that can finish.
 */
static bool drop_adapter_objects(const struct backend_ops *db, struct db_conn *conn, const struct marked_table *m,
				 struct tally *t)
{
	const struct adapter_manifest *manifest;
	enum adapter_load_error why;
	char queue[128], name[64], err[1024];

	if (!adapter_marker_queue(m->name, queue, sizeof(queue)))
		return true;
	if (!adapter_queue_name_ok(queue)) {
		printf("left alone: table %s (a marker's name, but %s is no queue name a run gives: letters, digits, "
		       "'_', '-' and '.', ending in a and a number)\n", m->name, queue);
		t->kept++;
		return false;
	}
	if (adapter_marker_read(db, conn, m->name, name, sizeof(name), err, sizeof(err)) < 0 ||
	    !(manifest = adapter_load(name, &why, err, sizeof(err)))) {
		printf("left alone: table %s (a dead adapter run's marker: %s)\n", m->name, err);
		t->kept++;
		return false;
	}
	if (t->dry_run) {
		printf("would drop what adapter %s made for queue %s (its manifest's tables, schemas and cleanup)\n", name,
		       queue);
		t->removed++;
		return true;
	}
	if (adapter_drop_on(db, conn, manifest, queue, err, sizeof(err)) < 0) {
		printf("cannot drop what adapter %s made for queue %s: %s\n", name, queue, err);
		t->failed++;
		return false;
	}
	printf("dropped what adapter %s made for queue %s (its manifest's tables, schemas and cleanup)\n", name, queue);
	t->removed++;
	return true;
}

/*
 * Drops, or leaves alone saying why, the marked table m: it goes only when its own note
 * was written for it (its name and, on PostgreSQL, its oid: not a note copied onto another
 * table, nor an older claimbench's list of tables) by a run of this host that is dead; m->dropped says whether it went.
 */
static void visit_table(const struct backend_ops *db, struct db_conn *conn, struct marked_table *m,
			const struct owner *self, struct tally *t)
{
	bool its_own = m->readable && owner_marks(&m->owner, m->name, m->oid);

	if (its_own && strcmp(m->owner.host, self->host) == 0 && !owner_alive(&m->owner)) {
		m->dropped = drop_adapter_objects(db, conn, m, t) && drop_table(db, conn, m->name, t);
		return;
	}
	t->kept++;
	if (!m->readable)
		printf("left alone: table %s (its owner note cannot be read)\n", m->name);
	else if (m->owner.listing)
		printf("left alone: table %s (an older claimbench's note, which lists tables instead of marking "
		       "this one: drop it by hand if it is a dead run's)\n", m->name);
	else if (!its_own)
		printf("left alone: table %s (its owner note was written for another table: copied or renamed)\n",
		       m->name);
	else if (strcmp(m->owner.host, self->host) != 0)
		printf("left alone: table %s (made on host %s: run cleanup there)\n", m->name, m->owner.host);
	else
		printf("left alone: table %s (claimbench pid %ld is running)\n", m->name, m->owner.pid);
}

/*
 * Whether table is the --verify audit table (QUEUE_audit) of an adapter run whose marker in
 * found stays: its run is alive, or what its adapter made could not be dropped. It stays
 * with the marker, as its function's trigger may be on the adapter's table.
 */
static bool of_marker_kept(const struct marked_list *found, const char *table)
{
	char queue[128], audit[160];

	for (size_t i = 0; i < found->n; i++) {
		if (found->items[i].dropped || !adapter_marker_queue(found->items[i].name, queue, sizeof(queue)))
			continue;
		snprintf(audit, sizeof(audit), "%s%s", queue, ADAPTER_AUDIT_SUFFIX);
		if (strcmp(table, audit) == 0)
			return true;
	}
	return false;
}

/* Drops the tables of dead runs of this host in the database target names. EXIT_DONE, or EXIT_ENVIRONMENT. */
static int clean_database(const char *target, struct tally *t)
{
	static struct marked_list found;
	const struct db_options opts = { .sqlite_journal = -1, .sqlite_busy_timeout_ms = 5000 };
	const struct backend_ops *db = backend_of_target(target, &target);
	struct db_conn *conn;
	struct owner self;
	char err[512], queue[128];

	if (db->connect(target, &opts, &conn, err, sizeof(err)) < 0) {
		fprintf(stderr, "claimbench cleanup: cannot connect to the database: %s\n", err);
		return EXIT_ENVIRONMENT;
	}
	found.n = 0;
	if (db->marked_tables(conn, keep_marked, &found) < 0) {
		fprintf(stderr, "claimbench cleanup: cannot list the tables: %s\n", db->error_message(conn));
		db->disconnect(conn);
		return EXIT_ENVIRONMENT;
	}
	owner_self(&self);
	for (size_t i = 0; i < found.n; i++)
		if (adapter_marker_queue(found.items[i].name, queue, sizeof(queue)))
			visit_table(db, conn, &found.items[i], &self, t);
	for (size_t i = 0; i < found.n; i++) {
		if (adapter_marker_queue(found.items[i].name, queue, sizeof(queue)))
			continue;
		if (!of_marker_kept(&found, found.items[i].name)) {
			visit_table(db, conn, &found.items[i], &self, t);
			continue;
		}
		printf("left alone: table %s (its adapter run's marker stays, see above)\n", found.items[i].name);
		t->kept++;
	}
	for (size_t i = 0; i < found.n; i++)
		if (found.items[i].dropped) {
			drop_run_function(db, conn, found.items[i].name, t);
			drop_run_account(db, conn, found.items[i].name, t);
		}
	db->disconnect(conn);
	return EXIT_DONE;
}

int cmd_cleanup(int argc, char **argv)
{
	const struct command *cmd = command_find("cleanup");
	struct command_settings settings;
	struct tally t = { 0 };
	enum command_start start;
	char err[512];
	int status = EXIT_DONE;

	start = command_read(cmd, argc, argv, &settings);
	if (start != COMMAND_GO)
		return start == COMMAND_HELP_SHOWN ? EXIT_DONE : EXIT_USAGE;
	if (optind < argc) {
		snprintf(err, sizeof(err), "unexpected argument \"%s\"", argv[optind]);
		return command_usage_error(cmd, err);
	}
	if (settings.db && !settings.db[strspn(settings.db, " \t\n\r\f\v")])
		return command_usage_error(cmd, "--db: expected a libpq conninfo or URI, or sqlite:PATH, got a blank value "
						"(an unset variable?); libpq would take its defaults from the environment");
	t.dry_run = settings.dry_run;
	clean_temporary(&t);
	if (settings.db)
		status = clean_database(settings.db, &t);
	printf("%zu %s, %zu left alone, %zu could not be removed\n", t.removed,
	       t.dry_run ? "to remove" : "removed", t.kept, t.failed);
	return status != EXIT_DONE ? status : t.failed ? EXIT_ENVIRONMENT : EXIT_DONE;
}
