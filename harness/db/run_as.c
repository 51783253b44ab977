#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db/run_as.h"

/* Loads into as the supplementary groups of user name whose primary group is as->gid. 0, or -1 with err. */
static int load_groups(struct run_as *as, const char *name, char *err, size_t errlen)
{
	int room = 16, want;

	for (;;) {
		gid_t *bigger = realloc(as->groups, (size_t)room * sizeof(*bigger));

		if (!bigger) {
			snprintf(err, errlen, "out of memory listing the groups of user %s", name);
			return -1;
		}
		as->groups = bigger;
		want = room;
		if (getgrouplist(name, as->gid, as->groups, &want) >= 0) {
			as->n_groups = want;
			return 0;
		}
		room = want > room ? want : room * 2;
	}
}

/* Fills as with the user pw (not root). 0, or -1 with err. */
static int become_user(struct run_as *as, const struct passwd *pw, char *err, size_t errlen)
{
	as->drop = true;
	as->uid = pw->pw_uid;
	as->gid = pw->pw_gid;
	return load_groups(as, pw->pw_name, err, errlen);
}

int run_as_choose(struct run_as *as, const char *name, char *err, size_t errlen)
{
	struct passwd *pw;

	memset(as, 0, sizeof(*as));
	as->uid = geteuid();
	as->gid = getegid();
	if (as->uid != 0)
		return 0;
	pw = getpwnam(name);
	if (!pw || pw->pw_uid == 0) {
		snprintf(err, errlen, "running as root, and there is no non-root '%s' user to run PostgreSQL as", name);
		return -1;
	}
	return become_user(as, pw, err, errlen);
}

int run_as_owner_of(struct run_as *as, const char *path, char *err, size_t errlen)
{
	struct passwd *pw;
	struct stat st;

	memset(as, 0, sizeof(*as));
	as->uid = geteuid();
	as->gid = getegid();
	if (lstat(path, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (as->uid != 0 || st.st_uid == 0)
		return 0;
	pw = getpwuid(st.st_uid);
	if (!pw) {
		as->drop = true;
		as->uid = st.st_uid;
		as->gid = st.st_gid;
		return 0;
	}
	return become_user(as, pw, err, errlen);
}

void run_as_free(struct run_as *as)
{
	free(as->groups);
	as->groups = NULL;
	as->n_groups = 0;
}

int run_as_become(const struct run_as *as)
{
	if (!as->drop)
		return 0;
	if (setgroups((size_t)as->n_groups, as->groups) != 0 || setgid(as->gid) != 0 || setuid(as->uid) != 0)
		return -1;
	return 0;
}

int run_as_call(const struct run_as *as, int (*fn)(void *arg), void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(run_as_become(as) == 0 ? fn(arg) & 0xff : 126);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
