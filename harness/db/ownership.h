/*
 * The note that marks what a claimbench process creates (each of its tables, its
 * throwaway cluster) as its own: the process, the host, when it started and, on a table,
 * that very table: its name and, on PostgreSQL, its oid. A process that dies leaves the
 * note behind, and `claimbench cleanup` reads it to tell a dead process's leftovers from
 * a live one's. Each table carries its own note, written with its CREATE TABLE; a note
 * names no other table, so a note can only ever condemn the table that carries it.
 */
#ifndef CLAIMBENCH_OWNERSHIP_H
#define CLAIMBENCH_OWNERSHIP_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* How every note begins. */
#define OWNER_NOTE_PREFIX "claimbench run: "

/* What a note says. */
struct owner {
	long pid;			/* the process */
	char host[64];			/* its host name */
	time_t started;			/* when it started (seconds since the epoch) */
	char table[128];		/* the table the note marks, unquoted; "" on a directory's note */
	unsigned long long oid;		/* that table's PostgreSQL oid; 0 when none is recorded (SQLite) */
	bool listing;			/* an older claimbench's note, which listed its tables ("; tables A B")
					 * instead of marking the one that carries it: no table and no oid read */
};

/* The owner this process is: its pid, host (letters, digits, '.' and '-' only) and start, no table. */
void owner_self(struct owner *o);

/*
 * Writes o as a note into buf: "claimbench run: pid N on HOST started T", then
 * "; table NAME" when o names a table and " oid N" when it has an oid. The text holds no
 * quote, backslash, dollar or comment delimiter when the table's name holds none.
 */
void owner_format(const struct owner *o, char *buf, size_t len);

/*
 * Reads a note into o; an older claimbench's note with a list of tables reads with
 * o->listing set. 0, or -1 when note is no note of claimbench's.
 */
int owner_parse(const char *note, struct owner *o);

/*
 * Whether the note o, read on the table called name whose oid is oid (0 on SQLite), was
 * written for that very table: it names it, with its oid, and lists no tables.
 */
bool owner_marks(const struct owner *o, const char *name, unsigned long long oid);

/* Whether o's process is still running on this host: its pid is alive and started when o says. */
bool owner_alive(const struct owner *o);

struct backend_ops;
struct db_conn;

/*
 * Refuses when a table called name (unquoted) exists where conn would create one:
 * claimbench never uses or drops a table it did not create. 0, or -1 with err.
 */
int owner_refuse_existing(const struct backend_ops *db, struct db_conn *conn, const char *name, char *err,
			  size_t errlen);

/*
 * Runs sql, which creates the table called name (unquoted) and marks it with its own
 * note, in one transaction: the table exists marked, or not at all (where a CREATE commits
 * itself, as MariaDB's, a table made whose marking failed is dropped again). Fails when a table
 * of that name appeared since owner_refuse_existing looked (another session made it),
 * saying so as owner_refuse_existing does. 0 when the run created it (and only then may
 * it drop it), or -1 with err (what, then the reason).
 */
int owner_create_table(const struct backend_ops *db, struct db_conn *conn, const char *sql, const char *name,
		       const char *what, char *err, size_t errlen);

#endif
