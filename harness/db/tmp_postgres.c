#include "db/leftovers.h"
#include "db/tmp_postgres.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpq-fe.h>

#define PG_SYSTEM_USER "postgres"		/* the account the programs run as when we are root */
#define PG_SUPERUSER "claimbench"		/* the cluster's superuser, whom clients log in as */
#define PG_VERSIONS_DIR "/usr/lib/postgresql/"	/* Debian's home of <version>/bin per server version */

/* The step of a child's set-up before exec that failed. */
enum child_step {
	STEP_SESSION,
	STEP_USER,
	STEP_CHDIR,
	STEP_LOG,
	STEP_STDIO,
	STEP_EXEC,
};

/* What a child writes to its report pipe when it cannot get as far as the program. */
struct child_failure {
	int step;	/* the enum child_step that failed */
	int error;	/* the errno it failed with */
};

/* What a failed enum child_step was trying to do, for a message. */
static const char *child_step_name(int step)
{
	static const char *const names[] = {
		[STEP_SESSION] = "start a new session",
		[STEP_USER] = ("switch to user " PG_SYSTEM_USER),
		[STEP_CHDIR] = "enter the cluster directory",
		[STEP_LOG] = "open its log (a link or no regular file there?)",
		[STEP_STDIO] = "redirect its output",
		[STEP_EXEC] = "run it",
	};

	return step >= 0 && step <= STEP_EXEC ? names[step] : "start it";
}

/* Whether path is an executable regular file. */
static bool is_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Whether dir holds the server programs: executable initdb and pg_ctl. */
static bool bindir_usable(const char *dir)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/initdb", dir) >= (int)sizeof(path) || !is_executable(path))
		return false;
	if (snprintf(path, sizeof(path), "%s/pg_ctl", dir) >= (int)sizeof(path) || !is_executable(path))
		return false;
	return true;
}

/* Copies into out (PATH_MAX bytes) the first executable called name in a $PATH directory; false if none. */
static bool find_in_path(const char *name, char *out)
{
	const char *path = getenv("PATH");
	const char *p, *end;

	if (!path)
		return false;
	for (p = path;; p = end + 1) {
		end = strchrnul(p, ':');
		if (end > p && snprintf(out, PATH_MAX, "%.*s/%s", (int)(end - p), p, name) < PATH_MAX &&
		    is_executable(out))
			return true;
		if (!*end)
			return false;
	}
}

/* Reports to the parent through fd which set-up step failed, with errno, and exits. */
_Noreturn static void child_fail(int fd, enum child_step step)
{
	struct child_failure failure = { .step = step, .error = errno };
	ssize_t written = write(fd, &failure, sizeof(failure));

	(void)written;
	_exit(127);
}

/*
 * The forked child: in a session of its own (so a Ctrl-C at the terminal does not
 * reach it or the server it starts), as the cluster's user when pg says so, in
 * pg->dir, with stdin from null_fd and stdout and stderr to out_fd, or to the log
 * log_path (opened by the child once it is that user, never through a link), executes
 * argv. Uses only async-signal-safe calls; failures are written to report_fd.
 */
_Noreturn static void child_exec(char *const argv[], int out_fd, const char *log_path, int null_fd,
				 const struct tmp_postgres *pg, int report_fd)
{
	static const int reset_signals[] = { SIGPIPE, SIGCHLD, SIGINT, SIGTERM, SIGQUIT, SIGHUP };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;
	size_t i;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (i = 0; i < sizeof(reset_signals) / sizeof(reset_signals[0]); i++)
		sigaction(reset_signals[i], &dfl, NULL);
	if (setsid() < 0)
		child_fail(report_fd, STEP_SESSION);
	if (pg && run_as_become(&pg->as) != 0)
		child_fail(report_fd, STEP_USER);
	if (pg && chdir(pg->dir) != 0)
		child_fail(report_fd, STEP_CHDIR);
	if (log_path) {
		out_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (out_fd < 0)
			child_fail(report_fd, STEP_LOG);
	}
	if (dup2(null_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0 || dup2(out_fd, STDERR_FILENO) < 0)
		child_fail(report_fd, STEP_STDIO);
	/* Keep the caller's other descriptors (connections, files) out of the long-lived server. */
	close_range(STDERR_FILENO + 1, ~0U, CLOSE_RANGE_CLOEXEC);
	execv(argv[0], argv);
	child_fail(report_fd, STEP_EXEC);
}

/*
 * Runs argv (argv[0] an absolute path) with stdout and stderr to out_fd, or appended to
 * the log file log_path when that is not NULL, and waits for it. With pg, it runs as pg's
 * user in pg->dir; without, as ourselves here. 0 when it exits with status 0; else -1
 * with a reason in err.
 */
static int run_program(char *const argv[], int out_fd, const char *log_path, const struct tmp_postgres *pg,
		       char *err, size_t errlen)
{
	struct child_failure failure;
	int null_fd = -1, report[2] = { -1, -1 }, status, ret = -1;
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	ssize_t n;
	pid_t pid;

	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null_fd < 0 || pipe2(report, O_CLOEXEC) != 0) {
		snprintf(err, errlen, "could not prepare to run %s: %s", name, strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "could not fork to run %s: %s", name, strerror(errno));
		goto out;
	}
	if (pid == 0)
		child_exec(argv, out_fd, log_path, null_fd, pg, report[1]);
	close(report[1]);
	report[1] = -1;
	do
		n = read(report[0], &failure, sizeof(failure));
	while (n < 0 && errno == EINTR);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(err, errlen, "could not wait for %s: %s", name, strerror(errno));
			goto out;
		}
	}
	if (n == (ssize_t)sizeof(failure) && failure.step == STEP_CHDIR)
		snprintf(err, errlen, "%s could not enter %s%s: %s", name, pg->dir,
			 pg->as.drop ? " as user " PG_SYSTEM_USER : "", strerror(failure.error));
	else if (n == (ssize_t)sizeof(failure))
		snprintf(err, errlen, "%s: could not %s: %s", argv[0], child_step_name(failure.step),
			 strerror(failure.error));
	else if (WIFSIGNALED(status))
		snprintf(err, errlen, "%s was killed by signal %d", name, WTERMSIG(status));
	else if (WEXITSTATUS(status) != 0)
		snprintf(err, errlen, "%s exited with status %d", name, WEXITSTATUS(status));
	else
		ret = 0;
out:
	if (report[0] >= 0)
		close(report[0]);
	if (report[1] >= 0)
		close(report[1]);
	if (null_fd >= 0)
		close(null_fd);
	return ret;
}

/* Copies into bindir (PATH_MAX bytes) the directory `pg_config --bindir` names; false if that fails. */
static bool bindir_from_pg_config(char *bindir)
{
	char pg_config[PATH_MAX], err[256];
	char *argv[] = { pg_config, "--bindir", NULL };
	int out[2];
	ssize_t n, len = 0;
	bool ok;

	if (!find_in_path("pg_config", pg_config) || pipe2(out, O_CLOEXEC) != 0)
		return false;
	/* Its one line fits in the pipe, so it can be read after the program has exited. */
	ok = run_program(argv, out[1], NULL, NULL, err, sizeof(err)) == 0;
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
	if (find_in_path("initdb", bindir)) {
		slash = strrchr(bindir, '/');
		*slash = '\0';
		if (bindir_usable(bindir))
			return 0;
	}
	snprintf(err, errlen, "no PostgreSQL server programs (initdb, pg_ctl) found; set CLAIMBENCH_PG_BINDIR");
	return -1;
}

/*
 * Creates pg->dir under $TMPDIR or /tmp, owned by the programs' user. The path must
 * be absolute, plain (it goes unquoted into the conninfo and the server options)
 * and short enough for the socket inside it. 0, or -1 with a reason in err.
 */
static int make_dir(struct tmp_postgres *pg, char *err, size_t errlen)
{
	const char *tmpdir = getenv("TMPDIR");
	struct sockaddr_un sun;
	char base[PATH_MAX];
	int len;

	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	if (!realpath(tmpdir, base)) {
		snprintf(err, errlen, "temporary directory %s: %s", tmpdir, strerror(errno));
		return -1;
	}
	len = snprintf(pg->dir, sizeof(pg->dir), "%s/claimbench-pg-XXXXXX", strcmp(base, "/") ? base : "");
	if (len >= (int)sizeof(pg->dir) ||
	    snprintf(NULL, 0, "%s/.s.PGSQL.%d", pg->dir, pg->port) >= (int)sizeof(sun.sun_path)) {
		snprintf(err, errlen, "temporary directory %s is too long for a Unix socket path; set TMPDIR", base);
		return -1;
	}
	if (strspn(pg->dir, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-") != (size_t)len) {
		snprintf(err, errlen, "temporary directory %s has characters other than letters, digits and /._-; set TMPDIR",
			 base);
		return -1;
	}
	if (!mkdtemp(pg->dir)) {
		snprintf(err, errlen, "could not create a directory in %s: %s", base, strerror(errno));
		return -1;
	}
	pg->have_dir = true;
	if (leftovers_mark(pg->dir, err, errlen) < 0)
		return -1;
	if (pg->as.drop && chown(pg->dir, pg->as.uid, pg->as.gid) != 0) {
		snprintf(err, errlen, "could not give %s to user %s: %s", pg->dir, PG_SYSTEM_USER, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Copies into line a line of the log <pg->dir>/<name> that explains a failure: the
 * last one reporting an error, else the last non-empty one. False when there is none.
 */
static bool log_reason(const struct tmp_postgres *pg, const char *name, char *line, size_t linelen)
{
	char path[PATH_MAX + 32], tail[4096];
	const char *best = NULL, *last = NULL;
	char *p, *next;
	struct stat st;
	ssize_t n = -1;
	size_t len;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", pg->dir, name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		/* Only the tail matters: the reason for a failure is logged last. */
		off_t from = st.st_size > (off_t)sizeof(tail) - 1 ? st.st_size - (off_t)sizeof(tail) + 1 : 0;

		n = pread(fd, tail, sizeof(tail) - 1, from);
	}
	close(fd);
	if (n <= 0)
		return false;
	tail[n] = '\0';
	for (p = tail; *p; p = next) {
		next = strchrnul(p, '\n');
		if (*next)
			*next++ = '\0';
		if (!*p)
			continue;
		last = p;
		if (strstr(p, "error") || strstr(p, "ERROR") || strstr(p, "FATAL") || strstr(p, "PANIC"))
			best = p;
	}
	if (!last || !linelen)
		return false;
	if (!best)
		best = last;
	len = strnlen(best, linelen - 1);
	memcpy(line, best, len);
	line[len] = '\0';
	return true;
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
	ret = run_program(argv, -1, path, pg, err, errlen);
	for (i = 0; ret != 0 && reasons && reasons[i]; i++) {
		if (log_reason(pg, reasons[i], line, sizeof(line))) {
			snprintf(err, errlen, "%s failed: %s", name, line);
			break;
		}
	}
	return ret;
}

/* Creates the cluster in <pg->dir>/data with initdb. 0, or -1 with a reason in err. */
static int run_initdb(const struct tmp_postgres *pg, char *err, size_t errlen)
{
	static const char *const reasons[] = { "initdb.log", NULL };
	char initdb[PATH_MAX + 16], data[PATH_MAX + 16];
	char *argv[] = {
		initdb, "-D", data, "-U", PG_SUPERUSER, "--auth=trust", "-E", "UTF8", "--no-locale",
		"--no-sync", "--no-instructions", NULL,
	};

	snprintf(initdb, sizeof(initdb), "%s/initdb", pg->bindir);
	snprintf(data, sizeof(data), "%s/data", pg->dir);
	return run_logged(pg, argv, "initdb.log", reasons, err, errlen);
}

/*
 * Starts the server with pg_ctl (action "start", or "restart" after an immediate stop)
 * and waits until it accepts connections. 0, or -1 with a reason in err. pg_ctl passes
 * the options through /bin/sh, which is why make_dir allows only plain paths.
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
		 pg->dir, pg->port, TMP_POSTGRES_MAX_CONNECTIONS,
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

int tmp_postgres_start(struct tmp_postgres *pg, struct watchdog *wd, char *err, size_t errlen)
{
	memset(pg, 0, sizeof(*pg));
	pg->port = TMP_POSTGRES_PORT;
	if (find_bindir(pg->bindir, err, errlen) != 0 || run_as_choose(&pg->as, PG_SYSTEM_USER, err, errlen) != 0)
		goto fail;
	if (make_dir(pg, err, errlen) != 0)
		goto fail;
	if (watchdog_guard(wd, pg->dir, true, &pg->as) != 0) {
		snprintf(err, errlen, "could not give %s to the watchdog", pg->dir);
		goto fail;
	}
	if (run_initdb(pg, err, errlen) != 0)
		goto fail;
	pg->statements = has_statements_library(pg->bindir);
	/* From here a server may be running, even when pg_ctl reports failure. */
	pg->started = true;
	if (run_pg_ctl_start(pg, "start", err, errlen) != 0)
		goto fail;
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
