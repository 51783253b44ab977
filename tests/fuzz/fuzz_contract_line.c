/*
 * libFuzzer target: any bytes as one line an adapter writes (docs/adapters.md's contract),
 * parsed in place; every parse that succeeds must give a kind of line and, for an
 * execution's, the numbers in their ranges. Built and run by scripts/fuzz.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/contract_line.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct adapter_line l;
	char *line = malloc(size + 1), expected[512];

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	if (adapter_line_parse(line, &l, expected, sizeof(expected)) == 0 && l.kind >= LINE_CLAIMED &&
	    l.kind <= LINE_LOST && (l.job < 1 || l.attempt < 1 || l.worker < 0))
		abort(); /* an execution's line out of its ranges was taken */
	free(line);
	return 0;
}
