#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "base/clock.h"
#include "db/leftovers.h"
#include "db/pooler.h"
#include "db/server_programs.h"

#define POOLER_SYSTEM_USER "postgres"		/* the account pgbouncer runs as when we are root */
#define POOLER_DATABASE "claimbench"		/* the database name clients ask pgbouncer for */
#define POOLER_READY_WAIT_NS (10 * 1000000000LL)	/* how long pgbouncer is given to accept connections */
#define POOLER_POLL_NS 20000000			/* how often it is looked at meanwhile */
#define POOLER_MAX_CLIENTS_SLACK 16		/* client slots beyond the run's own (a reconnect's overlap) */
#define POOLER_VALUE_MAX 256			/* the longest value of the server's conninfo written to the ini */
#define POOLER_ENTRY_MAX 2048			/* room for the ini's [databases] entry */
#define POOLER_PID_WAIT_NS (2 * 1000000000LL)	/* how long a started pgbouncer is given to write its pid file */

/* Whether path names a file we may execute. */
static bool executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Looks for name in the directories of the colon-separated list dirs; true with its path in out (PATH_MAX). */
static bool find_in(const char *dirs, const char *name, char *out)
{
	const char *d = dirs;

	while (d && *d) {
		size_t len = strcspn(d, ":");

		if (len && snprintf(out, PATH_MAX, "%.*s/%s", (int)len, d, name) < PATH_MAX && executable(out))
			return true;
		d += len + (d[len] == ':');
	}
	return false;
}

int pooler_find(char *program, char *err, size_t errlen)
{
	const char *env = getenv("CLAIMBENCH_PGBOUNCER");

	if (env && *env) {
		if (strcmp(env, POOLER_NONE_INSTALLED) != 0 && strlen(env) < PATH_MAX && executable(env)) {
			strcpy(program, env);
			return 0;
		}
		snprintf(err, errlen, "--pooler needs pgbouncer, and CLAIMBENCH_PGBOUNCER=%s names no program: "
			 "install it with: " POOLER_INSTALL_LINE, env);
		return -1;
	}
	if (find_in(getenv("PATH"), "pgbouncer", program) || find_in("/usr/sbin:/usr/local/sbin", "pgbouncer", program))
		return 0;
	snprintf(err, errlen, "--pooler needs pgbouncer, which is not installed: install it with: "
		 POOLER_INSTALL_LINE);
	return -1;
}

int pooler_open(struct pooler *p, struct watchdog *wd, char *err, size_t errlen)
{
	char socket_name[32];

	memset(p, 0, sizeof(*p));
	if (pooler_find(p->program, err, errlen) < 0 || run_as_choose(&p->as, POOLER_SYSTEM_USER, err, errlen) < 0)
		goto fail;
	snprintf(socket_name, sizeof(socket_name), ".s.PGSQL.%d", POOLER_PORT);
	if (server_make_dir(p->dir, POOLER_DIR_PREFIX, socket_name, &p->as, &p->have_dir, err, errlen) < 0)
		goto fail;
	if (watchdog_guard(wd, p->dir, pooler_stop_leftover, &p->as) < 0) {
		snprintf(err, errlen, "could not give %s to the watchdog", p->dir);
		goto fail;
	}
	return 0;
fail:
	pooler_close(p);
	return -1;
}

/* The value of keyword key in the parsed conninfo opts, or NULL. */
static const char *value_of(const PQconninfoOption *opts, const char *key)
{
	for (; opts && opts->keyword; opts++)
		if (strcmp(opts->keyword, key) == 0)
			return opts->val && *opts->val ? opts->val : NULL;
	return NULL;
}

/*
 * Appends to line (of linelen bytes, used of them filled) " key='value'": pgbouncer's
 * connect-string quoting, a quote within doubled. Returns the new used (linelen or more
 * when it did not fit).
 */
static size_t append_quoted(char *line, size_t linelen, size_t used, const char *key, const char *value)
{
	used += (size_t)snprintf(line + used, used < linelen ? linelen - used : 0, " %s='", key);
	for (; *value && used < linelen; value++) {
		if (*value == '\'')
			line[used++] = '\'';
		if (used < linelen)
			line[used++] = *value;
	}
	used += (size_t)snprintf(line + used, used < linelen ? linelen - used : 0, "'");
	return used;
}

/*
 * Writes into line the [databases] entry that leads pgbouncer to the server conninfo names,
 * each setting from conninfo or else libpq's default (its environment variables, the
 * compiled socket directory), quoted, and into user the role it logs in as. 0, or -1 with
 * err: what pgbouncer cannot be told (several hosts, a line end, TLS it would not use).
 */
static int server_entry(const char *conninfo, char *line, size_t linelen, char *user, size_t userlen, char *err,
			size_t errlen)
{
	static const char *const keys[] = { "host", "port", "dbname", "user", "password" };
	PQconninfoOption *given = PQconninfoParse(conninfo, NULL), *defaults = PQconndefaults();
	const char *sslmode;
	size_t used = 0;
	int rc = -1;

	*user = '\0';
	if (!given || !defaults) {
		snprintf(err, errlen, "--pooler: the server's conninfo cannot be parsed");
		goto out;
	}
	sslmode = value_of(given, "sslmode") ? value_of(given, "sslmode") : value_of(defaults, "sslmode");
	if (sslmode && (strcmp(sslmode, "require") == 0 || strncmp(sslmode, "verify-", 7) == 0)) {
		snprintf(err, errlen, "--pooler: the server's conninfo asks for sslmode=%s, and the pooler's "
			 "connections to the server would go without TLS; connect to it without --pooler, or with "
			 "sslmode=prefer or disable", sslmode);
		goto out;
	}
	used = (size_t)snprintf(line, linelen, POOLER_DATABASE " =");
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *v = value_of(given, keys[k]);

		if (!v && strcmp(keys[k], "host") == 0)
			v = value_of(given, "hostaddr");
		if (!v)
			v = value_of(defaults, keys[k]);
		if (!v && strcmp(keys[k], "dbname") == 0)
			v = value_of(given, "user") ? value_of(given, "user") : value_of(defaults, "user");
		if (!v && strcmp(keys[k], "host") == 0)
			v = "/var/run/postgresql";
		if (!v)
			continue;
		if (k < 2 && strchr(v, ',')) {
			snprintf(err, errlen, "--pooler: the server's conninfo names several %ss; pgbouncer is given one",
				 keys[k]);
			goto out;
		}
		if (v[strcspn(v, "\r\n")] || strlen(v) >= POOLER_VALUE_MAX) {
			snprintf(err, errlen, "--pooler: the server's %s has a line end or is longer than %d bytes, "
				 "which pgbouncer's ini cannot take", keys[k], POOLER_VALUE_MAX - 1);
			goto out;
		}
		used = append_quoted(line, linelen, used, keys[k], v);
		if (strcmp(keys[k], "user") == 0)
			snprintf(user, userlen, "%s", v);
	}
	if (used >= linelen || !*user) {
		snprintf(err, errlen, "--pooler: the server's conninfo %s", *user ? "is too long" : "names no user");
		goto out;
	}
	rc = 0;
out:
	PQconninfoFree(given);
	PQconninfoFree(defaults);
	return rc;
}

int pooler_check_server(const char *conninfo, char *err, size_t errlen)
{
	char entry[POOLER_ENTRY_MAX], user[POOLER_VALUE_MAX];

	return server_entry(conninfo, entry, sizeof(entry), user, sizeof(user), err, errlen);
}

/*
 * Writes into out (outlen bytes) text between the quotes q, each q and each backslash
 * within preceded by escape (pgbouncer's auth file: '"' doubled; libpq: '\\'). false when
 * it does not fit.
 */
static bool quote_into(char *out, size_t outlen, const char *text, char q, char escape)
{
	size_t used = 0;

	if (outlen < 3)
		return false;
	out[used++] = q;
	for (; *text; text++) {
		if ((*text == q || (escape == '\\' && *text == '\\')) && used < outlen)
			out[used++] = escape;
		if (used < outlen)
			out[used++] = *text;
	}
	if (used + 2 > outlen)
		return false;
	out[used++] = q;
	out[used] = '\0';
	return true;
}

int pooler_narrow_server(const char *conninfo, char *out, size_t outlen, char *err, size_t errlen)
{
	PGconn *conn = PQconnectdb(conninfo);
	char host[2 * POOLER_VALUE_MAX + 4], port[64];
	int rc = -1;

	if (PQstatus(conn) != CONNECTION_OK) {
		snprintf(err, errlen, "--pooler: cannot find the server that takes writes: %s", PQerrorMessage(conn));
		err[strcspn(err, "\n")] = '\0';
		goto out;
	}
	if (!quote_into(host, sizeof(host), PQhost(conn), '\'', '\\') ||
	    !quote_into(port, sizeof(port), PQport(conn), '\'', '\\') ||
	    snprintf(out, outlen, "%s host=%s port=%s", conninfo, host, port) >= (int)outlen) {
		snprintf(err, errlen, "--pooler: the server's conninfo is too long");
		goto out;
	}
	rc = 0;
out:
	PQfinish(conn);
	return rc;
}

/* Writes text into the new file dir/name, readable by its user alone, given to p's user. 0, or -1 with err. */
static int write_file(const struct pooler *p, const char *name, const char *text, char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	bool written;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", p->dir, name);
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		if (fd >= 0)
			close(fd);
		goto fail;
	}
	/* Given away through its descriptor: the path, in a directory of p's user, may be swapped. */
	written = fputs(text, f) >= 0 && !(p->as.drop && fchown(fileno(f), p->as.uid, p->as.gid) != 0);
	if (fclose(f) != 0 || !written)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "could not write %s: %s", path, strerror(errno));
	return -1;
}

/* Writes the ini and the auth file of a pgbouncer in mode with the entry, pool and client room given. 0, or -1 with err. */
static int write_config(const struct pooler *p, const char *entry, const char *user, const char *mode,
			int server_connections, int clients, char *err, size_t errlen)
{
	char ini[4096], auth[2 * POOLER_VALUE_MAX + 16];

	if (!quote_into(auth, sizeof(auth) - 8, user, '"', '"')) {
		snprintf(err, errlen, "the server's user name does not fit pgbouncer's auth file");
		return -1;
	}
	strcat(auth, " \"\"\n");
	if (snprintf(ini, sizeof(ini),
		     "[databases]\n%s\n\n[pgbouncer]\n"
		     "listen_port = %d\nunix_socket_dir = %s\nunix_socket_mode = 0700\n"
		     "auth_type = trust\nauth_file = %s/users.txt\n"
		     "pidfile = %s/pgbouncer.pid\nlogfile = %s/pgbouncer.log\n"
		     "pool_mode = %s\ndefault_pool_size = %d\nmax_db_connections = %d\nmin_pool_size = 0\n"
		     "reserve_pool_size = 0\nmax_client_conn = %d\n"
		     "log_connections = 0\nlog_disconnections = 0\n",
		     entry, POOLER_PORT, p->dir, p->dir, p->dir, p->dir, mode, server_connections, server_connections,
		     clients + POOLER_MAX_CLIENTS_SLACK) >= (int)sizeof(ini)) {
		snprintf(err, errlen, "pgbouncer's ini does not fit");
		return -1;
	}
	if (write_file(p, "users.txt", auth, err, errlen) < 0 || write_file(p, "pgbouncer.ini", ini, err, errlen) < 0)
		return -1;
	return 0;
}

/*
 * Copies into line the last non-empty line of pgbouncer's log, or "" when there is none.
 * The log is in a directory of p's user: a link planted there is not followed.
 */
static void last_log_line(const struct pooler *p, char *line, size_t linelen)
{
	char path[PATH_MAX + 32], buf[1024];
	FILE *f;
	int fd;

	line[0] = '\0';
	snprintf(path, sizeof(path), "%s/pgbouncer.log", p->dir);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while (fgets(buf, sizeof(buf), f))
		if (buf[strspn(buf, " \t\r\n")])
			snprintf(line, linelen, "%.*s", (int)strcspn(buf, "\r\n"), buf);
	fclose(f);
}

/*
 * In the forked child: no signal blocked (claimbench's threads block the ones its signal
 * thread takes, and a mask outlives exec: pgbouncer would never see its SIGTERM) and the
 * ones claimbench handles back to their default.
 */
static void reset_signals(void)
{
	static const int reset[] = { SIGPIPE, SIGCHLD, SIGINT, SIGTERM, SIGQUIT, SIGHUP };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (size_t i = 0; i < sizeof(reset) / sizeof(reset[0]); i++)
		sigaction(reset[i], &dfl, NULL);
}

/*
 * Runs pgbouncer -d on p's ini as p's user in p's directory (which the daemon keeps as
 * its own: what proves later that a pid is its), in a session of its own (a Ctrl-C at the
 * terminal does not reach it), and waits for the starter to exit. 0 when it exited with
 * status 0; -2 with err when it exited with another (no daemon was made: the starter exits
 * 0 once the daemon has left it); -1 with err when a daemon may have been made.
 */
static int run_daemon(const struct pooler *p, char *err, size_t errlen)
{
	char ini[PATH_MAX + 32];
	char *argv[] = { (char *)p->program, "-d", "-q", ini, NULL };
	int status;
	pid_t pid;

	snprintf(ini, sizeof(ini), "%s/pgbouncer.ini", p->dir);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "could not fork to run pgbouncer: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int null_fd = open("/dev/null", O_RDWR);

		reset_signals();
		if (setsid() < 0 || null_fd < 0 || dup2(null_fd, STDIN_FILENO) < 0 || dup2(null_fd, STDOUT_FILENO) < 0 ||
		    dup2(null_fd, STDERR_FILENO) < 0 || run_as_become(&p->as) < 0 || chdir(p->dir) != 0)
			_exit(126);
		close_range(STDERR_FILENO + 1, ~0U, 0);
		execv(p->program, argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, errlen, "could not wait for pgbouncer: %s", strerror(errno));
			return -1;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	snprintf(err, errlen, "%s %s %d", p->program, WIFEXITED(status) ? "exited with status" : "was killed by signal",
		 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return WIFEXITED(status) ? -2 : -1;
}

/* Whether pgbouncer accepts a connection on p's socket now. */
static bool accepts(const struct pooler *p)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char path[PATH_MAX + 32];
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok;

	if (fd < 0)
		return false;
	snprintf(path, sizeof(path), "%s/.s.PGSQL.%d", p->dir, POOLER_PORT);
	if (strlen(path) >= sizeof(sun.sun_path)) {
		close(fd);
		return false;
	}
	memcpy(sun.sun_path, path, strlen(path) + 1);
	ok = connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0;
	close(fd);
	return ok;
}

int pooler_start(struct pooler *p, const char *server_conninfo, const char *mode, int server_connections,
		 int clients, bool (*interrupted)(void), char *err, size_t errlen)
{
	char entry[POOLER_ENTRY_MAX], user[POOLER_VALUE_MAX], quoted_user[2 * POOLER_VALUE_MAX + 4], why[512];
	int64_t until;
	int started;

	if (!p->have_dir || p->running) {
		snprintf(err, errlen, "the pooler's directory is not ready");
		return -1;
	}
	if (server_entry(server_conninfo, entry, sizeof(entry), user, sizeof(user), err, errlen) < 0 ||
	    write_config(p, entry, user, mode, server_connections, clients, err, errlen) < 0)
		return -1;
	/* From here a pgbouncer may be running, even when its starter reports failure. */
	p->running = true;
	started = run_daemon(p, err, errlen);
	if (started < 0) {
		last_log_line(p, why, sizeof(why));
		if (*why)
			snprintf(err + strlen(err), errlen - strlen(err), ": %s", why);
		p->running = started == -1;
		goto fail;
	}
	for (until = clock_now_ns() + POOLER_READY_WAIT_NS; !accepts(p); clock_sleep_ns(POOLER_POLL_NS)) {
		if (interrupted && interrupted()) {
			snprintf(err, errlen, "interrupted while waiting for pgbouncer to accept connections");
			goto fail;
		}
		if (clock_now_ns() >= until) {
			last_log_line(p, why, sizeof(why));
			snprintf(err, errlen, "pgbouncer did not accept connections within %lld s%s%s",
				 POOLER_READY_WAIT_NS / 1000000000LL, *why ? ": " : "", why);
			goto fail;
		}
	}
	if (!quote_into(quoted_user, sizeof(quoted_user), user, '\'', '\\') ||
	    snprintf(p->conninfo, sizeof(p->conninfo), "host=%s port=%d dbname=" POOLER_DATABASE " user=%s", p->dir,
		     POOLER_PORT, quoted_user) >= (int)sizeof(p->conninfo)) {
		snprintf(err, errlen, "the pooler's conninfo does not fit");
		goto fail;
	}
	return 0;
fail:
	pooler_stop(p);
	return -1;
}

int pooler_stop_leftover(const char *dir, const struct run_as *as)
{
	char pid_file[PATH_MAX], ini[PATH_MAX];
	int64_t until = clock_now_ns() + POOLER_PID_WAIT_NS;
	struct stat st;

	if (snprintf(pid_file, sizeof(pid_file), "%s/pgbouncer.pid", dir) >= (int)sizeof(pid_file) ||
	    snprintf(ini, sizeof(ini), "%s/pgbouncer.ini", dir) >= (int)sizeof(ini))
		return -1;
	/*
	 * pgbouncer -d writes its pid file only after it has left its starter: one started (its
	 * ini is there) and not yet seen (no pid file, or one still empty) is given a moment to
	 * show itself.
	 */
	while ((lstat(pid_file, &st) != 0 || st.st_size == 0) && lstat(ini, &st) == 0 && clock_now_ns() < until)
		clock_sleep_ns(POOLER_POLL_NS);
	return leftovers_stop_process(pid_file, dir, SIGTERM, as);
}

void pooler_stop(struct pooler *p)
{
	if (p->running)
		pooler_stop_leftover(p->dir, &p->as);
	p->running = false;
	p->conninfo[0] = '\0';
}

void pooler_close(struct pooler *p)
{
	pooler_stop(p);
	if (p->have_dir)
		leftovers_remove(p->dir, &p->as);
	p->have_dir = false;
	run_as_free(&p->as);
}
