#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chart/out_dir.h"

/* Whether name ends in suffix. */
static bool ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);

	return n > k && strcmp(name + n - k, suffix) == 0;
}

/* Whether the entry name of dir is a regular file named as a report's files are. */
static bool is_report_file(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	if (strcmp(name, "report.md") != 0 && strcmp(name, "report.html") != 0 && strcmp(name, "gnuplot.log") != 0 &&
	    !ends_with(name, ".tsv") && !ends_with(name, ".png") && !ends_with(name, ".svg"))
		return false;
	return snprintf(path, sizeof(path), "%s/%s", dir, name) < (int)sizeof(path) && lstat(path, &st) == 0 &&
	       S_ISREG(st.st_mode);
}

/*
 * Whether the folder dir holds nothing but a report's files (none at all, or those of a
 * report of a claimbench that did not yet mark its folders): 1 yes, 0 no, -1 with errno
 * when it cannot be read.
 */
static int holds_only_report(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int only = 1;

	if (!d)
		return -1;
	while (only && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && !is_report_file(dir, e->d_name))
			only = 0;
	closedir(d);
	return only;
}

/* Whether dir holds the mark as a regular file. */
static bool is_marked(const char *dir)
{
	char path[4096];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/%s", dir, OUT_DIR_MARK) >= (int)sizeof(path))
		return false;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Writes the mark into dir. 0, or -1 with err. */
static int mark(const char *dir, char *err, size_t errlen)
{
	static const char text[] = "a folder claimbench report made: it replaces its own files here\n";
	int fd = out_dir_create(dir, OUT_DIR_MARK, err, errlen);
	bool ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, sizeof(text) - 1) == (ssize_t)(sizeof(text) - 1);
	if ((close(fd) != 0) | !ok) {
		snprintf(err, errlen, "cannot write %s/%s: %s", dir, OUT_DIR_MARK, strerror(errno));
		return -1;
	}
	return 0;
}

int out_dir_claim(const char *dir, char *err, size_t errlen)
{
	struct stat st;
	int only;

	if (mkdir(dir, 0755) == 0)
		return mark(dir, err, errlen) < 0 ? -1 : 0;
	if (errno != EEXIST || lstat(dir, &st) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s is %s, not a folder: give --out a folder", dir,
			 S_ISLNK(st.st_mode) ? "a symbolic link" : "a file");
		return 1;
	}
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(err, errlen, "%s is %s: claimbench writes its report only into a folder of its user's "
			 "that no one else may write into", dir, st.st_uid != geteuid() ? "another user's folder" :
			 "a folder that others may write into");
		return 1;
	}
	if (is_marked(dir))
		return 0;
	only = holds_only_report(dir);
	if (only < 0) {
		snprintf(err, errlen, "cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!only) {
		snprintf(err, errlen, "%s holds what no claimbench report wrote there (no %s; a link, a folder or a "
			 "file of another name): give --out a new or empty folder", dir, OUT_DIR_MARK);
		return 1;
	}
	return mark(dir, err, errlen) < 0 ? -1 : 0;
}

int out_dir_create(const char *dir, const char *name, char *err, size_t errlen)
{
	char path[4096];
	struct stat st;
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -1;
	}
	if (lstat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s is %s: refusing to write through it or replace it", path,
				 S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
			return -1;
		}
		if (unlink(path) < 0) {
			snprintf(err, errlen, "cannot replace %s: %s", path, strerror(errno));
			return -1;
		}
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		snprintf(err, errlen, "cannot create %s: %s%s", path, strerror(errno),
			 errno == EEXIST || errno == ELOOP ? " (something was put there meanwhile: refused)" : "");
	return fd;
}

FILE *out_dir_fopen(const char *dir, const char *name, char *err, size_t errlen)
{
	int fd = out_dir_create(dir, name, err, errlen);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write %s/%s: %s", dir, name, strerror(errno));
		close(fd);
	}
	return f;
}
