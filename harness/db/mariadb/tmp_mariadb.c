#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mysql.h>

#include "base/clock.h"
#include "db/leftovers.h"
#include "db/server_programs.h"
#include "db/mariadb/tmp_mariadb.h"

#define MARIADB_SYSTEM_USER "mysql"	/* the account the programs run as when we are root */
#define MARIADB_FALLBACK_USER "nobody"	/* the one when there is no mysql account (mariadb-server-core alone) */
#define MARIADB_SOCKET "mysqld.sock"	/* the socket's name in the directory */
#define MARIADB_DATABASE "claimbench"	/* the database the runs' tables are made in */
#define MARIADB_TMPDIR "tmp"		/* the directory, in the server's own, its temporary files go in */
#define MARIADB_ERROR "[ERROR]"		/* what marks an error line in its logs */

/* How long the server is given to accept connections, and how often it is tried meanwhile. */
#define READY_WAIT_NS (60 * 1000000000LL)
#define READY_POLL_NS 50000000LL

/* Where Debian puts the programs, looked in after $PATH (a user's $PATH may lack /usr/sbin). */
static const char *const program_dirs[] = { "/usr/sbin", "/usr/bin" };

/* Copies into out (PATH_MAX bytes) the program name from dir, else $PATH, else program_dirs. false if none. */
static bool find_program(const char *dir, const char *name, char *out)
{
	if (dir)
		return snprintf(out, PATH_MAX, "%s/%s", dir, name) < PATH_MAX && server_program_executable(out);
	if (server_program_in_path(name, out))
		return true;
	for (size_t i = 0; i < sizeof(program_dirs) / sizeof(program_dirs[0]); i++)
		if (snprintf(out, PATH_MAX, "%s/%s", program_dirs[i], name) < PATH_MAX && server_program_executable(out))
			return true;
	return false;
}

/*
 * Finds mariadbd and mariadb-install-db into m: in $CLAIMBENCH_MARIADB_BINDIR when set
 * (TMP_MARIADB_NONE: none at all), else on $PATH or where Debian puts them. 1 found; 0
 * not found (or not to be used); -1 $CLAIMBENCH_MARIADB_BINDIR lacks them; err says why.
 */
static int find_programs(struct tmp_mariadb *m, char *err, size_t errlen)
{
	const char *env = getenv("CLAIMBENCH_MARIADB_BINDIR");
	const char *dir = env && *env ? env : NULL;

	if (dir && strcmp(dir, TMP_MARIADB_NONE) == 0) {
		snprintf(err, errlen, "CLAIMBENCH_MARIADB_BINDIR=%s: MariaDB's server programs are not to be used",
			 TMP_MARIADB_NONE);
		return 0;
	}
	if (find_program(dir, "mariadbd", m->mariadbd) && find_program(dir, "mariadb-install-db", m->install_db))
		return 1;
	snprintf(err, errlen, "MariaDB's server programs (mariadbd, mariadb-install-db) are not %s; install them "
		 "with: " TMP_MARIADB_INSTALL, dir ? "in $CLAIMBENCH_MARIADB_BINDIR" : "installed");
	return dir ? -1 : 0;
}

/* Chooses who runs the programs: ourselves, or as root the mysql account, else nobody. 0, or -1 with err. */
static int choose_user(struct run_as *as, char *err, size_t errlen)
{
	if (run_as_choose(as, MARIADB_SYSTEM_USER, err, errlen) == 0)
		return 0;
	return run_as_choose(as, MARIADB_FALLBACK_USER, err, errlen);
}

/*
 * Makes MARIADB_TMPDIR in m's directory, the programs' user's alone: mariadbd writes its
 * temporary files there (--tmpdir), never in $TMPDIR, which that user may not write (a 0755
 * one as root). 0, or -1 with err.
 */
static int make_tmpdir(const struct tmp_mariadb *m, char *err, size_t errlen)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/" MARIADB_TMPDIR, m->dir);
	if (mkdir(path, 0700) != 0 || (m->as.drop && chown(path, m->as.uid, m->as.gid) != 0)) {
		snprintf(err, errlen, "could not make %s for the server's user: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Makes the data directory with mariadb-install-db, its pid noted in m's directory so that
 * the watchdog can stop it (and the bootstrap server it starts) if we die. 0, or -1 with a
 * reason in err.
 */
static int install_db(const struct tmp_mariadb *m, char *err, size_t errlen)
{
	char datadir[PATH_MAX + 32], tmpdir[PATH_MAX + 32], log[PATH_MAX + 32], line[512];
	char *argv[] = { (char *)m->install_db, "--no-defaults", datadir, tmpdir,
			 "--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve",
			 "--innodb-log-file-size=16M", NULL };

	snprintf(datadir, sizeof(datadir), "--datadir=%s/data", m->dir);
	snprintf(tmpdir, sizeof(tmpdir), "--tmpdir=%s/" MARIADB_TMPDIR, m->dir);
	snprintf(log, sizeof(log), "%s/install.log", m->dir);
	if (server_program_run_noted(argv, -1, log, &m->as, m->dir, m->dir, err, errlen) == 0)
		return 0;
	if (server_log_first(m->dir, "install.log", 0, MARIADB_ERROR, line, sizeof(line)))
		snprintf(err, errlen, "mariadb-install-db failed: %s", line);
	return -1;
}

/*
 * Starts mariadbd in the background on m's data directory and socket, its pid noted in m's
 * directory (it writes data/postmaster.pid only late in its start), server.log's size before
 * it in m->log_start. 0, or -1 with a reason in err.
 */
static int spawn_server(struct tmp_mariadb *m, char *err, size_t errlen)
{
	char datadir[PATH_MAX + 32], socket[PATH_MAX + 32], pid_file[PATH_MAX + 48], log_error[PATH_MAX + 32];
	char tmpdir[PATH_MAX + 32], log[PATH_MAX + 32], server_log[PATH_MAX + 32], connections[48];
	char *argv[] = { m->mariadbd, "--no-defaults", datadir, tmpdir, socket, pid_file, log_error,
			 "--skip-networking", "--skip-name-resolve", "--innodb-buffer-pool-size=64M",
			 "--innodb-log-file-size=16M", connections, NULL };
	struct stat st;

	snprintf(datadir, sizeof(datadir), "--datadir=%s/data", m->dir);
	snprintf(tmpdir, sizeof(tmpdir), "--tmpdir=%s/" MARIADB_TMPDIR, m->dir);
	snprintf(socket, sizeof(socket), "--socket=%s/" MARIADB_SOCKET, m->dir);
	snprintf(pid_file, sizeof(pid_file), "--pid-file=%s/data/postmaster.pid", m->dir);
	snprintf(log_error, sizeof(log_error), "--log-error=%s/server.log", m->dir);
	snprintf(connections, sizeof(connections), "--max-connections=%d", m->max_connections);
	snprintf(log, sizeof(log), "%s/mariadbd.log", m->dir);
	snprintf(server_log, sizeof(server_log), "%s/server.log", m->dir);
	m->log_start = lstat(server_log, &st) == 0 ? st.st_size : 0;
	return server_program_spawn_noted(argv, log, &m->as, m->dir, m->dir, &m->pid, err, errlen);
}

/* Whether m's server process has ended (then reaped: m->pid is 0). */
static bool server_ended(struct tmp_mariadb *m)
{
	int status;

	if (m->pid > 0 && waitpid(m->pid, &status, WNOHANG) == m->pid)
		m->pid = 0;
	return m->pid == 0;
}

/*
 * Waits until the server accepts a connection through its socket as root, then makes the
 * run's database (when create). 0, or -1 with a reason in err: the server's log's when it died.
 */
static int wait_ready(struct tmp_mariadb *m, bool create, char *err, size_t errlen)
{
	int64_t until = clock_now_ns() + READY_WAIT_NS;
	char socket[PATH_MAX + 32], line[512];
	unsigned timeout = 2;

	snprintf(socket, sizeof(socket), "%s/" MARIADB_SOCKET, m->dir);
	while (!server_ended(m) && clock_now_ns() < until) {
		MYSQL *my = mysql_init(NULL);
		int rc = -1;

		if (!my) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		mysql_options(my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
		if (mysql_real_connect(my, NULL, "root", NULL, NULL, 0, socket, 0)) {
			rc = create && mysql_query(my, "CREATE DATABASE " MARIADB_DATABASE) != 0 ? -2 : 0;
			if (rc < 0)
				snprintf(err, errlen, "creating the database: %s", mysql_error(my));
		}
		mysql_close(my);
		if (rc != -1)
			return rc < 0 ? -1 : 0;
		clock_sleep_ns(READY_POLL_NS);
	}
	if (server_log_first(m->dir, "server.log", m->log_start, MARIADB_ERROR, line, sizeof(line)))
		snprintf(err, errlen, "mariadbd %s: %s", m->pid ? "did not accept connections within 60 s" : "exited",
			 line);
	else
		snprintf(err, errlen, "mariadbd %s", m->pid ? "did not accept connections within 60 s" : "exited");
	return -1;
}

int tmp_mariadb_start(struct tmp_mariadb *m, struct watchdog *wd, int connections, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->max_connections = connections > TMP_MARIADB_MIN_CONNECTIONS ? connections : TMP_MARIADB_MIN_CONNECTIONS;
	if (find_programs(m, err, errlen) != 1 || choose_user(&m->as, err, errlen) != 0)
		goto fail;
	if (server_make_dir(m->dir, TMP_MARIADB_DIR_PREFIX, MARIADB_SOCKET, &m->as, &m->have_dir, err, errlen) != 0)
		goto fail;
	if (watchdog_guard(wd, m->dir, leftovers_stop_server_in, &m->as) != 0) {
		snprintf(err, errlen, "could not give %s to the watchdog", m->dir);
		goto fail;
	}
	if (make_tmpdir(m, err, errlen) != 0 || install_db(m, err, errlen) != 0 || spawn_server(m, err, errlen) != 0 || wait_ready(m, true, err, errlen) != 0)
		goto fail;
	snprintf(m->target, sizeof(m->target), "host=%s/" MARIADB_SOCKET " user=root dbname=" MARIADB_DATABASE, m->dir);
	return 0;
fail:
	tmp_mariadb_stop(m);
	return -1;
}

/* Kills m's server and reaps it. */
static void kill_server(struct tmp_mariadb *m)
{
	if (m->pid <= 0)
		return;
	kill(m->pid, SIGKILL);
	while (waitpid(m->pid, NULL, 0) < 0 && errno == EINTR)
		;
	m->pid = 0;
}

int tmp_mariadb_restart(struct tmp_mariadb *m, char *err, size_t errlen)
{
	if (m->pid <= 0) {
		snprintf(err, errlen, "the throwaway server is not running");
		return -1;
	}
	kill_server(m);
	if (spawn_server(m, err, errlen) != 0)
		return -1;
	return wait_ready(m, false, err, errlen);
}

void tmp_mariadb_stop(struct tmp_mariadb *m)
{
	kill_server(m);
	if (m->have_dir) {
		leftovers_remove(m->dir, &m->as);
		m->have_dir = false;
	}
	run_as_free(&m->as);
}
