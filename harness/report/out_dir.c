#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/out_dir.h"

/*
 * Whether the folder dfd holds nothing: 1 yes, 0 no, -1 with errno when it cannot be read.
 * dfd itself is left as it was (read through a descriptor of its own).
 */
static int is_empty(int dfd)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *e;
	int empty = 1;
	DIR *d;

	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	while (empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = 0;
	closedir(d);
	return empty;
}

/* Whether the folder dfd holds the mark as a regular file. */
static bool is_marked(int dfd)
{
	struct stat st;

	return fstatat(dfd, OUT_DIR_MARK, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

/* The mark's first line: what the folder is. */
static const char mark_header[] =
	"a folder claimbench report made; below, the files the last report wrote here, which the next removes\n";

/* Writes the mark into d afresh: its first line, then text (the names it lists). 0, or -1 with err. */
static int mark(const struct out_dir *d, const char *text, char *err, size_t errlen)
{
	struct out_dir plain = { .fd = d->fd, .path = d->path, .listing = false };
	int fd = out_dir_create(&plain, OUT_DIR_MARK, err, errlen);
	size_t len = strlen(text);
	bool ok;

	if (fd < 0)
		return -1;
	ok = write(fd, mark_header, sizeof(mark_header) - 1) == (ssize_t)(sizeof(mark_header) - 1) &&
	     write(fd, text, len) == (ssize_t)len;
	if ((close(fd) != 0) | !ok) {
		snprintf(err, errlen, "cannot write %s/%s: %s", d->path, OUT_DIR_MARK, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The names d's mark lists, read whole into a new string (free it), its first line left
 * out: a name a line; an empty line parts an earlier report's names from those of the
 * report under way (out_dir_claim, out_dir_finish). NULL with err.
 */
static char *read_listed(const struct out_dir *d, char *err, size_t errlen)
{
	FILE *f = out_dir_read(d, OUT_DIR_MARK, err, errlen);
	size_t len = 0, cap = 4096, n;
	char *buf = NULL, *grown, *names;

	if (!f)
		return NULL;
	while ((grown = realloc(buf, cap + 1))) {
		buf = grown;
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (len < cap)
			break;
		cap *= 2;
	}
	if (!grown || ferror(f)) {
		snprintf(err, errlen, "cannot read %s/%s", d->path, OUT_DIR_MARK);
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	names = strchr(buf, '\n');
	memmove(buf, names ? names + 1 : buf + len, strlen(names ? names + 1 : buf + len) + 1);
	return buf;
}

/* Whether name, of length len, is one claimbench may have written in its folder: a plain name, not the mark. */
static bool plain_name(const char *name, size_t len)
{
	return len && len < 4096 && !memchr(name, '/', len) && !(len == 1 && name[0] == '.') &&
	       !(len == 2 && strncmp(name, "..", 2) == 0) &&
	       !(len == strlen(OUT_DIR_MARK) && strncmp(name, OUT_DIR_MARK, len) == 0);
}

/* Whether the lines from lines to end hold name (of length len) as a whole line. */
static bool line_among(const char *lines, const char *end, const char *name, size_t len)
{
	for (const char *p = lines; p < end; p += strcspn(p, "\n") + 1)
		if (strcspn(p, "\n") == len && strncmp(p, name, len) == 0)
			return true;
	return false;
}

/*
 * Marks d afresh for the report under way, the names an earlier report listed carried over
 * (all of them, on both sides of an empty line a report that did not finish left) above an
 * empty line, so that out_dir_finish removes those the new report does not write again.
 * 0, or -1 with err.
 */
static int mark_again(const struct out_dir *d, char *err, size_t errlen)
{
	char *names = read_listed(d, err, errlen), *text, *q;
	int rc;

	if (!names)
		return -1;
	text = malloc(strlen(names) + 2);
	if (!text) {
		free(names);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	q = text;
	for (const char *p = names; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != '\0')) {
		size_t len = strcspn(p, "\n");

		if (plain_name(p, len) && !line_among(text, q, p, len)) {
			memcpy(q, p, len);
			q += len;
			*q++ = '\n';
		}
	}
	*q++ = '\n';
	*q = '\0';
	rc = mark(d, text, err, errlen);
	free(text);
	free(names);
	return rc;
}

int out_dir_finish(struct out_dir *d, char *err, size_t errlen)
{
	char *names = read_listed(d, err, errlen), *mine;
	struct stat st;
	int rc = 0;

	if (!names)
		return -1;
	mine = strstr(names, "\n\n");
	mine = mine ? mine + 2 : names[0] == '\n' ? names + 1 : NULL;
	for (const char *p = names; mine && p < mine - 1 && rc == 0; p += strcspn(p, "\n") + 1) {
		size_t len = strcspn(p, "\n");
		char name[4096];

		if (!plain_name(p, len) || line_among(mine, mine + strlen(mine), p, len))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (unlinkat(d->fd, name, 0) < 0 && errno != ENOENT) {
			snprintf(err, errlen, "cannot remove the earlier report's %s/%s: %s", d->path, name,
				 strerror(errno));
			rc = -1;
		}
	}
	if (rc == 0 && mine)
		rc = mark(d, mine, err, errlen);
	free(names);
	return rc;
}

/* Adds name to d's mark's list, a line of its own. 0, or -1 with err. */
static int list_file(const struct out_dir *d, const char *name, char *err, size_t errlen)
{
	int fd = openat(d->fd, OUT_DIR_MARK, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	size_t len = strlen(name);
	bool ok;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s/%s: %s", d->path, OUT_DIR_MARK, strerror(errno));
		return -1;
	}
	ok = write(fd, name, len) == (ssize_t)len && write(fd, "\n", 1) == 1;
	if ((close(fd) != 0) | !ok) {
		snprintf(err, errlen, "cannot write %s/%s: %s", d->path, OUT_DIR_MARK, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Opens the parent folder of path (text before its last '/'; "." without one) into *pfd
 * and points *base at path's last component. Refuses a parent that neither the user nor
 * root owns, or that group or others may write into and that is not sticky: whoever may
 * write into it could rename the report's folder and put another in its place.
 * 0; 1 with err when refused; -1 with err on a system error.
 */
static int open_parent(const char *path, int *pfd, const char **base, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char parent[4096];
	struct stat st;

	*base = slash ? slash + 1 : path;
	if (!**base || strcmp(*base, ".") == 0 || strcmp(*base, "..") == 0) {
		snprintf(err, errlen, "%s: give --out a folder by its name", path);
		return 1;
	}
	if (!slash)
		snprintf(parent, sizeof(parent), ".");
	else if (snprintf(parent, sizeof(parent), "%.*s", slash == path ? 1 : (int)(slash - path), path) >=
		 (int)sizeof(parent)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	*pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*pfd < 0 || fstat(*pfd, &st) < 0) {
		snprintf(err, errlen, "cannot open %s: %s", parent, strerror(errno));
		if (*pfd >= 0)
			close(*pfd);
		return -1;
	}
	if ((st.st_uid != geteuid() && st.st_uid != 0) || ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))) {
		snprintf(err, errlen, "%s lies in %s, %s: claimbench writes its report only into a folder whose "
			 "parent no one else may change (the user's or root's, writable by no one else or sticky)",
			 path, parent, st.st_uid != geteuid() && st.st_uid != 0 ? "another user's folder" :
			 "a folder that others may write into");
		close(*pfd);
		return 1;
	}
	return 0;
}

/*
 * Creates or opens base in the folder pfd as the folder of d (d->path set), checking what
 * was opened: the user's, writable by no one else. 0; 1 with err when refused; -1 with err.
 */
static int open_folder(int pfd, const char *base, struct out_dir *d, bool *made, char *err, size_t errlen)
{
	struct stat st;

	*made = mkdirat(pfd, base, 0755) == 0;
	if (!*made && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", d->path, strerror(errno));
		return -1;
	}
	d->fd = openat(pfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd < 0) {
		if (errno != ELOOP && errno != ENOTDIR) {
			snprintf(err, errlen, "cannot open %s: %s", d->path, strerror(errno));
			return -1;
		}
		snprintf(err, errlen, "%s is %s, not a folder: give --out a folder", d->path,
			 fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) ? "a symbolic link" :
			 "a file");
		return 1;
	}
	if (fstat(d->fd, &st) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", d->path, strerror(errno));
		return -1;
	}
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(err, errlen, "%s is %s: claimbench writes its report only into a folder of its user's "
			 "that no one else may write into", d->path, st.st_uid != geteuid() ? "another user's folder" :
			 "a folder that others may write into");
		return 1;
	}
	return 0;
}

int out_dir_claim(const char *path, bool force, struct out_dir *d, char *err, size_t errlen)
{
	const char *base;
	int pfd, rc, empty;
	bool made;

	d->fd = -1;
	d->path = path;
	d->listing = false;
	rc = open_parent(path, &pfd, &base, err, errlen);
	if (rc != 0)
		return rc;
	rc = open_folder(pfd, base, d, &made, err, errlen);
	close(pfd);
	if (rc != 0)
		goto fail;
	empty = made || force || is_marked(d->fd) ? 1 : is_empty(d->fd);
	if (empty < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		rc = -1;
		goto fail;
	}
	if (!empty) {
		snprintf(err, errlen, "%s holds files and claimbench did not make it (it has no %s): give --out a new "
			 "or empty folder, or add --force to write the report into it (its files of a report's names "
			 "replaced, the others left alone)", path, OUT_DIR_MARK);
		rc = 1;
		goto fail;
	}
	rc = !made && is_marked(d->fd) ? mark_again(d, err, errlen) : mark(d, "\n", err, errlen);
	d->listing = rc == 0;
	if (rc == 0)
		return 0;
fail:
	out_dir_close(d);
	return rc;
}

void out_dir_close(struct out_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

int out_dir_create(const struct out_dir *d, const char *name, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s/%s is %s: refusing to write through it or replace it", d->path, name,
				 S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
			return -1;
		}
		if (unlinkat(d->fd, name, 0) < 0) {
			snprintf(err, errlen, "cannot replace %s/%s: %s", d->path, name, strerror(errno));
			return -1;
		}
	}
	if (d->listing && list_file(d, name, err, errlen) < 0)
		return -1;
	fd = openat(d->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		snprintf(err, errlen, "cannot create %s/%s: %s%s", d->path, name, strerror(errno),
			 errno == EEXIST || errno == ELOOP ? " (something was put there meanwhile: refused)" : "");
	return fd;
}

FILE *out_dir_fopen(const struct out_dir *d, const char *name, char *err, size_t errlen)
{
	int fd = out_dir_create(d, name, err, errlen);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write %s/%s: %s", d->path, name, strerror(errno));
		close(fd);
	}
	return f;
}

FILE *out_dir_read(const struct out_dir *d, const char *name, char *err, size_t errlen)
{
	int fd = openat(d->fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	const char *why = NULL;
	struct stat st;
	FILE *f = NULL;

	if (fd < 0 || fstat(fd, &st) < 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (!(f = fdopen(fd, "r")))
		why = strerror(errno);
	if (f)
		return f;
	snprintf(err, errlen, "cannot read %s/%s: %s", d->path, name, why);
	if (fd >= 0)
		close(fd);
	return NULL;
}
