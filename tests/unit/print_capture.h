/* The unit tests' way to look at a printer's output: the report printed into a string. */
#ifndef CLAIMBENCH_PRINT_CAPTURE_H
#define CLAIMBENCH_PRINT_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "model/result.h"

/* Calls print on r and returns its output as a string the caller frees; NULL when print failed. */
static inline char *print_to_string(int (*print)(FILE *, const struct invocation_result *), const struct invocation_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return NULL;
	rc = print(f, r);
	fclose(f);
	if (rc < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

#endif
