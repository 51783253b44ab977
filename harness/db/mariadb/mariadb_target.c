#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "db/mariadb/mariadb_target.h"

char *mariadb_target_libpq_form(const char *text)
{
	size_t n = strlen(text) + sizeof("postgresql:");
	char *out = malloc(n);

	if (out)
		snprintf(out, n, "%s%s", strncmp(text, "//", 2) == 0 ? "postgresql:" : "", text);
	return out;
}

/* Copies value into dst of len bytes. 0, or -1 with err naming key when it does not fit. */
static int copy_value(char *dst, size_t len, const char *key, const char *value, char *err, size_t errlen)
{
	if (strlen(value) >= len) {
		snprintf(err, errlen, "mariadb: %s is too long (at most %zu bytes)", key, len - 1);
		return -1;
	}
	memcpy(dst, value, strlen(value) + 1);
	return 0;
}

/* Takes one parsed key's value into t. 0, or -1 with err for a key MariaDB has no use for. */
static int take(struct mariadb_target *t, const char *key, const char *value, char *err, size_t errlen)
{
	char *end;

	if (strcmp(key, "host") == 0)
		return value[0] == '/' ? copy_value(t->socket, sizeof(t->socket), key, value, err, errlen)
				       : copy_value(t->host, sizeof(t->host), key, value, err, errlen);
	if (strcmp(key, "user") == 0)
		return copy_value(t->user, sizeof(t->user), key, value, err, errlen);
	if (strcmp(key, "dbname") == 0)
		return copy_value(t->database, sizeof(t->database), key, value, err, errlen);
	if (strcmp(key, "password") == 0) {
		t->has_password = true;
		return copy_value(t->password, sizeof(t->password), key, value, err, errlen);
	}
	if (strcmp(key, "port") == 0 || strcmp(key, "connect_timeout") == 0) {
		long n = strtol(value, &end, 10);

		if (*end || n < 0 || n > 65535) {
			snprintf(err, errlen, "mariadb: %s=%.16s is not a number from 0 to 65535", key, value);
			return -1;
		}
		if (key[0] == 'p')
			t->port = (unsigned)n;
		else
			t->connect_timeout_s = (int)n;
		return 0;
	}
	snprintf(err, errlen, "mariadb: %s means nothing to MariaDB (host, port, user, password, dbname and "
		 "connect_timeout do)", key);
	return -1;
}

int mariadb_target_parse(const char *text, struct mariadb_target *t, char *err, size_t errlen)
{
	char *form = mariadb_target_libpq_form(text), *message = NULL;
	PQconninfoOption *opts = form ? PQconninfoParse(form, &message) : NULL;
	const char *pwd = getenv("MYSQL_PWD");
	int rc = -1;

	memset(t, 0, sizeof(*t));
	t->connect_timeout_s = 10;
	PQfreemem(message);
	free(form);
	if (!opts) {
		snprintf(err, errlen, "mariadb: cannot parse what follows mariadb: (its text is not shown, since it may "
			 "hold a password); expected key=value pairs or //user@host:port/database");
		return -1;
	}
	for (PQconninfoOption *o = opts; o->keyword; o++)
		if (o->val && take(t, o->keyword, o->val, err, errlen) < 0)
			goto out;
	if (!t->has_password && pwd) {
		t->has_password = true;
		if (copy_value(t->password, sizeof(t->password), "MYSQL_PWD", pwd, err, errlen) < 0)
			goto out;
	}
	if (!t->user[0] || !t->database[0]) {
		snprintf(err, errlen, "mariadb: name the %s: mariadb://USER@HOST:PORT/DATABASE or mariadb:user=USER "
			 "dbname=DATABASE ...", !t->user[0] ? "user" : "database");
		goto out;
	}
	rc = 0;
out:
	PQconninfoFree(opts);
	return rc;
}

/* Appends " key='value'" to buf, whose first used bytes are *at, escaping value's quotes and backslashes. 0, or -1. */
static int append_pair(char *buf, size_t len, size_t *at, const char *key, const char *value)
{
	int n = snprintf(buf + *at, len - *at, "%s%s='", *at ? " " : "", key);

	if (n < 0 || (size_t)n >= len - *at)
		return -1;
	*at += (size_t)n;
	for (const char *c = value; *c; c++) {
		if (*at + 3 >= len)
			return -1;
		if (*c == '\'' || *c == '\\')
			buf[(*at)++] = '\\';
		buf[(*at)++] = *c;
	}
	if (*at + 2 > len)
		return -1;
	buf[(*at)++] = '\'';
	buf[*at] = '\0';
	return 0;
}

int mariadb_target_format(const struct mariadb_target *t, char *buf, size_t len)
{
	char port[16], timeout[16];
	size_t at = 0;

	snprintf(port, sizeof(port), "%u", t->port);
	snprintf(timeout, sizeof(timeout), "%d", t->connect_timeout_s);
	if (len == 0)
		return -1;
	buf[0] = '\0';
	if ((t->socket[0] || t->host[0]) && append_pair(buf, len, &at, "host", t->socket[0] ? t->socket : t->host) < 0)
		return -1;
	if ((t->port && append_pair(buf, len, &at, "port", port) < 0) || append_pair(buf, len, &at, "user", t->user) < 0 ||
	    (t->has_password && append_pair(buf, len, &at, "password", t->password) < 0) ||
	    append_pair(buf, len, &at, "dbname", t->database) < 0 ||
	    append_pair(buf, len, &at, "connect_timeout", timeout) < 0)
		return -1;
	return 0;
}
