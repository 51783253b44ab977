/*
 * gnuplot driven as chart_plot.h says. The command line holds no user input: the
 * scripts and every file name are fixed, the data files lie in the output directory
 * gnuplot runs in, and the -e settings carry only numbers, palette colours and file-safe
 * stems (letters, digits, '-' and '_': chart_part_stem).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/chart_plot.h"
#include "report/out_dir.h"

extern char **environ;

/* The image formats drawn, each a gnuplot terminal the scripts know. */
static const char *const chart_terms[] = { "png", "svg" };

bool chart_find_program(const char *name, char *buf, size_t size)
{
	const char *path = getenv("PATH"), *end;
	size_t len;

	if (strchr(name, '/')) {
		snprintf(buf, size, "%s", name);
		return access(name, X_OK) == 0;
	}
	for (; path && *path; path = *end ? end + 1 : end) {
		end = strchrnul(path, ':');
		len = (size_t)(end - path);
		if (!len)
			continue;
		if (snprintf(buf, size, "%.*s/%s", (int)len, path, name) >= (int)size)
			continue;
		if (access(buf, X_OK) == 0)
			return true;
	}
	return false;
}

/* Whether dir holds charts/common.gp. */
static bool has_scripts(const char *dir)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/charts/common.gp", dir);
	return access(path, R_OK) == 0;
}

int chart_scripts_dir(char *buf, size_t size, char *err, size_t errlen)
{
	static const char *const beside[] = { "../share/claimbench", "../scripts" };
	const char *env = getenv("CLAIMBENCH_SCRIPTS");
	char exe[PATH_MAX], *bindir;
	ssize_t n;

	if (env && *env) {
		snprintf(buf, size, "%s", env);
		if (has_scripts(buf))
			return 0;
		snprintf(err, errlen, "CLAIMBENCH_SCRIPTS=%s holds no charts/common.gp", env);
		return -1;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0) {
		snprintf(err, errlen, "cannot find the running binary: %s (set CLAIMBENCH_SCRIPTS)", strerror(errno));
		return -1;
	}
	exe[n] = '\0';
	bindir = dirname(exe);
	for (size_t i = 0; i < sizeof(beside) / sizeof(beside[0]); i++) {
		snprintf(buf, size, "%s/%s", bindir, beside[i]);
		if (has_scripts(buf))
			return 0;
	}
	snprintf(err, errlen,
		 "no charts/common.gp in %s/%s or %s/%s (set CLAIMBENCH_SCRIPTS to the directory holding charts/)",
		 bindir, beside[0], bindir, beside[1]);
	return -1;
}

/* The descriptor gnuplot writes its image through (its output is set to /dev/fd/N). */
#define CHART_IMAGE_FD 3

/*
 * Runs gnuplot once, in dir (fchdir to its descriptor, never by path): chart c in terminal
 * term, into NAME.TERM in dir, which claimbench creates afresh (out_dir_create) and gnuplot
 * writes through the descriptor it inherits, never by name; its messages go to log (a
 * descriptor). 0, or -1 with err.
 */
static int draw_one(const char *gnuplot, const char *scripts, const struct out_dir *dir, int log,
		    const struct chart *c, const char *term, char *err, size_t errlen)
{
	char settings[10 * CHART_LIST + 512], common[PATH_MAX + 32], script[PATH_MAX + 32];
	char *argv[] = { "gnuplot", "-e", settings, common, script, NULL };
	posix_spawn_file_actions_t actions;
	char image[256], section[CHART_STEM];
	int status, rc, ret = -1, fd;
	pid_t pid;

	snprintf(image, sizeof(image), "%s.%s", c->name, term);
	fd = out_dir_create(dir, image, err, errlen);
	if (fd < 0)
		return -1;
	section[0] = '\0';
	if (c->section[0])
		chart_part_stem(section, sizeof(section), c->section);
	snprintf(settings, sizeof(settings),
		 "term='%s'; out='/dev/fd/%d'; data='%s.tsv'; section='%s'; n=%zu; keybeside=%d; workers=%d; marks=%zu; "
		 "colours='%s'; styles='%s'; shapes='%s'; height=%d; xlo=%.9g; xhi=%.9g; logx=%d; ylo=%.9g; ymax=%.9g; "
		 "ymax2=%.9g; ceiling=%.9g; arrival=%.9g; pooling=%d; repeats=%d; engines=%d; dups=%d; panels=%zu; leftout=%zu; ownscales=%d; "
		 "owntimes=%d; "
		 "faulted='%s'; outages='%s'; firsts='%s'; ticks='%s'; layer='%s'; phases='%s'",
		 term, CHART_IMAGE_FD, c->name, section, c->blocks, CHART_KEY_BESIDE, c->workers, c->marks, c->colours,
		 c->styles, c->shapes, c->height, c->xlo, c->xhi, c->log_x, c->ylo, c->ymax, c->ymax2, c->ceiling,
		 c->arrival_rate, (int)c->pooling, (int)c->repeats, c->engines, c->dups_known, c->panels, c->left_out, c->own_scales, c->own_times,
		 c->faulted, c->outages,
		 c->firsts, c->ticks, c->layer, c->phases);
	snprintf(common, sizeof(common), "%s/charts/common.gp", scripts);
	snprintf(script, sizeof(script), "%s/charts/%s.gp", scripts, c->script);
	if (posix_spawn_file_actions_init(&actions) != 0) {
		snprintf(err, errlen, "out of memory");
		close(fd);
		return -1;
	}
	rc = posix_spawn_file_actions_addfchdir_np(&actions, dir->fd);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&actions, fd, CHART_IMAGE_FD);
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&actions, log, STDOUT_FILENO);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
	if (!rc)
		rc = posix_spawn(&pid, gnuplot, &actions, NULL, argv, environ);
	if (rc) {
		snprintf(err, errlen, "cannot run %s: %s", gnuplot, strerror(rc));
		goto out;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(err, errlen, "waiting for gnuplot: %s", strerror(errno));
			goto out;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(err, errlen, "gnuplot failed drawing %s.%s (its messages are in %s/%s)", c->name, term, dir->path,
			 CHART_LOG);
		goto out;
	}
	ret = 0;
out:
	posix_spawn_file_actions_destroy(&actions);
	close(fd);
	return ret;
}

int chart_draw(const char *gnuplot, const char *scripts, const struct out_dir *dir, int log, const struct chart *c,
	       char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < sizeof(chart_terms) / sizeof(chart_terms[0]); i++)
		if (draw_one(gnuplot, scripts, dir, log, c, chart_terms[i], err, errlen) < 0)
			return -1;
	return 0;
}
