#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "db/backend.h"
#include "db/mariadb/mariadb_account.h"

/* The server's error numbers that say my's user may not make the account or grant it (mysqld_error.h). */
enum {
	ER_DBACCESS_DENIED_CODE = 1044,
	ER_TABLEACCESS_DENIED_CODE = 1142,
	ER_NONEXISTING_GRANT_CODE = 1141,
	ER_CANNOT_USER_CODE = 1396,
	ER_SPECIFIC_ACCESS_DENIED_CODE = 1227,
};

/* Random characters of the password, and the tail after them (a digit, both cases, a sign: what MariaDB's simple_password_check asks). */
#define PASSWORD_RANDOM 32
#define PASSWORD_TAIL "-Aa0"

/* Copies my's last error message into msg. */
static void server_said(MYSQL *my, char *msg, size_t msglen)
{
	db_first_line(msg, msglen, mysql_error(my));
}

/*
 * Writes 'table'@'host' into buf, host the host part of my's CURRENT_USER() (the run's
 * account may connect from where the harness's may), both escaped as strings. 0, or -1 with err.
 */
static int account_name(MYSQL *my, const char *table, char *buf, size_t len, char *err, size_t errlen)
{
	char name[2 * 128 + 1], host[2 * 256 + 1];
	MYSQL_RES *res;
	MYSQL_ROW row;
	int rc = -1;

	if (strlen(table) >= 128) {
		snprintf(err, errlen, "the run's account name %s is too long", table);
		return -1;
	}
	if (mysql_query(my, "SELECT SUBSTRING_INDEX(CURRENT_USER(), '@', -1)") != 0 || !(res = mysql_store_result(my))) {
		server_said(my, err, errlen);
		return -1;
	}
	row = mysql_fetch_row(res);
	if (!row || !row[0] || strlen(row[0]) >= 256) {
		snprintf(err, errlen, "the server did not say the host part of the harness's account (CURRENT_USER())");
		goto out;
	}
	mysql_real_escape_string(my, name, table, (unsigned long)strlen(table));
	mysql_real_escape_string(my, host, row[0], (unsigned long)strlen(row[0]));
	rc = snprintf(buf, len, "'%s'@'%s'", name, host) < (int)len ? 0 : -1;
	if (rc < 0)
		snprintf(err, errlen, "the run's account name does not fit");
out:
	mysql_free_result(res);
	return rc;
}

/* Writes into buf "name"."table", ANSI_QUOTES' identifiers (the session's sql_mode), doubling a quote inside. 0, or -1. */
static int quoted_table(const char *database, const char *table, char *buf, size_t len)
{
	char db[300], tb[300];

	if (db_quote_double(NULL, database, db, sizeof(db)) < 0 || db_quote_double(NULL, table, tb, sizeof(tb)) < 0)
		return -1;
	return snprintf(buf, len, "%s.%s", db, tb) < (int)len ? 0 : -1;
}

/* Fills password with PASSWORD_RANDOM random letters and digits and PASSWORD_TAIL. 0, or -1 with err. */
static int random_password(char *password, size_t len, char *err, size_t errlen)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char bytes[PASSWORD_RANDOM];

	if (len < PASSWORD_RANDOM + sizeof(PASSWORD_TAIL) ||
	    getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes)) {
		snprintf(err, errlen, "cannot draw a random password for the run's account");
		return -1;
	}
	for (size_t i = 0; i < PASSWORD_RANDOM; i++)
		password[i] = alphabet[bytes[i] % (sizeof(alphabet) - 1)];
	memcpy(password + PASSWORD_RANDOM, PASSWORD_TAIL, sizeof(PASSWORD_TAIL));
	return 0;
}

/* Whether the server's last error on my says that my's user may not make an account or grant it. */
static bool not_allowed(MYSQL *my)
{
	unsigned code = mysql_errno(my);

	return code == ER_SPECIFIC_ACCESS_DENIED_CODE || code == ER_DBACCESS_DENIED_CODE ||
	       code == ER_TABLEACCESS_DENIED_CODE;
}

int mariadb_account_create(MYSQL *my, const struct mariadb_target *admin, const char *table,
			   struct mariadb_target *account, char *msg, size_t msglen)
{
	char who[800], on[640], sql[1800], said[400];

	*account = *admin;
	if (account_name(my, table, who, sizeof(who), msg, msglen) < 0 ||
	    random_password(account->password, sizeof(account->password), msg, msglen) < 0)
		return -1;
	if (quoted_table(admin->database, table, on, sizeof(on)) < 0) {
		snprintf(msg, msglen, "the run's table name does not fit");
		return -1;
	}
	snprintf(account->user, sizeof(account->user), "%s", table);
	account->has_password = true;
	snprintf(sql, sizeof(sql), "CREATE USER %s IDENTIFIED BY '%s'", who, account->password);
	if (mysql_query(my, sql) != 0) {
		server_said(my, said, sizeof(said));
		if (mysql_errno(my) == ER_CANNOT_USER_CODE)
			snprintf(msg, msglen, "an account %s exists already; claimbench never uses or drops an account it did "
				 "not make (choose another --table-prefix; claimbench cleanup drops a dead run's)", who);
		else
			snprintf(msg, msglen, "CREATE USER %s: %s", who, said);
		return not_allowed(my) ? 1 : -1;
	}
	snprintf(sql, sizeof(sql), "GRANT " MARIADB_ACCOUNT_PRIVILEGES " ON %s TO %s", on, who);
	if (mysql_query(my, sql) != 0) {
		bool refused = not_allowed(my);

		server_said(my, said, sizeof(said));
		snprintf(msg, msglen, "GRANT ... ON %s TO %s: %s", on, who, said);
		snprintf(sql, sizeof(sql), "DROP USER %s", who);
		if (mysql_query(my, sql) != 0) {
			server_said(my, said, sizeof(said));
			snprintf(msg, msglen, "GRANT ... ON %s TO %s was refused, and dropping the account again failed: %s",
				 on, who, said);
			return -1;
		}
		return refused ? 1 : -1;
	}
	return 0;
}

int mariadb_account_drop(MYSQL *my, const char *table, char *err, size_t errlen)
{
	char who[800], sql[840];

	if (account_name(my, table, who, sizeof(who), err, errlen) < 0)
		return -1;
	snprintf(sql, sizeof(sql), "DROP USER IF EXISTS %s", who);
	if (mysql_query(my, sql) != 0) {
		server_said(my, err, errlen);
		return -1;
	}
	return 0;
}

/* Copies text into buf with every double quote made a backquote: SHOW GRANTS quotes names as the sql_mode says. */
static void backquoted(const char *text, char *buf, size_t len)
{
	snprintf(buf, len, "%s", text);
	for (char *c = buf; *c; c++)
		if (*c == '"')
			*c = '`';
}

/*
 * Whether my's user holds CREATE USER (information_schema.USER_PRIVILEGES lists the
 * user's own global privileges, which any account may read): 1, 0, or -1 when it cannot
 * be read.
 */
static int may_create_user(MYSQL *my)
{
	MYSQL_RES *res;
	MYSQL_ROW row;
	int held = -1;

	if (mysql_query(my, "SELECT count(*) FROM information_schema.USER_PRIVILEGES WHERE PRIVILEGE_TYPE = 'CREATE USER'"))
		return -1;
	res = mysql_store_result(my);
	if (!res)
		return -1;
	row = mysql_fetch_row(res);
	if (row && row[0])
		held = strtol(row[0], NULL, 10) > 0;
	mysql_free_result(res);
	return held;
}

int mariadb_account_made_for(MYSQL *my, const char *database, const char *table, char *err, size_t errlen)
{
	char who[800], sql[840], named[800], usage[900], grant[1200], row_text[1600];
	MYSQL_RES *res;
	MYSQL_ROW row;
	int rows = 0, matched = 0;

	if (account_name(my, table, who, sizeof(who), err, errlen) < 0)
		return -1;
	snprintf(sql, sizeof(sql), "SHOW GRANTS FOR %s", who);
	if (mysql_query(my, sql) != 0) {
		bool denied = not_allowed(my);

		if (mysql_errno(my) == ER_NONEXISTING_GRANT_CODE)
			return 0;
		server_said(my, err, errlen);
		/* a user who may not read others' grants nor make an account made none: not its to drop */
		return denied && may_create_user(my) == 0 ? 0 : -1;
	}
	res = mysql_store_result(my);
	if (!res) {
		server_said(my, err, errlen);
		return -1;
	}
	/* who is 'name'@'host'; SHOW GRANTS writes `name`@`host` */
	backquoted(who, named, sizeof(named));
	for (char *c = named; *c; c++)
		if (*c == '\'')
			*c = '`';
	snprintf(usage, sizeof(usage), "GRANT USAGE ON *.* TO %s", named);
	snprintf(grant, sizeof(grant), "GRANT " MARIADB_ACCOUNT_PRIVILEGES " ON `%.128s`.`%.128s` TO %s", database,
		 table, named);
	while ((row = mysql_fetch_row(res))) {
		rows++;
		if (!row[0])
			continue;
		backquoted(row[0], row_text, sizeof(row_text));
		matched += (rows == 1 && strncmp(row_text, usage, strlen(usage)) == 0 &&
			    (row_text[strlen(usage)] == '\0' || row_text[strlen(usage)] == ' ')) ||
			   (rows == 2 && strcmp(row_text, grant) == 0);
	}
	mysql_free_result(res);
	return rows == 2 && matched == 2;
}
