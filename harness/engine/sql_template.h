/*
 * SQL templates: the statements of the harness and of the strategies, written once per
 * dialect (or once for both), with placeholders for what only the run knows.
 */
#ifndef CLAIMBENCH_SQL_TEMPLATE_H
#define CLAIMBENCH_SQL_TEMPLATE_H

#include <stddef.h>

#include "db/backend.h"

/* A template written the same for every dialect: one strategy_statement.sql entry per dialect. */
#define SQL_ANY(text) { [BACKEND_POSTGRESQL] = (text), [BACKEND_SQLITE] = (text) }

/* What a template's placeholders stand for in one run. */
struct sql_names {
	const char *jobs;		/* {jobs}: the queue table's quoted name */
	const char *tickets;		/* {tickets}: the ticket control table's quoted name */
	const char *owner;		/* {owner}: the note that marks the run's tables as its own */
	enum backend_kind dialect;	/* {now}: the dialect's clock (timestamptz, or a julian day on SQLite) */
};

/*
 * Writes tmpl into buf with {jobs} and {tickets} replaced by the quoted table names,
 * {jobs:SUFFIX} or {tickets:SUFFIX} by the name with "_SUFFIX" appended inside the quotes
 * (for dialects, such as SQLite, where an index must be named), {owner} by the owner note
 * and {now} by the dialect's current time. 0, or -1 when it does not fit or a suffixed
 * name's quoted form does not end in '"'.
 */
int sql_expand(const char *tmpl, const struct sql_names *names, char *buf, size_t len);

#endif
