#include "db/leftovers.h"
#include "db/server_programs.h"
#include "db/postgresql/template_cluster.h"
#include "db/postgresql/tmp_postgres.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libpq-fe.h>

#define PG_SYSTEM_USER "postgres"		/* the account the programs run as when we are root */
#define PG_SUPERUSER "claimbench"		/* the cluster's superuser, whom clients log in as */
#define PG_VERSIONS_DIR "/usr/lib/postgresql/"	/* Debian's home of <version>/bin per server version */

/* Whether dir holds the server programs: executable initdb and pg_ctl. */
static bool bindir_usable(const char *dir)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/initdb", dir) >= (int)sizeof(path) || !server_program_executable(path))
		return false;
	if (snprintf(path, sizeof(path), "%s/pg_ctl", dir) >= (int)sizeof(path) || !server_program_executable(path))
		return false;
	return true;
}

/* Copies into bindir (PATH_MAX bytes) the directory `pg_config --bindir` names; false if that fails. */
static bool bindir_from_pg_config(char *bindir)
{
	char pg_config[PATH_MAX], err[256];
	char *argv[] = { pg_config, "--bindir", NULL };
	int out[2];
	ssize_t n, len = 0;
	bool ok;

	if (!server_program_in_path("pg_config", pg_config) || pipe2(out, O_CLOEXEC) != 0)
		return false;
	/* Its one line fits in the pipe, so it can be read after the program has exited. */
	ok = server_program_run(argv, out[1], NULL, NULL, NULL, err, sizeof(err)) == 0;
	close(out[1]);
	while (len < PATH_MAX - 1) {
		n = read(out[0], bindir + len, PATH_MAX - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(out[0]);
	while (len > 0 && (bindir[len - 1] == '\n' || bindir[len - 1] == '\r'))
		len--;
	bindir[len] = '\0';
	return ok && len > 0;
}

/* Copies into bindir (PATH_MAX bytes) the highest version's /usr/lib/postgresql/<version>/bin; false if none. */
static bool bindir_from_versions_dir(char *bindir)
{
	char candidate[PATH_MAX];
	long best = -1, major, minor;
	const char *path;
	glob_t g;
	char *end;
	size_t i;

	if (glob(PG_VERSIONS_DIR "*/bin/initdb", 0, NULL, &g) != 0) {
		globfree(&g);
		return false;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		path = g.gl_pathv[i];
		major = strtol(path + strlen(PG_VERSIONS_DIR), &end, 10);
		minor = *end == '.' ? strtol(end + 1, &end, 10) : 0;
		if (*end != '/' || major * 1000 + minor <= best)
			continue;
		snprintf(candidate, sizeof(candidate), "%.*s", (int)(strlen(path) - strlen("/initdb")), path);
		if (!bindir_usable(candidate))
			continue;
		best = major * 1000 + minor;
		memcpy(bindir, candidate, sizeof(candidate));
	}
	globfree(&g);
	return best >= 0;
}

/*
 * Finds the directory of the server programs into bindir (PATH_MAX bytes):
 * $CLAIMBENCH_PG_BINDIR (TMP_POSTGRES_NONE: none at all), else `pg_config --bindir`, else the highest version under
 * /usr/lib/postgresql, else initdb's directory on $PATH. 0, or -1 with a reason in err.
 */
static int find_bindir(char *bindir, char *err, size_t errlen)
{
	const char *env = getenv("CLAIMBENCH_PG_BINDIR");
	char *slash;

	if (env && strcmp(env, TMP_POSTGRES_NONE) == 0) {
		snprintf(err, errlen, "CLAIMBENCH_PG_BINDIR=%s: PostgreSQL's server programs are not to be used",
			 TMP_POSTGRES_NONE);
		return -1;
	}
	if (env && *env) {
		if (strlen(env) >= PATH_MAX || !bindir_usable(env)) {
			snprintf(err, errlen, "CLAIMBENCH_PG_BINDIR=%s does not hold initdb and pg_ctl", env);
			return -1;
		}
		strcpy(bindir, env);
		return 0;
	}
	if (bindir_from_pg_config(bindir) && bindir_usable(bindir))
		return 0;
	if (bindir_from_versions_dir(bindir))
		return 0;
	if (server_program_in_path("initdb", bindir)) {
		slash = strrchr(bindir, '/');
		*slash = '\0';
		if (bindir_usable(bindir))
			return 0;
	}
	snprintf(err, errlen, "no PostgreSQL server programs (initdb, pg_ctl) found; set CLAIMBENCH_PG_BINDIR");
	return -1;
}

/*
 * Runs argv as the cluster's user with its output appended to the log <pg->dir>/<log>.
 * 0, or -1 with a reason in err: the explaining line of the first of the logs
 * named in reasons (NULL-terminated, or NULL) that has one, else why it did not run.
 */
static int run_logged(const struct tmp_postgres *pg, char *const argv[], const char *log,
		      const char *const reasons[], char *err, size_t errlen)
{
	char path[PATH_MAX + 32], line[512];
	const char *name = strrchr(argv[0], '/') + 1;
	int ret;
	size_t i;

	snprintf(path, sizeof(path), "%s/%s", pg->dir, log);
	ret = server_program_run(argv, -1, path, &pg->as, pg->dir, err, errlen);
	for (i = 0; ret != 0 && reasons && reasons[i]; i++) {
		if (server_log_reason(pg->dir, reasons[i], line, sizeof(line))) {
			snprintf(err, errlen, "%s failed: %s", name, line);
			break;
		}
	}
	return ret;
}

/* initdb's arguments after -D DIR, and the same as one string: what names the template cluster. */
#define INITDB_ARGS "-U", PG_SUPERUSER, "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync", "--no-instructions"
#define INITDB_ARGS_TEXT "-U " PG_SUPERUSER " --auth=trust -E UTF8 --no-locale --no-sync --no-instructions"

/* Creates the cluster in <pg->dir>/data with initdb. 0, or -1 with a reason in err. */
static int run_initdb(const struct tmp_postgres *pg, char *err, size_t errlen)
{
	static const char *const reasons[] = { "initdb.log", NULL };
	char initdb[PATH_MAX + 16], data[PATH_MAX + 16];
	char *argv[] = { initdb, "-D", data, INITDB_ARGS, NULL };

	snprintf(initdb, sizeof(initdb), "%s/initdb", pg->bindir);
	snprintf(data, sizeof(data), "%s/data", pg->dir);
	return run_logged(pg, argv, "initdb.log", reasons, err, errlen);
}

/*
 * Starts the server with pg_ctl (action "start", or "restart" after an immediate stop)
 * and waits until it accepts connections. 0, or -1 with a reason in err. pg_ctl passes
 * the options through /bin/sh, which is why server_make_dir allows only plain paths.
 */
static int run_pg_ctl_start(const struct tmp_postgres *pg, const char *action, char *err, size_t errlen)
{
	static const char *const reasons[] = { "server.log", "pg_ctl.log", NULL };
	char pg_ctl[PATH_MAX + 16], data[PATH_MAX + 16], log[PATH_MAX + 16], options[PATH_MAX + 256];
	char *argv[] = { pg_ctl, (char *)action, "-D", data, "-l", log, "-w", "-t", "60", "-o", options,
			 "-m", "immediate", NULL };

	snprintf(pg_ctl, sizeof(pg_ctl), "%s/pg_ctl", pg->bindir);
	snprintf(data, sizeof(data), "%s/data", pg->dir);
	snprintf(log, sizeof(log), "%s/server.log", pg->dir);
	snprintf(options, sizeof(options),
		 "-c listen_addresses='' -c unix_socket_directories='%s' -p %d -c max_connections=%d%s",
		 pg->dir, pg->port, pg->max_connections,
		 pg->statements ? " -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=none" : "");
	return run_logged(pg, argv, "pg_ctl.log", reasons, err, errlen);
}

/* Stops the server with pg_ctl in mode ("fast" or "immediate"), waiting up to 30 s. 0 when it stopped. */
static int run_pg_ctl_stop(const struct tmp_postgres *pg, const char *mode)
{
	char pg_ctl[PATH_MAX + 16], data[PATH_MAX + 16], err[512];
	char *argv[] = { pg_ctl, "stop", "-D", data, "-m", (char *)mode, "-w", "-t", "30", NULL };

	snprintf(pg_ctl, sizeof(pg_ctl), "%s/pg_ctl", pg->bindir);
	snprintf(data, sizeof(data), "%s/data", pg->dir);
	return run_logged(pg, argv, "pg_ctl.log", NULL, err, sizeof(err));
}

/* Whether the server programs in bindir come with pg_stat_statements (its library beside them, in ../lib). */
static bool has_statements_library(const char *bindir)
{
	char path[PATH_MAX + 64];

	return snprintf(path, sizeof(path), "%s/../lib/pg_stat_statements.so", bindir) < (int)sizeof(path) &&
	       access(path, R_OK) == 0;
}

/*
 * Creates the pg_stat_statements extension in the server's database (its own, just
 * made); pg->statements is false after when it could not, and the run's costs are then
 * read database-wide.
 */
static void create_statements_extension(struct tmp_postgres *pg)
{
	PGconn *conn = PQconnectdb(pg->conninfo);
	PGresult *res = NULL;

	if (PQstatus(conn) == CONNECTION_OK)
		res = PQexec(conn, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
	pg->statements = res && PQresultStatus(res) == PGRES_COMMAND_OK;
	PQclear(res);
	PQfinish(conn);
}

/*
 * Creates the cluster in <pg->dir>/data: a copy of the template cluster t of pg's programs
 * when there is one and copy allows, else with initdb, keeping its output as the template
 * for the next (pg->template_said says why, when it could not). 1 copied, 0 made by initdb,
 * or -1 with a reason in err.
 */
static int make_cluster(struct tmp_postgres *pg, const struct template_cluster *t, bool copy, char *err,
			size_t errlen)
{
	char data[PATH_MAX + 16], why[512];
	int copied = 0;

	snprintf(data, sizeof(data), "%s/data", pg->dir);
	if (copy)
		copied = template_cluster_copy(t, data, err, errlen);
	if (copied != 0)
		return copied;
	if (run_initdb(pg, err, errlen) != 0)
		return -1;
	if (template_cluster_keep(t, data, why, sizeof(why)) < 0)
		snprintf(pg->template_said, sizeof(pg->template_said),
			 "could not keep a template cluster (%s): every throwaway server runs initdb "
			 "(CLAIMBENCH_CACHE_DIR=none: none is kept)", why);
	return 0;
}

/*
 * After a server copied from the template t would not start (why): stops what may run,
 * removes the copy and the template, makes the cluster with initdb (keeping a new template)
 * and starts it, pg->template_said saying so. 0, or -1 with a reason in err.
 */
static int start_from_initdb(struct tmp_postgres *pg, const struct template_cluster *t, const char *why, char *err,
			     size_t errlen)
{
	char data[PATH_MAX + 16];

	snprintf(data, sizeof(data), "%s/data", pg->dir);
	if (run_pg_ctl_stop(pg, "immediate") != 0)
		leftovers_stop_server(data, &pg->as);
	if (leftovers_remove(data, &pg->as) != 0 || template_cluster_drop(t) != 0) {
		snprintf(err, errlen, "a copy of the template cluster %.200s would not start (%.200s), and it cannot be "
			 "removed", t->path, why);
		return -1;
	}
	if (make_cluster(pg, t, false, err, errlen) < 0 || run_pg_ctl_start(pg, "start", err, errlen) != 0)
		return -1;
	if (!pg->template_said[0])
		snprintf(pg->template_said, sizeof(pg->template_said),
			 "a copy of the template cluster %.1024s would not start (%.300s): it was replaced, and this server "
			 "made by initdb", t->path, why);
	return 0;
}

int tmp_postgres_start(struct tmp_postgres *pg, struct watchdog *wd, int connections, char *err, size_t errlen)
{
	struct template_cluster t;
	char why[512];
	int copied;

	memset(pg, 0, sizeof(*pg));
	pg->port = TMP_POSTGRES_PORT;
	pg->max_connections = connections > TMP_POSTGRES_MIN_CONNECTIONS ? connections : TMP_POSTGRES_MIN_CONNECTIONS;
	if (find_bindir(pg->bindir, err, errlen) != 0 || run_as_choose(&pg->as, PG_SYSTEM_USER, err, errlen) != 0)
		goto fail;
	if (server_make_dir(pg->dir, TMP_POSTGRES_DIR_PREFIX, ".s.PGSQL." TMP_POSTGRES_PORT_TEXT, &pg->as, &pg->have_dir, err,
			    errlen) != 0)
		goto fail;
	if (watchdog_guard(wd, pg->dir, tmp_postgres_stop_leftover, &pg->as) != 0) {
		snprintf(err, errlen, "could not give %s to the watchdog", pg->dir);
		goto fail;
	}
	if (template_cluster_find(&t, pg->bindir, INITDB_ARGS_TEXT, err, errlen) != 0 ||
	    (copied = make_cluster(pg, &t, true, err, errlen)) < 0)
		goto fail;
	pg->statements = has_statements_library(pg->bindir);
	/* From here a server may be running, even when pg_ctl reports failure. */
	pg->started = true;
	if (run_pg_ctl_start(pg, "start", err, errlen) != 0) {
		snprintf(why, sizeof(why), "%s", err);
		if (!copied || start_from_initdb(pg, &t, why, err, errlen) != 0)
			goto fail;
	}
	if (snprintf(pg->conninfo, sizeof(pg->conninfo), "host=%s port=%d dbname=postgres user=%s", pg->dir,
		     pg->port, PG_SUPERUSER) >= (int)sizeof(pg->conninfo)) {
		snprintf(err, errlen, "the conninfo for %s does not fit", pg->dir);
		goto fail;
	}
	if (pg->statements)
		create_statements_extension(pg);
	return 0;
fail:
	tmp_postgres_stop(pg);
	return -1;
}

int tmp_postgres_restart(struct tmp_postgres *pg, char *err, size_t errlen)
{
	if (!pg->started) {
		snprintf(err, errlen, "the throwaway server is not running");
		return -1;
	}
	return run_pg_ctl_start(pg, "restart", err, errlen);
}

void tmp_postgres_stop(struct tmp_postgres *pg)
{
	if (pg->started) {
		char data[PATH_MAX + 16];

		snprintf(data, sizeof(data), "%s/data", pg->dir);
		if (run_pg_ctl_stop(pg, "immediate") != 0)
			leftovers_stop_server(data, &pg->as);
		pg->started = false;
	}
	/*
	 * Even if the server would not stop, its directory goes: a server whose lock
	 * file has vanished shuts itself down within a minute.
	 */
	if (pg->have_dir) {
		leftovers_remove(pg->dir, &pg->as);
		pg->have_dir = false;
	}
	run_as_free(&pg->as);
}

int tmp_postgres_node(struct tmp_postgres *node, const struct tmp_postgres *pg, const char *name, int port, char *err,
		      size_t errlen)
{
	memset(node, 0, sizeof(*node));
	node->port = port;
	node->statements = pg->statements;
	node->max_connections = pg->max_connections;	/* a hot standby needs as many as its primary */
	memcpy(node->bindir, pg->bindir, sizeof(node->bindir));
	if (snprintf(node->dir, sizeof(node->dir), "%s/%s", pg->dir, name) >= (int)sizeof(node->dir) ||
	    snprintf(node->conninfo, sizeof(node->conninfo), "host=%s port=%d dbname=postgres user=%s", node->dir,
		     port, PG_SUPERUSER) >= (int)sizeof(node->conninfo)) {
		snprintf(err, errlen, "the directory %s/%s is too long", pg->dir, name);
		return -1;
	}
	if (run_as_choose(&node->as, PG_SYSTEM_USER, err, errlen) != 0)
		return -1;
	if (mkdir(node->dir, 0700) != 0) {
		snprintf(err, errlen, "could not create %s: %s", node->dir, strerror(errno));
		goto fail;
	}
	node->have_dir = true;
	if (node->as.drop && chown(node->dir, node->as.uid, node->as.gid) != 0) {
		snprintf(err, errlen, "could not give %s to user %s: %s", node->dir, PG_SYSTEM_USER, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	tmp_postgres_stop(node);
	return -1;
}

int tmp_postgres_run(const struct tmp_postgres *pg, const char *program, const char *const args[], char *err,
		     size_t errlen)
{
	static const char *const reasons[] = { "server.log", "programs.log", NULL };
	char path[PATH_MAX + 32];
	char *argv[TMP_POSTGRES_MAX_ARGS + 2];
	size_t n = 0;

	if (snprintf(path, sizeof(path), "%s/%s", pg->bindir, program) >= (int)sizeof(path)) {
		snprintf(err, errlen, "the path of %s is too long", program);
		return -1;
	}
	argv[n++] = path;
	while (args[n - 1] && n <= TMP_POSTGRES_MAX_ARGS) {
		argv[n] = (char *)args[n - 1];
		n++;
	}
	argv[n] = NULL;
	return run_logged(pg, argv, "programs.log", reasons, err, errlen);
}

int tmp_postgres_available(char *err, size_t errlen)
{
	char bindir[PATH_MAX];
	const char *env = getenv("CLAIMBENCH_PG_BINDIR");

	if (find_bindir(bindir, err, errlen) == 0)
		return 1;
	return env && *env && strcmp(env, TMP_POSTGRES_NONE) != 0 ? -1 : 0;
}

int tmp_postgres_stop_leftover(const char *dir, const struct run_as *as)
{
	char data[PATH_MAX];

	if (snprintf(data, sizeof(data), "%s/%s/data", dir, STANDBY_DIR) < (int)sizeof(data))
		leftovers_stop_server(data, as);
	return leftovers_stop_server_in(dir, as);
}
