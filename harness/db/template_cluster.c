#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/leftovers.h"
#include "db/run_as.h"
#include "db/server_programs.h"
#include "db/template_cluster.h"

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

/* Whether the directory data is a whole data directory: it holds PG_VERSION and global/pg_control. */
static bool whole(const char *data)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/PG_VERSION", data);
	if (access(path, R_OK) != 0)
		return false;
	snprintf(path, sizeof(path), "%s/global/pg_control", data);
	return access(path, R_OK) == 0;
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

	if (!t->enabled || !whole(t->path))
		return 0;
	if (copy_tree(t->path, data, err, errlen) != 0)
		goto fail;
	if (whole(data))
		return 1;
	snprintf(err, errlen, "the copy of the template %s is not whole", t->path);
fail:
	leftovers_remove(data, &self);
	return -1;
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
	char aside[PATH_MAX + 16], copy[PATH_MAX + 32];
	int ret = -1;

	if (!t->enabled)
		return 0;
	if (make_dirs(t->cache) != 0) {
		snprintf(err, errlen, "cannot make the cache directory %s: %s", t->cache, strerror(errno));
		return -1;
	}
	/* one not whole (a copy cut short by hand, say) is this cache's own: replaced */
	if (access(t->path, F_OK) == 0 && !whole(t->path) && leftovers_remove(t->path, &self) != 0) {
		snprintf(err, errlen, "cannot remove the broken template %s", t->path);
		return -1;
	}
	if (snprintf(aside, sizeof(aside), "%s/.new-XXXXXX", t->cache) >= (int)sizeof(aside) || !mkdtemp(aside)) {
		snprintf(err, errlen, "cannot make a directory in %s: %s", t->cache, strerror(errno));
		return -1;
	}
	snprintf(copy, sizeof(copy), "%s/data", aside);
	if (copy_tree(data, copy, err, errlen) != 0)
		goto done;
	if (rename(copy, t->path) == 0) {
		ret = 1;
	} else if (errno == EEXIST || errno == ENOTEMPTY) {
		ret = 0;
	} else {
		snprintf(err, errlen, "cannot rename %s to %s: %s", copy, t->path, strerror(errno));
	}
done:
	leftovers_remove(aside, &self);
	return ret;
}
