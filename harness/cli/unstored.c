/* The file that keeps what the result store refused; see unstored.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/unstored.h"

FILE *unstored_open(char *path, size_t len)
{
	const char *dir = getenv("TMPDIR");
	FILE *f;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, len, "%s/claimbench-unstored-XXXXXX.json", dir);
	fd = mkstemps(path, 5);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "claimbench: nor could they be written to %s: %s; they are only in the output above\n",
			dir, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

bool unstored_close(FILE *f, const char *path)
{
	if (fclose(f) != 0) {
		fprintf(stderr, "claimbench: writing %s failed: %s\n", path, strerror(errno));
		return false;
	}
	return true;
}
