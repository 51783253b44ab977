/*
 * Where a MariaDB connection goes, read from what follows "mariadb:" in --db: key=value
 * pairs (host, port, user, password, dbname) or a URI //user:password@host:port/dbname,
 * both read with libpq's own parser (the syntax and quoting PostgreSQL's --db takes, so
 * that its passwords are masked the same way: db/conninfo.h). A host that starts with '/'
 * is the server's Unix socket file.
 */
#ifndef CLAIMBENCH_MARIADB_TARGET_H
#define CLAIMBENCH_MARIADB_TARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* What a MariaDB connection is opened with. */
struct mariadb_target {
	char host[256];		/* the server's host name or address; "" with a socket */
	char socket[PATH_MAX];	/* the server's Unix socket file; "" for TCP */
	unsigned port;		/* its TCP port; 0: the default, 3306 */
	char user[128];		/* who logs in */
	char password[256];	/* the password; "" with has_password false: none given */
	bool has_password;	/* a password was given (in the target, or $MYSQL_PWD) */
	char database[128];	/* the database the run's tables are made in */
	int connect_timeout_s;	/* how long connecting may take */
};

/*
 * Reads text (what follows "mariadb:") into t. 0, or -1 with err (which never repeats a
 * password) when it cannot be parsed, names a key that means nothing to MariaDB, or
 * names no user or no database.
 */
int mariadb_target_parse(const char *text, struct mariadb_target *t, char *err, size_t errlen);

/*
 * Writes t into buf as key=value pairs mariadb_target_parse reads back as t (every value
 * quoted, its quotes and backslashes escaped). 0, or -1 when it does not fit.
 */
int mariadb_target_format(const struct mariadb_target *t, char *buf, size_t len);

/*
 * text as libpq's parser reads it: a new string (free it), "postgresql:" put before a URI's
 * "//"; NULL when out of memory.
 */
char *mariadb_target_libpq_form(const char *text);

#endif
