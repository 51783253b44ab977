/*
 * initdb's output kept as a template: the first throwaway PostgreSQL a set of server
 * programs gets runs initdb and keeps a copy of the fresh data directory in the user's
 * cache ($CLAIMBENCH_CACHE_DIR, else $XDG_CACHE_HOME/claimbench, else ~/.cache/claimbench;
 * CLAIMBENCH_CACHE_DIR=none keeps nothing); the later ones copy it (tens of milliseconds)
 * instead of running initdb again (a second or more). A template is named by what made it
 * (the programs' directory, initdb's size, change time and inode, and initdb's arguments),
 * so another PostgreSQL, an upgraded one or other arguments get their own. It is made aside
 * and renamed into place, and its manifest (its files and their bytes) is checked before each
 * copy, so that a template cut short or pruned (a cache cleaner's doing) is never copied but
 * replaced. <cache>/pg-<key>/ holds data/ and manifest.
 */
#ifndef CLAIMBENCH_TEMPLATE_CLUSTER_H
#define CLAIMBENCH_TEMPLATE_CLUSTER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* $CLAIMBENCH_CACHE_DIR's value that says: keep and use no template. */
#define TEMPLATE_CLUSTER_NONE "none"

/* Where one set of server programs' template is, or would be kept. */
struct template_cluster {
	char path[PATH_MAX];	/* the template: <cache>/pg-<key>, holding data/ and its manifest */
	char cache[PATH_MAX];	/* the cache directory holding it */
	bool enabled;		/* a cache is named (not CLAIMBENCH_CACHE_DIR=none, a home known) */
};

/*
 * Names the template of the initdb in bindir run with the arguments args (one string, as
 * they are passed): into t. 0, or -1 with a reason in err (initdb cannot be read).
 */
int template_cluster_find(struct template_cluster *t, const char *bindir, const char *args, char *err, size_t errlen);

/*
 * Copies t's template's data directory, when the template is whole, to data (which must not
 * exist), owners and modes kept. 1 copied; 0 no template (or t not enabled): run initdb; -1
 * with a reason in err, data then removed.
 */
int template_cluster_copy(const struct template_cluster *t, const char *data, char *err, size_t errlen);

/* Removes t's template (a server would not start from its copy). 0, or -1 when it cannot. */
int template_cluster_drop(const struct template_cluster *t);

/*
 * Keeps a copy of data, a data directory initdb has just made and no server has run in, as
 * t's template with its manifest, unless another process kept one first; removes a template
 * there that is not whole, and the directories of keeps cut short over an hour ago. 1 kept,
 * 0 not enabled or another's kept, -1 with a reason in err (the runs go on with initdb).
 */
int template_cluster_keep(const struct template_cluster *t, const char *data, char *err, size_t errlen);

#endif
