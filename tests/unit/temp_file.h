/* The unit tests' temporary files: text written to /tmp under a name of the test's own. */
#ifndef CLAIMBENCH_TEMP_FILE_H
#define CLAIMBENCH_TEMP_FILE_H

#include <stdio.h>
#include <unistd.h>

/* Writes text to /tmp/claimbench-test-PID-NAME.ini and returns its path (a static buffer, overwritten by the next call). */
static inline const char *temp_file_write(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/claimbench-test-%ld-%s.ini", (long)getpid(), name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

#endif
