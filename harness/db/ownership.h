/*
 * The note that marks what a claimbench process creates (its tables, its throwaway
 * cluster) as its own: the process, the host, when it started and what it made. A
 * process that dies leaves the note behind, and `claimbench cleanup` reads it to tell a
 * dead process's leftovers from a live one's.
 */
#ifndef CLAIMBENCH_OWNERSHIP_H
#define CLAIMBENCH_OWNERSHIP_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* How every note begins. */
#define OWNER_NOTE_PREFIX "claimbench run: "

/* Tables one note names at most. */
#define OWNER_MAX_TABLES 3

/* What a note says. */
struct owner {
	long pid;				/* the process */
	char host[64];				/* its host name */
	time_t started;				/* when it started (seconds since the epoch) */
	char tables[OWNER_MAX_TABLES][128];	/* the tables it created, unquoted */
	size_t n_tables;			/* entries used in tables */
};

/* The owner this process is: its pid, host (letters, digits, '.' and '-' only) and start, no tables yet. */
void owner_self(struct owner *o);

/* Writes o as a note into buf: text with no quote, backslash or comment delimiter in it. */
void owner_format(const struct owner *o, char *buf, size_t len);

/* Reads a note into o. 0, or -1 when note is no note of claimbench's. */
int owner_parse(const char *note, struct owner *o);

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

#endif
