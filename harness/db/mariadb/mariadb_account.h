/*
 * The account a run's scenario SQL runs as on MariaDB (docs/scenarios.md, "What a scenario
 * file may do"): made by the harness's own session for one run, named as the run's queue
 * table at the host part of the harness's own account, with a random password and the
 * privileges to read and write that table and nothing else; dropped after the run, and by
 * `claimbench cleanup` once the run that made it is dead. The server's own privilege checks
 * are then what confine a statement a scenario file wrote.
 */
#ifndef CLAIMBENCH_MARIADB_ACCOUNT_H
#define CLAIMBENCH_MARIADB_ACCOUNT_H

#include <stddef.h>

#include <mysql.h>

#include "db/mariadb/mariadb_target.h"

/* The privileges the account holds on the run's queue table, as GRANT and SHOW GRANTS write them. */
#define MARIADB_ACCOUNT_PRIVILEGES "SELECT, INSERT, UPDATE, DELETE"

/*
 * Makes, on my (a session of the harness's, connected as admin says), the account called
 * table (the run's queue table, unquoted, in admin's database) at the host part of my's
 * CURRENT_USER(), with a random password, and grants it MARIADB_ACCOUNT_PRIVILEGES on that
 * table alone; fills *account with where admin goes, as that account. 0; 1 when the server
 * does not let my's user make the account or grant it (no CREATE USER privilege, no GRANT
 * OPTION), with the server's message in msg and nothing left behind; -1 with msg (an
 * account of that name exists already: claimbench never uses or drops one it did not make).
 */
int mariadb_account_create(MYSQL *my, const struct mariadb_target *admin, const char *table,
			   struct mariadb_target *account, char *msg, size_t msglen);

/* Drops the account called table at the host part of my's CURRENT_USER(), if there is one. 0, or -1 with err. */
int mariadb_account_drop(MYSQL *my, const char *table, char *err, size_t errlen);

/*
 * Whether the account called table at the host part of my's CURRENT_USER() is one
 * mariadb_account_create made for that table of database: it holds USAGE and
 * MARIADB_ACCOUNT_PRIVILEGES on database.table, nothing more. 1 it is; 0 there is no such
 * account, or it holds other privileges, or my's user may neither read its grants nor make
 * an account (a run as that user made none); -1 with err when its grants cannot be read.
 */
int mariadb_account_made_for(MYSQL *my, const char *database, const char *table, char *err, size_t errlen);

#endif
