/*
 * libFuzzer target: any bytes as a result store (an SQLite file; stores travel as CI
 * artifacts) read by `claimbench history`, `show RUN`, `show inv:N`, `export` and
 * `compare`, through their command functions. Each must answer with what the store holds
 * or an error, never crash, hang or leak. The file lies in a folder of its own, where a
 * store an older claimbench wrote may be migrated and leave -wal and -shm files, removed
 * before each input. Built and run by scripts/fuzz, with the commands' stdout and stderr
 * closed (-close_fd_mask=3).
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The store's path, in a folder made at the first input; "" when it could not be made. */
static char store_path[4096];

/* The folder store_path is in. */
static char store_dir[4096];

/* Removes the store's folder and what is in it (atexit). */
static void remove_folder(void)
{
	static const char *const files[] = { "store.db", "store.db-wal", "store.db-shm", "store.db-journal" };
	char path[4200];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", store_dir, files[i]);
		unlink(path);
	}
	rmdir(store_dir);
}

/* Makes the folder of the store once, in $TMPDIR (else /tmp). Whether store_path names a usable place. */
static int ready_folder(void)
{
	const char *tmp = getenv("TMPDIR");

	if (store_path[0])
		return 1;
	snprintf(store_dir, sizeof(store_dir), "%s/claimbench-fuzz-store-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(store_dir))
		return 0;
	atexit(remove_folder);
	snprintf(store_path, sizeof(store_path), "%s/store.db", store_dir);
	return 1;
}

/* Removes the store and the files SQLite may have left beside it, then writes data as the store. 0 or -1. */
static int write_store(const uint8_t *data, size_t size)
{
	static const char *const beside[] = { "", "-wal", "-shm", "-journal" };
	char path[4200];
	int fd, rc = 0;

	for (size_t i = 0; i < sizeof(beside) / sizeof(beside[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", store_path, beside[i]);
		unlink(path);
	}
	fd = open(store_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size)
		rc = -1;
	close(fd);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *history[] = { "history", "--results", store_path, NULL };
	char *show_run[] = { "show", "1", "--results", store_path, NULL };
	char *show_inv[] = { "show", "inv:1", "--results", store_path, NULL };
	char *export[] = { "export", "2", "--format", "json", "--results", store_path, NULL };
	char *compare[] = { "compare", "1", "2", "--results", store_path, NULL };
	char *compare_last[] = { "compare", "--last", "--results", store_path, NULL };

	if (!ready_folder() || write_store(data, size) < 0)
		return 0;
	cmd_history(3, history);
	cmd_show(4, show_run);
	cmd_show(4, show_inv);
	cmd_export(6, export);
	cmd_compare(5, compare);
	cmd_compare(4, compare_last);
	return 0;
}
