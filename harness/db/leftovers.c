#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "db/leftovers.h"
#include "db/ownership.h"

/* How long a server is given to go after SIGQUIT, and how often it is looked at meanwhile. */
#define SERVER_GONE_WAIT_NS (10 * 1000000000LL)
#define SERVER_POLL_NS 20000000

/* The pid on the first line of pid_file (a postmaster.pid, a pgbouncer.pid); -1 when none. */
static long pid_of_file(const char *pid_file)
{
	long pid = -1;
	FILE *f = fopen(pid_file, "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &pid) != 1 || pid <= 1)
		pid = -1;
	fclose(f);
	return pid;
}

/* The pid of the server running in data_dir, from the first line of its postmaster.pid; -1 when none. */
static long server_pid(const char *data_dir)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/postmaster.pid", data_dir) >= (int)sizeof(path))
		return -1;
	return pid_of_file(path);
}

/*
 * Whether process pid works in dir, as the postmaster of a cluster does in its data
 * directory and a throwaway pgbouncer in its own: 1 it does, 0 it does not (or is gone), -1
 * nobody can tell (no /proc, a process hidden from this user). A pid file left by a process
 * that died without removing it names a pid the system may since have given to any
 * process: another cluster's server, anything of the user's.
 */
static int works_in(long pid, const char *dir)
{
	char link[64], cwd[PATH_MAX], want[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%ld/cwd", pid);
	n = readlink(link, cwd, sizeof(cwd) - 1);
	if (n < 0)
		return kill((pid_t)pid, 0) != 0 && errno == ESRCH ? 0 : -1;
	if (!realpath(dir, want))
		return -1;
	cwd[n] = '\0';
	return strcmp(cwd, want) == 0;
}

/* What stop_process is told: whose pid file, which directory the process works in, which signal ends it. */
struct stop_order {
	const char *pid_file;	/* the file naming the process */
	const char *work_dir;	/* the directory the process works in, which proves it is the one */
	int sig;		/* the signal that ends it at once */
};

/*
 * In a child that has become the process's user: sig to the process the order's pid file
 * names, if it still works in the order's directory, then waits for it to go. 0 when none
 * runs there any more, 1 when one may still (it would not go, or nobody can tell).
 */
static int stop_process(void *arg)
{
	const struct stop_order *o = arg;
	long pid = pid_of_file(o->pid_file);
	int64_t until = clock_now_ns() + SERVER_GONE_WAIT_NS;
	int ours;

	if (pid < 0)
		return 0;
	ours = works_in(pid, o->work_dir);
	if (ours <= 0)
		return ours < 0;
	if (kill((pid_t)pid, o->sig) != 0)
		return 0;
	while (kill((pid_t)pid, 0) == 0) {
		if (clock_now_ns() >= until)
			return 1;
		clock_sleep_ns(SERVER_POLL_NS);
	}
	return 0;
}

int leftovers_stop_process(const char *pid_file, const char *work_dir, int sig, const struct run_as *as)
{
	struct stop_order order = { .pid_file = pid_file, .work_dir = work_dir, .sig = sig };

	return run_as_call(as, stop_process, &order) == 0 ? 0 : -1;
}

/*
 * Whether process pid runs with an argument holding text (a throwaway's data directory,
 * which only its own programs name): 1 it does, 0 it does not (or is gone, or a zombie),
 * -1 nobody can tell (no /proc).
 */
static int runs_with(long pid, const char *text)
{
	char path[64], args[8192];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	f = fopen(path, "r");
	if (!f)
		return kill((pid_t)pid, 0) != 0 && errno == ESRCH ? 0 : -1;
	n = fread(args, 1, sizeof(args) - 1, f);
	fclose(f);
	args[n] = '\0';
	for (size_t i = 0; i < n; i += strlen(args + i) + 1) {
		if (strstr(args + i, text))
			return 1;
	}
	return 0;
}

/* What stop_group is told: the pid note, and the data directory the program names. */
struct group_order {
	const char *note;	/* the LEFTOVERS_STARTED_FILE naming the program */
	const char *data_dir;	/* the data directory among its arguments, which proves it is the one */
};

/*
 * In a child that has become the program's user: SIGKILL to the process group of the
 * program the order's note names, if it runs with the order's data directory among its
 * arguments, then waits for it to go. 0 when it no longer runs, 1 when it may.
 */
static int stop_group(void *arg)
{
	const struct group_order *o = arg;
	long pid = pid_of_file(o->note);
	int64_t until = clock_now_ns() + SERVER_GONE_WAIT_NS;
	int ours;

	if (pid < 0)
		return 0;
	ours = runs_with(pid, o->data_dir);
	if (ours <= 0)
		return ours < 0;
	if (kill(-(pid_t)pid, SIGKILL) != 0)
		kill((pid_t)pid, SIGKILL);
	while (runs_with(pid, o->data_dir) != 0) {
		if (clock_now_ns() >= until)
			return 1;
		clock_sleep_ns(SERVER_POLL_NS);
	}
	return 0;
}

int leftovers_stop_server(const char *data_dir, const struct run_as *as)
{
	char pid_file[PATH_MAX], note[PATH_MAX];
	const char *slash = strrchr(data_dir, '/');
	struct group_order group = { .note = note, .data_dir = data_dir };
	int rc;

	if (snprintf(pid_file, sizeof(pid_file), "%s/postmaster.pid", data_dir) >= (int)sizeof(pid_file) || !slash)
		return -1;
	snprintf(note, sizeof(note), "%.*s/" LEFTOVERS_STARTED_FILE, (int)(slash - data_dir), data_dir);
	rc = leftovers_stop_process(pid_file, data_dir, SIGQUIT, as);
	return run_as_call(as, stop_group, &group) == 0 ? rc : -1;
}

int leftovers_note_started(const char *dir, pid_t pid)
{
	char path[PATH_MAX + 32];
	bool written;
	int fd;

	snprintf(path, sizeof(path), "%s/" LEFTOVERS_STARTED_FILE, dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	written = dprintf(fd, "%ld\n", (long)pid) > 0;
	return close(fd) == 0 && written ? 0 : -1;
}

/* nftw callback: removes one entry, directories after their contents; carries on past failures. */
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP || type == FTW_DNR)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* In a child that has become the owner: removes the tree at path (arg). 0 when it is gone. */
static int remove_tree(void *arg)
{
	struct stat st;

	nftw(arg, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	return lstat(arg, &st) == 0 ? 1 : 0;
}

int leftovers_remove(const char *path, const struct run_as *as)
{
	struct stat st;

	if (run_as_call(as, remove_tree, (void *)path) == 0)
		return 0;
	/*
	 * The owner emptied its directory but may not unlink it from a parent that is ours, not
	 * its (a TMPDIR of mode 0755): an empty directory, no link, is removed by us.
	 */
	if (as->drop && lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
		rmdir(path);
	return lstat(path, &st) == 0 ? -1 : 0;
}

int leftovers_mark(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], note[256];
	struct owner self;
	bool written;
	FILE *f;

	owner_self(&self);
	owner_format(&self, note, sizeof(note));
	snprintf(path, sizeof(path), "%s/%s", dir, LEFTOVERS_OWNER_FILE);
	f = fopen(path, "wx");
	if (!f)
		goto fail;
	written = fprintf(f, "%s\n", note) > 0;
	if (fclose(f) != 0 || !written)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "could not write %s: %s", path, strerror(errno));
	return -1;
}

int leftovers_server_runs(const char *data_dir)
{
	long pid = server_pid(data_dir);

	return pid < 0 ? 0 : works_in(pid, data_dir);
}

int leftovers_stop_server_in(const char *dir, const struct run_as *as)
{
	char data[PATH_MAX];

	if (snprintf(data, sizeof(data), "%s/data", dir) >= (int)sizeof(data))
		return -1;
	return leftovers_stop_server(data, as);
}
