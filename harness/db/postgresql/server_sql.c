#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "db/postgresql/server_sql.h"

#define SERVER_POLL_MS 20	/* how often pg_server_wait asks again */

/* Sleeps ms milliseconds. */
static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int pg_server_sql(const char *conninfo, const char *sql, long *out, char *err, size_t errlen)
{
	PGconn *conn = PQconnectdb(conninfo);
	PGresult *res = NULL;
	int ret = -1;

	if (PQstatus(conn) != CONNECTION_OK) {
		snprintf(err, errlen, "connecting to the throwaway server: %s", PQerrorMessage(conn));
		goto out;
	}
	res = PQexec(conn, sql);
	if (PQresultStatus(res) != (out ? PGRES_TUPLES_OK : PGRES_COMMAND_OK)) {
		snprintf(err, errlen, "%s: %s", sql, PQerrorMessage(conn));
		goto out;
	}
	if (out)
		*out = PQntuples(res) > 0 && !PQgetisnull(res, 0, 0) ? strtol(PQgetvalue(res, 0, 0), NULL, 10) : 0;
	ret = 0;
out:
	if (ret < 0)
		err[strcspn(err, "\n")] = '\0';
	PQclear(res);
	PQfinish(conn);
	return ret;
}

int pg_server_wait(const char *conninfo, const char *sql, long want, int limit_ms, const char *what, char *err,
		   size_t errlen)
{
	long got = -1;

	for (long waited = 0; waited <= limit_ms; waited += SERVER_POLL_MS) {
		if (pg_server_sql(conninfo, sql, &got, err, errlen) == 0 && got == want)
			return 0;
		sleep_ms(SERVER_POLL_MS);
	}
	snprintf(err, errlen, "%s within %d s", what, limit_ms / 1000);
	return -1;
}
