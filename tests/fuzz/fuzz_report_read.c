/*
 * libFuzzer target: any bytes as a JSON file given to `claimbench compare`, through the
 * reader of the output contract (output/results_read.h). It must answer with the runs or an
 * error naming the file and member, never crash or leak. Built and run by scripts/fuzz.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "output/results_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct results_file f;
	char path[64], err[1024];

	if (fd < 0)
		fd = memfd_create("results.json", 0);
	if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	results_file_read(path, &f, err, sizeof(err));
	results_file_free(&f);
	return 0;
}
