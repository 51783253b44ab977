#include <dirent.h>
#include <errno.h>
#include <fts.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db/leftovers.h"
#include "db/run_as.h"
#include "db/server_programs.h"
#include "db/postgresql/template_cluster.h"

/* The template's record of its data directory: its files and their bytes, checked before each copy. */
#define MANIFEST_FILE "manifest"
/* How the directories a keep writes before it renames one into place begin. */
#define KEEP_PREFIX ".new-"
/* The age after which such a directory is a keep cut short, in seconds. */
#define STALE_KEEP_S 3600

/* FNV-1a, 64 bits, of len bytes at data, continued from h. */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The cache directory into out (PATH_MAX bytes): false when none is named (none, or no home). */
static bool cache_dir(char *out)
{
	const char *env = getenv("CLAIMBENCH_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (env && *env)
		return strcmp(env, TEMPLATE_CLUSTER_NONE) != 0 && snprintf(out, PATH_MAX, "%s", env) < PATH_MAX;
	if (xdg && *xdg == '/')
		return snprintf(out, PATH_MAX, "%s/claimbench", xdg) < PATH_MAX;
	return home && *home == '/' && snprintf(out, PATH_MAX, "%s/.cache/claimbench", home) < PATH_MAX;
}

int template_cluster_find(struct template_cluster *t, const char *bindir, const char *args, char *err, size_t errlen)
{
	char initdb[PATH_MAX + 16];
	uint64_t key = 0xcbf29ce484222325ULL;
	int64_t made[4];
	struct stat st;

	memset(t, 0, sizeof(*t));
	if (!cache_dir(t->cache))
		return 0;
	snprintf(initdb, sizeof(initdb), "%s/initdb", bindir);
	if (stat(initdb, &st) != 0) {
		snprintf(err, errlen, "%s: %s", initdb, strerror(errno));
		return -1;
	}
	made[0] = (int64_t)st.st_size;
	made[1] = (int64_t)st.st_ctime;
	made[2] = (int64_t)st.st_ino;
	made[3] = (int64_t)st.st_dev;
	key = hash_bytes(key, bindir, strlen(bindir) + 1);
	key = hash_bytes(key, args, strlen(args) + 1);
	key = hash_bytes(key, made, sizeof(made));
	t->enabled = snprintf(t->path, sizeof(t->path), "%s/pg-%016" PRIx64, t->cache, key) < (int)sizeof(t->path);
	return 0;
}

/* The files under a data directory: what its manifest records and a copy must have. */
struct tree_size {
	long long files;	/* regular files */
	long long bytes;	/* their sizes summed */
};

/* Counts the regular files under dir and their bytes into *size, links not followed. 0, or -1. */
static int measure_tree(const char *dir, struct tree_size *size)
{
	char *paths[] = { (char *)dir, NULL };
	FTS *fts = fts_open(paths, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	FTSENT *e;
	int ret = 0;

	*size = (struct tree_size){ 0, 0 };
	if (!fts)
		return -1;
	while ((e = fts_read(fts))) {
		if (e->fts_info == FTS_F) {
			size->files++;
			size->bytes += (long long)e->fts_statp->st_size;
		} else if (e->fts_info == FTS_DNR || e->fts_info == FTS_ERR || e->fts_info == FTS_NS) {
			ret = -1;
		}
	}
	fts_close(fts);
	return ret;
}

/* Reads the manifest of the template at path (its files and bytes) into *size. 0, or -1 when there is none. */
static int read_manifest(const char *path, struct tree_size *size)
{
	char file[PATH_MAX + 32];
	FILE *f;
	int n;

	snprintf(file, sizeof(file), "%s/" MANIFEST_FILE, path);
	f = fopen(file, "r");
	if (!f)
		return -1;
	n = fscanf(f, "files %lld bytes %lld", &size->files, &size->bytes);
	fclose(f);
	return n == 2 ? 0 : -1;
}

/* Whether the template at path is whole: its data directory holds what its manifest says. */
static bool whole(const char *path)
{
	char data[PATH_MAX + 16];
	struct tree_size want, have;

	snprintf(data, sizeof(data), "%s/data", path);
	return read_manifest(path, &want) == 0 && measure_tree(data, &have) == 0 && have.files == want.files &&
	       have.bytes == want.bytes;
}

/* Copies the directory from to to (which must not exist) with cp -a, as ourselves. 0, or -1 with err. */
static int copy_tree(const char *from, const char *to, char *err, size_t errlen)
{
	char cp[PATH_MAX];
	char *argv[] = { cp, "-a", "--", (char *)from, (char *)to, NULL };

	if (!server_program_in_path("cp", cp)) {
		snprintf(err, errlen, "no cp on $PATH to copy %s", from);
		return -1;
	}
	return server_program_run(argv, -1, "/dev/null", NULL, NULL, err, errlen);
}

int template_cluster_copy(const struct template_cluster *t, const char *data, char *err, size_t errlen)
{
	struct run_as self = { .drop = false };
	char from[PATH_MAX + 16];

	if (!t->enabled || !whole(t->path))
		return 0;
	snprintf(from, sizeof(from), "%s/data", t->path);
	if (copy_tree(from, data, err, errlen) != 0) {
		leftovers_remove(data, &self);
		return -1;
	}
	return 1;
}

int template_cluster_drop(const struct template_cluster *t)
{
	struct run_as self = { .drop = false };

	return t->enabled ? leftovers_remove(t->path, &self) : 0;
}

/*
 * Removes the directories of keeps cut short (a process killed while it copied) that are
 * older than STALE_KEEP_S: a keep takes a second or so.
 */
static void sweep_stale_keeps(const char *cache)
{
	struct run_as self = { .drop = false };
	char path[PATH_MAX + 300];
	struct dirent *d;
	struct stat st;
	DIR *dir = opendir(cache);

	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, KEEP_PREFIX, strlen(KEEP_PREFIX)) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", cache, d->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && time(NULL) - st.st_mtime > STALE_KEEP_S)
			leftovers_remove(path, &self);
	}
	closedir(dir);
}

/* Creates dir and its parents that are missing, mode 0700. 0, or -1 with errno. */
static int make_dirs(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s", dir);
	for (char *slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST)
			return -1;
		if (!slash)
			return 0;
		*slash = '/';
	}
}

int template_cluster_keep(const struct template_cluster *t, const char *data, char *err, size_t errlen)
{
	struct run_as self = { .drop = false };
	char aside[PATH_MAX + 16], copy[PATH_MAX + 32], manifest[PATH_MAX + 32];
	struct tree_size size;
	FILE *f;
	int ret = -1;

	if (!t->enabled)
		return 0;
	if (make_dirs(t->cache) != 0) {
		snprintf(err, errlen, "cannot make the cache directory %s: %s", t->cache, strerror(errno));
		return -1;
	}
	sweep_stale_keeps(t->cache);
	/* one not whole (a file removed by hand or by a cache cleaner) is this cache's own: replaced */
	if (access(t->path, F_OK) == 0 && !whole(t->path) && leftovers_remove(t->path, &self) != 0) {
		snprintf(err, errlen, "cannot remove the broken template %s", t->path);
		return -1;
	}
	if (snprintf(aside, sizeof(aside), "%s/" KEEP_PREFIX "XXXXXX", t->cache) >= (int)sizeof(aside) ||
	    !mkdtemp(aside)) {
		snprintf(err, errlen, "cannot make a directory in %s: %s", t->cache, strerror(errno));
		return -1;
	}
	snprintf(copy, sizeof(copy), "%s/data", aside);
	snprintf(manifest, sizeof(manifest), "%s/" MANIFEST_FILE, aside);
	if (copy_tree(data, copy, err, errlen) != 0)
		goto done;
	if (measure_tree(copy, &size) != 0 || !(f = fopen(manifest, "w"))) {
		snprintf(err, errlen, "cannot write the manifest of %s", copy);
		goto done;
	}
	fprintf(f, "files %lld bytes %lld\n", size.files, size.bytes);
	if (fclose(f) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", manifest, strerror(errno));
		goto done;
	}
	if (rename(aside, t->path) == 0) {
		return 1;
	} else if (errno == EEXIST || errno == ENOTEMPTY) {
		ret = 0;
	} else {
		snprintf(err, errlen, "cannot rename %s to %s: %s", aside, t->path, strerror(errno));
	}
done:
	leftovers_remove(aside, &self);
	return ret;
}
