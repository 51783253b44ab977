#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db/leftovers.h"
#include "db/server_programs.h"

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
		[STEP_USER] = "switch to the server's user",
		[STEP_CHDIR] = "enter the server's directory",
		[STEP_LOG] = "open its log (a link or no regular file there?)",
		[STEP_STDIO] = "redirect its output",
		[STEP_EXEC] = "run it",
	};

	return step >= 0 && step <= STEP_EXEC ? names[step] : "start it";
}

bool server_program_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

bool server_program_in_path(const char *name, char *out)
{
	const char *path = getenv("PATH");
	const char *p, *end;

	if (!path)
		return false;
	for (p = path;; p = end + 1) {
		end = strchrnul(p, ':');
		if (end > p && snprintf(out, PATH_MAX, "%.*s/%s", (int)(end - p), p, name) < PATH_MAX &&
		    server_program_executable(out))
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
 * reach it or the server it starts), as as (NULL: ourselves) in dir (NULL: here), with
 * stdin from null_fd and stdout and stderr to out_fd, or to the log log_path (opened by
 * the child once it is that user, never through a link), executes argv. Uses only
 * async-signal-safe calls; failures are written to report_fd.
 */
_Noreturn static void child_exec(char *const argv[], int out_fd, const char *log_path, int null_fd,
				 const struct run_as *as, const char *dir, int report_fd)
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
	if (as && run_as_become(as) != 0)
		child_fail(report_fd, STEP_USER);
	if (dir && chdir(dir) != 0)
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

/* The program's name: argv[0] after its last '/'. */
static const char *program_name(char *const argv[])
{
	return strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
}

/*
 * Forks a child that executes argv as child_exec says and waits until it has (or could
 * not), first noting its pid in note_dir (db/leftovers.h; NULL: nowhere). *pid the child. 0 when it was executed; 1 when its set-up failed, with the reason
 * in err (the child still to be reaped); -1 when it could not be forked, with err.
 */
static int start_child(char *const argv[], int out_fd, const char *log_path, const struct run_as *as,
		       const char *dir, const char *note_dir, pid_t *pid, char *err, size_t errlen)
{
	struct child_failure failure;
	int null_fd = -1, report[2] = { -1, -1 }, ret = -1;
	ssize_t n;

	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null_fd < 0 || pipe2(report, O_CLOEXEC) != 0) {
		snprintf(err, errlen, "could not prepare to run %s: %s", program_name(argv), strerror(errno));
		goto out;
	}
	*pid = fork();
	if (*pid < 0) {
		snprintf(err, errlen, "could not fork to run %s: %s", program_name(argv), strerror(errno));
		goto out;
	}
	if (*pid == 0)
		child_exec(argv, out_fd, log_path, null_fd, as, dir, report[1]);
	if (note_dir && leftovers_note_started(note_dir, *pid) < 0) {
		snprintf(err, errlen, "could not note %s's pid in %s: %s", program_name(argv), note_dir, strerror(errno));
		kill(*pid, SIGKILL);
		ret = 1;
		goto out;
	}
	close(report[1]);
	report[1] = -1;
	do
		n = read(report[0], &failure, sizeof(failure));
	while (n < 0 && errno == EINTR);
	ret = 0;
	if (n == (ssize_t)sizeof(failure) && failure.step == STEP_CHDIR) {
		snprintf(err, errlen, "%s could not enter %s%s: %s", program_name(argv), dir,
			 as && as->drop ? " as the server's user" : "", strerror(failure.error));
		ret = 1;
	} else if (n == (ssize_t)sizeof(failure)) {
		snprintf(err, errlen, "%s: could not %s: %s", argv[0], child_step_name(failure.step),
			 strerror(failure.error));
		ret = 1;
	}
out:
	if (report[0] >= 0)
		close(report[0]);
	if (report[1] >= 0)
		close(report[1]);
	if (null_fd >= 0)
		close(null_fd);
	return ret;
}

/* Waits for the child pid, ending without EINTR. Its status, or -1 with err. */
static int reap(pid_t pid, const char *name, int *status, char *err, size_t errlen)
{
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(err, errlen, "could not wait for %s: %s", name, strerror(errno));
			return -1;
		}
	}
	return 0;
}

int server_program_run_noted(char *const argv[], int out_fd, const char *log_path, const struct run_as *as,
			     const char *dir, const char *note_dir, char *err, size_t errlen)
{
	const char *name = program_name(argv);
	char reason[512] = "";
	int started, status;
	pid_t pid;

	started = start_child(argv, out_fd, log_path, as, dir, note_dir, &pid, reason, sizeof(reason));
	if (started < 0) {
		snprintf(err, errlen, "%s", reason);
		return -1;
	}
	if (reap(pid, name, &status, err, errlen) < 0)
		return -1;
	if (started > 0)
		snprintf(err, errlen, "%s", reason);
	else if (WIFSIGNALED(status))
		snprintf(err, errlen, "%s was killed by signal %d", name, WTERMSIG(status));
	else if (WEXITSTATUS(status) != 0)
		snprintf(err, errlen, "%s exited with status %d", name, WEXITSTATUS(status));
	else
		return 0;
	return -1;
}

int server_program_run(char *const argv[], int out_fd, const char *log_path, const struct run_as *as,
		       const char *dir, char *err, size_t errlen)
{
	return server_program_run_noted(argv, out_fd, log_path, as, dir, NULL, err, errlen);
}

int server_program_spawn_noted(char *const argv[], const char *log_path, const struct run_as *as, const char *dir,
			       const char *note_dir, pid_t *pid, char *err, size_t errlen)
{
	int started = start_child(argv, -1, log_path, as, dir, note_dir, pid, err, errlen), status;

	if (started > 0) {
		char ignored[64];

		reap(*pid, program_name(argv), &status, ignored, sizeof(ignored));
		*pid = 0;
	}
	return started == 0 ? 0 : -1;
}

int server_program_spawn(char *const argv[], const char *log_path, const struct run_as *as, const char *dir,
			 pid_t *pid, char *err, size_t errlen)
{
	return server_program_spawn_noted(argv, log_path, as, dir, NULL, pid, err, errlen);
}

/*
 * Opens the log dir/name for reading when it is a regular file (no link followed: the
 * directory is the server account's), its size in *size. The descriptor, or -1.
 */
static int open_log(const char *dir, const char *name, off_t *size)
{
	char path[PATH_MAX + 32];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		*size = st.st_size;
		return fd;
	}
	close(fd);
	return -1;
}

/* Copies line (its newline cut) into out, linelen > 0 bytes, cut to fit. */
static void copy_line(char *out, size_t linelen, const char *line)
{
	size_t len = strcspn(line, "\n");

	if (len > linelen - 1)
		len = linelen - 1;
	memcpy(out, line, len);
	out[len] = '\0';
}

bool server_log_first(const char *dir, const char *name, off_t from, const char *marker, char *line, size_t linelen)
{
	char *text = NULL;
	size_t room = 0;
	bool found = false;
	off_t size;
	FILE *log;
	int fd;

	if (!linelen)
		return false;
	fd = open_log(dir, name, &size);
	if (fd < 0)
		return false;
	log = fdopen(fd, "r");
	if (!log) {
		close(fd);
		return server_log_reason(dir, name, line, linelen);
	}
	if (from > 0 && from <= size && fseeko(log, from, SEEK_SET) != 0)
		rewind(log);
	while (!found && getline(&text, &room, log) >= 0)
		if (strstr(text, marker)) {
			copy_line(line, linelen, text);
			found = true;
		}
	free(text);
	fclose(log);
	return found || server_log_reason(dir, name, line, linelen);
}

bool server_log_reason(const char *dir, const char *name, char *line, size_t linelen)
{
	char tail[4096];
	const char *best = NULL, *last = NULL;
	char *p, *next;
	off_t size;
	ssize_t n;
	int fd = open_log(dir, name, &size);

	if (fd < 0)
		return false;
	/* Only the tail matters: the reason for a failure is logged last. */
	n = pread(fd, tail, sizeof(tail) - 1, size > (off_t)sizeof(tail) - 1 ? size - (off_t)sizeof(tail) + 1 : 0);
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
	copy_line(line, linelen, best ? best : last);
	return true;
}

int server_make_dir(char *dir, const char *prefix, const char *socket_name, const struct run_as *as, bool *made,
		    char *err, size_t errlen)
{
	const char *tmpdir = getenv("TMPDIR");
	struct sockaddr_un sun;
	char base[PATH_MAX];
	int len;

	*made = false;
	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	if (!realpath(tmpdir, base)) {
		snprintf(err, errlen, "temporary directory %s: %s", tmpdir, strerror(errno));
		return -1;
	}
	len = snprintf(dir, PATH_MAX, "%s/%sXXXXXX", strcmp(base, "/") ? base : "", prefix);
	if (len >= PATH_MAX || snprintf(NULL, 0, "%s/%s", dir, socket_name) >= (int)sizeof(sun.sun_path)) {
		snprintf(err, errlen, "temporary directory %s is too long for a Unix socket path; set TMPDIR", base);
		return -1;
	}
	if (strspn(dir, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-") != (size_t)len) {
		snprintf(err, errlen, "temporary directory %s has characters other than letters, digits and /._-; set TMPDIR",
			 base);
		return -1;
	}
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "could not create a directory in %s: %s", base, strerror(errno));
		return -1;
	}
	*made = true;
	if (leftovers_mark(dir, err, errlen) < 0)
		return -1;
	if (as->drop && chown(dir, as->uid, as->gid) != 0) {
		snprintf(err, errlen, "could not give %s to the server's user: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}
