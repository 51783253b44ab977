/*
 * tmp_postgres: a throwaway cluster starts, answers over its private socket only,
 * and after stop is gone, directory and all; stop is safe to repeat; and when its
 * process dies without stopping it, its watchdog removes it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "check.h"
#include "db/leftovers.h"
#include "db/postgresql/tmp_postgres.h"
#include "db/watchdog.h"

/* Runs sql, which must return at least one row, and copies its first value into out. */
static bool query_value(PGconn *conn, const char *sql, char *out, size_t outlen)
{
	PGresult *res = PQexec(conn, sql);
	bool ok = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0;

	snprintf(out, outlen, "%s", ok ? PQgetvalue(res, 0, 0) : PQresultErrorMessage(res));
	PQclear(res);
	return ok;
}

/* Whether path no longer exists. */
static bool gone(const char *path)
{
	struct stat st;

	return stat(path, &st) != 0 && errno == ENOENT;
}

/*
 * A process that starts a cluster under a watchdog and dies without stopping it, as a
 * SIGKILLed claimbench would: the watchdog must stop the server and remove the directory.
 */
static void test_watchdog(void)
{
	char dir[PATH_MAX] = "";
	int fds[2], status;
	ssize_t got = 0;
	pid_t child;

	if (pipe(fds) != 0)
		return;
	child = fork();
	if (child == 0) {
		struct watchdog wd;
		struct tmp_postgres pg;
		char err[512];

		close(fds[0]);
		if (watchdog_start(&wd, err, sizeof(err)) == 0 && tmp_postgres_start(&pg, &wd, 0, err, sizeof(err)) == 0) {
			ssize_t put = write(fds[1], pg.dir, strlen(pg.dir) + 1);

			(void)put;
		}
		_exit(0);
	}
	close(fds[1]);
	if (child > 0)
		got = read(fds[0], dir, sizeof(dir) - 1);
	close(fds[0]);
	waitpid(child, &status, 0);
	CHECK(got > 1, "a process started a cluster under a watchdog and died without stopping it (%s)", dir);
	if (got <= 1)
		return;
	for (int tries = 0; tries < 100 && !gone(dir); tries++)
		usleep(100000);
	CHECK(gone(dir), "within 10 s the watchdog stopped the server and removed %s", dir);
}

/*
 * As root: a link planted in the cluster's directory (owned by the postgres user) where a
 * log is appended must not make root write through it; the server still stops.
 */
static void test_planted_link(void)
{
	char target[] = "/tmp/claimbench-test-rootfile-XXXXXX", log[PATH_MAX + 16], text[64] = "";
	struct tmp_postgres pg;
	struct watchdog wd;
	char err[512];
	int fd;
	ssize_t n;

	if (geteuid() != 0) {
		printf("ok - a planted link in the cluster folder refused # SKIP it needs root\n");
		return;
	}
	fd = mkstemp(target);
	if (fd < 0 || write(fd, "root only\n", 10) != 10 || watchdog_start(&wd, err, sizeof(err)) < 0 ||
	    tmp_postgres_start(&pg, &wd, 0, err, sizeof(err)) < 0) {
		printf("not ok - setting up the planted-link check: %s\n", err);
		return;
	}
	snprintf(log, sizeof(log), "%s/pg_ctl.log", pg.dir);
	unlink(log);
	CHECK_EQ(symlink(target, log), 0, "a link to a root-only file planted as %s", log);
	tmp_postgres_stop(&pg);
	n = pread(fd, text, sizeof(text) - 1, 0);
	CHECK(n == 10 && strcmp(text, "root only\n") == 0, "stopping the server did not write through the link");
	CHECK(gone(pg.dir), "the server stopped and its directory went all the same");
	close(fd);
	unlink(target);
	watchdog_release(&wd);
}

int main(void)
{
	struct tmp_postgres never = { 0 }, pg;
	char err[512] = "", value[512], note[PATH_MAX + 32];
	PGconn *conn, *open_conn;
	struct watchdog wd;
	struct stat st;

	tmp_postgres_stop(&never);
	CHECK(!never.started && !never.have_dir, "stop on a never-started cluster does nothing");

	if (tmp_postgres_available(err, sizeof(err)) != 1) {
		printf("ok - a throwaway cluster started and stopped # SKIP missing PostgreSQL's server programs, which "
		       "scripts/install-deps installs\n");
		return check_exit_status();
	}

	CHECK_EQ(watchdog_start(&wd, err, sizeof(err)), 0, "a watchdog starts (%s)", err);
	CHECK_EQ(tmp_postgres_start(&pg, &wd, 0, err, sizeof(err)), 0, "start: %s", err);
	if (!pg.started)
		return check_exit_status();
	CHECK(stat(pg.dir, &st) == 0 && S_ISDIR(st.st_mode), "the cluster lives in %s", pg.dir);
	snprintf(note, sizeof(note), "%s/" LEFTOVERS_OWNER_FILE, pg.dir);
	CHECK(stat(note, &st) == 0 && S_ISREG(st.st_mode), "the cluster holds the owner note %s", note);

	conn = PQconnectdb(pg.conninfo);
	CHECK_EQ(PQstatus(conn), CONNECTION_OK, "connect with \"%s\" %s", pg.conninfo, PQerrorMessage(conn));
	CHECK(query_value(conn, "SELECT 1", value, sizeof(value)) && strcmp(value, "1") == 0,
	      "SELECT 1 returns 1 (%s)", value);
	CHECK(query_value(conn, "SHOW listen_addresses", value, sizeof(value)) && value[0] == '\0',
	      "listen_addresses is empty: no TCP (%s)", value);
	CHECK(query_value(conn, "SHOW port", value, sizeof(value)) && strcmp(value, "5432") != 0,
	      "the port is not 5432 (%s)", value);
	CHECK(query_value(conn, "SHOW fsync", value, sizeof(value)) && strcmp(value, "on") == 0,
	      "fsync stays on (%s)", value);
	PQfinish(conn);

	open_conn = PQconnectdb(pg.conninfo);
	CHECK_EQ(PQstatus(open_conn), CONNECTION_OK, "a second connection, left open across stop");
	tmp_postgres_stop(&pg);
	CHECK(!pg.started && !pg.have_dir, "stop clears the flags");
	CHECK(gone(pg.dir), "stop removed %s", pg.dir);
	CHECK(!query_value(open_conn, "SELECT 1", value, sizeof(value)), "the open connection was cut off");
	PQfinish(open_conn);

	conn = PQconnectdb(pg.conninfo);
	CHECK_EQ(PQstatus(conn), CONNECTION_BAD, "connecting after stop fails");
	PQfinish(conn);

	tmp_postgres_stop(&pg);
	CHECK(gone(pg.dir) && !pg.started && !pg.have_dir, "a second stop is harmless");
	watchdog_release(&wd);
	CHECK_EQ(wd.pid, 0, "a released watchdog has exited");
	test_watchdog();
	test_planted_link();
	return check_exit_status();
}
