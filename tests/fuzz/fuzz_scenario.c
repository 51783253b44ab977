/*
 * libFuzzer target: any bytes as a scenario file given to `claimbench run --scenario`,
 * through the whole invocation parser (INI reading, keys, sweeps, expectations). It must
 * answer with a run or a usage error, never crash or leak. Built and run by scripts/fuzz.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/invocation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run_invocation inv;
	static int fd = -1;
	char path[64], err[1024];
	char *argv[] = { "run", "--scenario", path, NULL };

	if (fd < 0)
		fd = memfd_create("scenario.ini", 0);
	if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	invocation_parse(command_options, COMMAND_RUN, NULL, 3, argv, &inv, err, sizeof(err));
	invocation_free(&inv);
	return 0;
}
