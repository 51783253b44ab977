/* SQL templates: {jobs} and {tickets} stand for the run's quoted table names. */
#ifndef CLAIMBENCH_SQL_TEMPLATE_H
#define CLAIMBENCH_SQL_TEMPLATE_H

#include <stddef.h>

/*
 * Writes tmpl into buf with {jobs} and {tickets} replaced by the quoted table names, and
 * {jobs:SUFFIX} or {tickets:SUFFIX} by the name with "_SUFFIX" appended inside the quotes
 * (for dialects, such as SQLite, where an index must be named). 0, or -1 when it does not fit
 * or a suffixed name's quoted form does not end in '"'.
 */
int sql_expand(const char *tmpl, const char *jobs, const char *tickets, char *buf, size_t len);

#endif
