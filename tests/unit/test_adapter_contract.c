/*
 * Unit tests of the adapter contract's parsers (docs/adapters.md): every line kind and each
 * malformed form of a line refused with what was expected; a manifest read whole, and each
 * fault of one refused with its file:line and what was expected there; tables and schemas
 * not the run's own refused.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "temp_file.h"
#include "adapter/contract_line.h"
#include "adapter/manifest.h"

/* Checks that line parses as kind with the job, attempt, worker and adapter time given. */
static void check_execution(const char *line, enum adapter_line_kind kind, int64_t job, int64_t attempt, int32_t worker,
			    int64_t us)
{
	struct adapter_line l = { 0 };
	char expected[512] = "";
	int rc = adapter_line_parse(line, &l, expected, sizeof(expected));

	CHECK(rc == 0 && l.kind == kind && l.job == job && l.attempt == attempt && l.worker == worker &&
	      l.adapter_us == us, "\"%s\" parses (kind %d job %lld attempt %lld worker %d us %lld; %s)", line, (int)l.kind,
	      (long long)l.job, (long long)l.attempt, l.worker, (long long)l.adapter_us, expected);
}

/* Checks that line is refused, what was expected starting with want. */
static void check_refused(const char *line, const char *want)
{
	struct adapter_line l;
	char expected[512] = "";
	int rc = adapter_line_parse(line, &l, expected, sizeof(expected));

	CHECK(rc == -1 && strncmp(expected, want, strlen(want)) == 0, "\"%s\" refused: expected %s (got rc %d, \"%s\")",
	      line, want, rc, expected);
}

/* Every kind of line, and the malformed ones. */
static void test_lines(void)
{
	struct adapter_line l = { 0 };
	char expected[512];

	check_execution("claimed 1 1 0", LINE_CLAIMED, 1, 1, 0, -1);
	check_execution("started 7 2 3 1700000000000000", LINE_STARTED, 7, 2, 3, 1700000000000000);
	check_execution("finished 200 1 9 5", LINE_FINISHED, 200, 1, 9, 5);
	check_execution("failed 3 4 0", LINE_FAILED, 3, 4, 0, -1);
	check_execution("lost 12 1 2 1700000000000001", LINE_LOST, 12, 1, 2, 1700000000000001);
	CHECK(adapter_line_parse("ready", &l, expected, sizeof(expected)) == 0 && l.kind == LINE_READY, "ready parses");
	CHECK(adapter_line_parse("stopped", &l, expected, sizeof(expected)) == 0 && l.kind == LINE_STOPPED,
	      "stopped parses");
	CHECK(adapter_line_parse("enqueued 200", &l, expected, sizeof(expected)) == 0 && l.kind == LINE_ENQUEUED &&
	      l.count == 200, "enqueued 200 parses (count %lld)", (long long)l.count);
	CHECK(adapter_line_parse("error 2 deadlock detected", &l, expected, sizeof(expected)) == 0 &&
	      l.kind == LINE_ERROR && l.worker == 2 && strcmp(l.text, "deadlock detected") == 0,
	      "an error line keeps its worker and text (worker %d)", l.worker);
	check_refused("finished 1 one 0", "\"finished JOB ATTEMPT WORKER [MICROSECONDS]\"");
	check_refused("lost 12", "\"lost JOB ATTEMPT WORKER [MICROSECONDS]\"");
	check_refused("claimed 0 1 0", "\"claimed JOB");
	check_refused("claimed 1 0 0", "\"claimed JOB");
	check_refused("claimed 1 1", "\"claimed JOB");
	check_refused("claimed 1 1 -1", "\"claimed JOB");
	check_refused("claimed 1 1 0 5 6", "\"claimed JOB");
	check_refused("claimed 1 1 0x", "\"claimed JOB");
	check_refused("claimed 99999999999999999999 1 0", "\"claimed JOB");
	check_refused("claimed 1 1 2147483648", "\"claimed JOB");
	check_refused("enqueued", "\"enqueued N\"");
	check_refused("enqueued 5 6", "\"enqueued N\"");
	check_refused("error 1", "\"error WORKER TEXT\"");
	check_refused("", "one of ready, enqueued, claimed");
	check_refused("Claimed 1 1 0", "one of ready, enqueued, claimed");
	check_refused("ready now", "one of ready, enqueued, claimed");
	check_refused("{\"event\":\"claimed\"}", "one of ready, enqueued, claimed");
}

/* The reference adapter's manifest as a text with one line changed (its index) or none (-1). */
static const char *const good_manifest[] = {
	"# a comment", "[adapter]", "contract = 1", "name = fake", "system = Fake Queue", "version = 1.2.3",
	"engines = postgresql, mariadb", "claim_mode = flip", "command = fake.sh", "runtime = bash",
	"args = --fast --quiet", "tables = {queue}_jobs, {queue}_archive", "state_table = {queue}_jobs",
	"job_column = (data->>'id')::bigint", "state_column = state", "done_states = completed, archived",
	"failed_states = failed", "active_states = active",
};
#define N_LINES (sizeof(good_manifest) / sizeof(good_manifest[0]))

/* Writes the manifest with line `at` replaced by with (NULL: left out; at -1: none) and parses it into m. */
static int parse_with(int at, const char *with, struct adapter_manifest *m, char *err, size_t errlen,
		      const char **path)
{
	char text[4096] = "";

	for (size_t i = 0; i < N_LINES; i++) {
		const char *line = (int)i == at ? with : good_manifest[i];

		if (line) {
			strcat(text, line);
			strcat(text, "\n");
		}
	}
	memset(m, 0, sizeof(*m));
	*path = temp_file_write("adapter", text);
	return adapter_manifest_parse(*path, m, err, errlen);
}

/* Checks that the manifest with line at (0-based) replaced by with is refused at want_line with want. */
static void check_manifest_refused(int at, const char *with, int want_line, const char *want)
{
	struct adapter_manifest m;
	char err[1024] = "", prefix[512];
	const char *path;
	int rc = parse_with(at, with, &m, err, sizeof(err), &path);

	snprintf(prefix, sizeof(prefix), "%s:%d: %s", path, want_line, want);
	CHECK(rc == -1 && strncmp(err, prefix, strlen(prefix)) == 0, "line %d \"%s\" refused: %s (got \"%s\")", at + 1,
	      with ? with : "(left out)", prefix, err);
	unlink(path);
}

/* A manifest read whole, and each fault refused where it is. */
static void test_manifest(void)
{
	struct adapter_manifest m;
	char err[1024] = "";
	const char *path;
	int rc = parse_with(-1, NULL, &m, err, sizeof(err), &path);

	CHECK(rc == 0, "the whole manifest parses (%s)", err);
	CHECK_STR_EQ(m.system, "Fake Queue", "system");
	CHECK_STR_EQ(m.version, "1.2.3", "version");
	CHECK_STR_EQ(m.job_column, "(data->>'id')::bigint", "job_column kept whole");
	CHECK_STR_EQ(m.args, "--fast --quiet", "args");
	CHECK_EQ(m.engines, (unsigned)(1u << 0 | 1u << 2), "engines: postgresql and mariadb");
	CHECK_EQ((int)m.claim_mode, (int)MODE_FLIP, "claim_mode flip");
	CHECK(!m.absent_done, "absent_state left out: a job with no row is lost (absent_done %d)", m.absent_done);
	unlink(path);
	rc = parse_with(17, "active_states = active\nabsent_state = done", &m, err, sizeof(err), &path);
	CHECK(rc == 0 && m.absent_done, "absent_state = done is read (%s; absent_done %d)", err, m.absent_done);
	unlink(path);
	check_manifest_refused(17, "absent_state = deleted", 18, "absent_state: expected missing or done; got \"deleted\"");
	check_manifest_refused(2, "contract = 2", 3, "contract: this claimbench speaks contract version 1; got \"2\"");
	check_manifest_refused(6, "engines = postgresql, oracle", 7, "engines: expected backends' names (postgresql, sqlite, mariadb)");
	check_manifest_refused(6, "engines =", 7, "engines: expected at least one");
	check_manifest_refused(7, "claim_mode = lease", 8, "claim_mode: expected hold or flip; got \"lease\"");
	check_manifest_refused(9, "runtime node", 10, "expected KEY = VALUE, got \"runtime node\"");
	check_manifest_refused(9, "colour = blue", 10, "unknown key \"colour\"; expected one of: contract, name");
	check_manifest_refused(9, "name = again", 10, "name: given twice");
	check_manifest_refused(1, "[queue]", 2, "expected the one section [adapter], got \"[queue]\"");
	check_manifest_refused(1, "# no section", 3, "expected [adapter] before any key");
	check_manifest_refused(14, NULL, 17, "expected the key state_column, which every manifest gives");
	check_manifest_refused(9, "needs = 0123456789012345678901234567890123456789012345678901234567890123456789"
				  "0123456789012345678901234567890123456789012345678901234567890123456789"
				  "0123456789012345678901234567890123456789012345678901234567890123456789"
				  "01234567890123456789012345678901234567890123456789", 10,
			       "needs: expected at most 255 characters");
}

/* Tables and schemas a run would drop must be the run's own: each names {queue}. */
static void test_own_names(void)
{
	struct adapter_manifest m;
	char err[1024] = "", want[512];
	const char *path;
	int rc = parse_with(11, "tables = {queue}_jobs\nschemas = public", &m, err, sizeof(err), &path);

	snprintf(want, sizeof(want), "%s: schemas: expected each schema to name {queue} (the run's own), got \"public\"",
		 path);
	CHECK(rc == -1 && strcmp(err, want) == 0, "a schema not naming {queue} is refused (got \"%s\")", err);
	unlink(path);
	rc = parse_with(11, "tables = {queue}_jobs, audit_log", &m, err, sizeof(err), &path);
	snprintf(want, sizeof(want), "%s: tables: expected each table to name {queue} (the run's own), got \"audit_log\"",
		 path);
	CHECK(rc == -1 && strcmp(err, want) == 0, "a table not naming {queue} is refused (got \"%s\")", err);
	unlink(path);
	rc = parse_with(11, "tables = {queue}_jobs\nschemas = \"{queue}\"\nrequires = node_modules/x", &m, err,
			sizeof(err), &path);
	CHECK(rc == 0 && strcmp(m.schemas, "\"{queue}\"") == 0 && strcmp(m.requires, "node_modules/x") == 0,
	      "schemas and requires are read (%s; schemas %s, requires %s)", err, m.schemas, m.requires);
	unlink(path);
	rc = parse_with(11, "schemas = \"{queue}\"", &m, err, sizeof(err), &path);
	CHECK(rc == 0 && m.tables[0] == '\0', "schemas without tables: its schemas hold its tables (%s; tables \"%s\")",
	      err, m.tables);
	unlink(path);
	rc = parse_with(11, "schemas = \"{queue}\"\ncleanup = SELECT pgq.drop_queue('{queue}', true)", &m, err,
			sizeof(err), &path);
	CHECK(rc == 0 && strcmp(m.cleanup, "SELECT pgq.drop_queue('{queue}', true)") == 0, "cleanup is read (%s; %s)",
	      err, m.cleanup);
	unlink(path);
	rc = parse_with(11, "schemas = \"{queue}\"\ncleanup = SELECT pgq.drop_queue('shared', true)", &m, err,
			sizeof(err), &path);
	snprintf(want, sizeof(want), "%s: cleanup: expected SQL naming {queue} (the run's own), got \"SELECT "
		 "pgq.drop_queue('shared', true)\"", path);
	CHECK(rc == -1 && strcmp(err, want) == 0, "a cleanup not naming {queue} is refused (got \"%s\")", err);
	unlink(path);
	rc = parse_with(11, NULL, &m, err, sizeof(err), &path);
	snprintf(want, sizeof(want), "%s: expected tables or schemas (or both): what a run makes, dropped after it", path);
	CHECK(rc == -1 && strcmp(err, want) == 0, "neither tables nor schemas is refused (got \"%s\")", err);
	unlink(path);
}

/* A runtime is found on PATH by its name, or taken as the absolute path it names. */
static void test_runtime(void)
{
	struct adapter_manifest m = { 0 };
	char out[256] = "";

	snprintf(m.runtime, sizeof(m.runtime), "/bin/sh");
	CHECK(adapter_runtime_path(&m, out, sizeof(out)) == 0 && strcmp(out, "/bin/sh") == 0,
	      "an absolute runtime is its path (%s)", out);
	snprintf(m.runtime, sizeof(m.runtime), "/nonexistent/python3");
	CHECK(adapter_runtime_path(&m, out, sizeof(out)) == -1, "an absolute runtime that is not there is not found");
	snprintf(m.runtime, sizeof(m.runtime), "bin/sh");
	CHECK(adapter_runtime_path(&m, out, sizeof(out)) == -1, "a relative path is no runtime");
	snprintf(m.runtime, sizeof(m.runtime), "sh");
	CHECK(adapter_runtime_path(&m, out, sizeof(out)) == 0 && strstr(out, "/sh") != NULL, "a name is found on PATH (%s)",
	      out);
}

/* {queue} is replaced wherever it stands, and a result that does not fit is refused. */
static void test_expand(void)
{
	char out[64];

	CHECK(adapter_expand("\"{queue}_jobs\"", "q1", out, sizeof(out)) == 0 && strcmp(out, "\"q1_jobs\"") == 0,
	      "{queue} replaced (%s)", out);
	CHECK(adapter_expand("{queue}.{queue}", "ab", out, sizeof(out)) == 0 && strcmp(out, "ab.ab") == 0,
	      "every {queue} replaced (%s)", out);
	CHECK(adapter_expand("{queue}_jobs", "0123456789", out, 12) == -1, "a result too long is refused");
}

int main(void)
{
	test_lines();
	test_manifest();
	test_own_names();
	test_expand();
	test_runtime();
	return check_exit_status();
}
