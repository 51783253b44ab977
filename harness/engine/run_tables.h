/*
 * The tables of a run, whichever its workload: their names (a prefix of the run's, then
 * what each is), and the harness's own statements on them (DDL, drops), expanded as the
 * run's names say. A table the run creates carries its owner's note from the transaction
 * that creates it (db/ownership.h): what claimbench did not create it never drops.
 */
#ifndef CLAIMBENCH_RUN_TABLES_H
#define CLAIMBENCH_RUN_TABLES_H

#include <stddef.h>

#include "db/backend.h"
#include "engine/sql_template.h"

/* Longest DDL statement of the harness's once its placeholders are filled. */
#define RUN_TABLES_SQL_MAX 4096

/* Writes into buf the prefix of the run's table names: configured (--table-prefix), or claimbench_<pid>_. */
void run_tables_prefix(const char *configured, char *buf, size_t len);

/*
 * Writes prefix + suffix into name and its quoted form on conn into quoted. 0, or -1 with
 * err ("cannot quote the table names of prefix ...").
 */
int run_table_name(const struct backend_ops *db, struct db_conn *conn, const char *prefix, const char *suffix,
		   char *name, size_t namelen, char *quoted, size_t quotedlen, char *err, size_t errlen);

/* Expands tmpl as names say and runs it on conn. 0, or -1 with err naming what. */
int run_tables_exec(const struct backend_ops *db, struct db_conn *conn, const struct sql_names *names,
		    const char *tmpl, const char *what, char *err, size_t errlen);

/*
 * Expands tmpl, which creates the table name with its note ({mark:...}), and runs it in
 * one transaction (owner_create_table). 0, or -1 with err naming what.
 */
int run_tables_create(const struct backend_ops *db, struct db_conn *conn, const struct sql_names *names,
		      const char *tmpl, const char *name, const char *what, char *err, size_t errlen);

#endif
