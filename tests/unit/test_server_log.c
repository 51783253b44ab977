/*
 * Unit tests of the throwaway servers' logs (db/server_programs.c): server_log_first quotes
 * the first error line of the start that failed, read from where that start began writing
 * to a log its earlier starts wrote too (a restart's failure named by its own cause, not by
 * the first start's), from the log's beginning when it is shorter than that; and
 * server_log_reason's last error line when no line holds the marker.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "db/server_programs.h"

/* Appends text to dir/name. */
static void append_log(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "a");
	check_need(f != NULL, "opening the log");
	fputs(text, f);
	fclose(f);
}

int main(void)
{
	char dir[] = "/tmp/claimbench-test-server-log-XXXXXX", path[512], line[128] = "";
	const char *first = "2026-12-01 [Note] starting\n2026-12-01 [ERROR] a cause of the first start's\n"
			    "2026-12-01 [ERROR] Aborting\n";
	off_t restart_at = (off_t)strlen(first);

	check_need(mkdtemp(dir) != NULL, "mkdtemp");
	append_log(dir, "server.log", first);
	append_log(dir, "server.log", "2026-12-01 [Note] starting again\n2026-12-01 [ERROR] Can't open the tmpdir\n"
				      "2026-12-01 [ERROR] Aborting\n");

	CHECK(server_log_first(dir, "server.log", restart_at, "[ERROR]", line, sizeof(line)), "the restart's log read");
	CHECK_STR_EQ(line, "2026-12-01 [ERROR] Can't open the tmpdir",
		     "a restart's failure quotes its own first error, not the first start's");
	CHECK(server_log_first(dir, "server.log", 0, "[ERROR]", line, sizeof(line)), "the whole log read");
	CHECK_STR_EQ(line, "2026-12-01 [ERROR] a cause of the first start's", "from byte 0: the log's first error");
	CHECK(server_log_first(dir, "server.log", 1 << 20, "[ERROR]", line, sizeof(line)), "a log shorter than from");
	CHECK_STR_EQ(line, "2026-12-01 [ERROR] a cause of the first start's",
		     "a log shorter than the start point (made anew): read from its beginning");
	CHECK(server_log_first(dir, "server.log", restart_at, "[FATAL]", line, sizeof(line)), "no line holds the marker");
	CHECK_STR_EQ(line, "2026-12-01 [ERROR] Aborting", "no line holds the marker: the last error line");
	CHECK(!server_log_first(dir, "absent.log", 0, "[ERROR]", line, sizeof(line)), "no log: nothing quoted");

	snprintf(path, sizeof(path), "%s/server.log", dir);
	unlink(path);
	rmdir(dir);
	return check_exit_status();
}
