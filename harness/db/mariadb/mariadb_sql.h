/*
 * The shared SQL templates as MariaDB's prepared statements take them: $1..$n become '?'
 * (one per use: a parameter used twice is bound twice), a template of several statements
 * (';' between them) becomes one prepared statement each, run in order (the rows it
 * returns are those of the last statement that returns any), and an UPDATE's
 * RETURNING of plain columns, which MariaDB 10.11 lacks, becomes the UPDATE capturing
 * those columns' new values into session variables followed by a SELECT of them: of one
 * row's values (a statement that may match one row at most, the prepared path), or, when
 * many rows may match (the query path: the reaper, the stuck jobs' give-back), of lists
 * holding every matched row's values, which mariadb_list_next reads back. On the prepared
 * path an UPDATE whose WHERE pins every returned column to a parameter (id = $1, joined by
 * AND, the column not assigned) needs neither: its row is those parameters once it matched
 * one, and the template costs the server no round trip beyond the UPDATE's own.
 */
#ifndef CLAIMBENCH_MARIADB_SQL_H
#define CLAIMBENCH_MARIADB_SQL_H

#include <stdbool.h>
#include <stddef.h>

/* Statements one template may become. */
#define MARIADB_MAX_PARTS 8

/* Columns an UPDATE's RETURNING may name. */
#define MARIADB_MAX_RETURNING 16

/* '?' one statement may have. */
#define MARIADB_MAX_BINDS 16

/* One statement of a translated template. */
struct mariadb_part {
	char *sql;				/* its text with '?' for parameters (owned); NULL: a pinned
						 * RETURNING's row (nreturn), no statement */
	int nbinds;				/* its '?', in order */
	int bind_param[MARIADB_MAX_BINDS];	/* per '?', which parameter it takes: 0 for $1 */
	bool bind_integer[MARIADB_MAX_BINDS];	/* per '?', it follows LIMIT or OFFSET: bound as an integer,
						 * which MariaDB wants there (text elsewhere) */
	bool captured;				/* a SELECT of what the UPDATE before it captured: run only
						 * when that UPDATE matched a row (one at most unless list) */
	bool list;				/* (captured) each column it selects is a list of every matched
						 * row's values, as mariadb_list_next reads them */
	int nreturn;				/* (captured, sql NULL) no statement: its one row is the
						 * parameters return_param names, which the UPDATE before it
						 * pinned its returned columns to (WHERE id = $1 ... RETURNING
						 * id), sent to no server */
	int return_param[MARIADB_MAX_RETURNING]; /* per returned column, its parameter: 0 for $1 */
};

/* A template as MariaDB's statements. */
struct mariadb_translation {
	int nparts;					/* statements in parts, at least 1 */
	struct mariadb_part parts[MARIADB_MAX_PARTS];	/* them, in the order they run */
	bool nowait;					/* it says NOWAIT: a lock wait timeout is a lock not available */
	bool transaction;				/* its first statement begins a transaction (START TRANSACTION,
							 * BEGIN): a failure after it rolls it back */
};

/*
 * Translates sql, whose parameters are $1..$nparams, into out; many: an UPDATE's RETURNING
 * may match many rows, captured as lists (a statement then before the UPDATE empties the
 * variables). 0, or -1 with err when a parameter is out of range, it holds too many
 * statements or '?', an UPDATE's RETURNING names anything but columns, or memory runs out
 * (out is then empty).
 */
int mariadb_translate(const char *sql, int nparams, bool many, struct mariadb_translation *out, char *err,
		      size_t errlen);

/*
 * Reads the next value of a captured list at *cursor (text the SELECT returned, decoded in
 * place), setting *value to it, NUL-terminated, or NULL for an SQL NULL, and moving
 * *cursor past it. 1 with a value, 0 at the list's end, -1 when the text is no such list.
 */
int mariadb_list_next(char **cursor, char **value);

/* Frees what out holds; a zeroed out is fine. */
void mariadb_translation_free(struct mariadb_translation *out);

#endif
