/* SQL templates: {jobs} and {tickets} stand for the run's quoted table names. */
#ifndef CLAIMBENCH_SQL_TEMPLATE_H
#define CLAIMBENCH_SQL_TEMPLATE_H

#include <stddef.h>

/* Writes tmpl into buf with {jobs} and {tickets} replaced. 0, or -1 when it does not fit. */
int sql_expand(const char *tmpl, const char *jobs, const char *tickets, char *buf, size_t len);

#endif
