/*
 * Unit tests of the owner notes (db/ownership.c): a process's own note names when it
 * started, it stays alive by that note however its memory grows, a dead or reused pid is
 * not alive, notes round-trip through their text while malformed ones are refused, and a
 * note marks only the table it was written for (its name and oid), never one it lists.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "db/ownership.h"

/* This process's note: its pid, and a start within seconds of now (the test has just begun). */
static void test_self(void)
{
	struct owner self;
	time_t now = time(NULL);

	owner_self(&self);
	CHECK_EQ(self.pid, (long)getpid(), "the note names this process (%ld)", self.pid);
	CHECK(self.started <= now && self.started >= now - 30, "it started at most 30 s ago (%lld s ago)",
	      (long long)(now - self.started));
	CHECK(self.host[0] != '\0' && self.table[0] == '\0' && self.oid == 0,
	      "it names the host (%s) and no table", self.host);
	CHECK(owner_alive(&self), "a running process is alive by its own note");
}

/* The note stays true while the process grows: nothing in it depends on the memory in use. */
static void test_alive_after_growth(void)
{
	struct owner self;
	size_t size = 64u << 20;
	char *grown;

	owner_self(&self);
	grown = malloc(size);
	check_need(grown != NULL, "allocating 64 MB");
	memset(grown, 1, size);
	CHECK(owner_alive(&self), "still alive after it allocated and touched 64 MB");
	free(grown);
}

/* A process that has exited is not alive; a live pid that started at another time is another process. */
static void test_dead_and_reused(void)
{
	struct owner self, child, reused;
	pid_t pid = fork();

	check_need(pid >= 0, "fork");
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	owner_self(&self);
	child = self;
	child.pid = (long)pid;
	CHECK(!owner_alive(&child), "a process that exited is not alive (pid %ld)", child.pid);
	reused = self;
	reused.started -= 3600;
	CHECK(!owner_alive(&reused), "a live pid that started an hour after the note is another process");
}

/* A note of one table reads back as written; notes claimbench did not write are refused. */
static void test_round_trip(void)
{
	struct owner o = { .pid = 4242, .host = "build-1.example", .started = 1700000000, .table = "app_jobs",
			   .oid = 16384 }, back;
	char note[512];

	owner_format(&o, note, sizeof(note));
	CHECK_STR_EQ(note, "claimbench run: pid 4242 on build-1.example started 1700000000; table app_jobs oid 16384", "the note's text (%s)", note);
	CHECK(owner_parse(note, &back) == 0 && back.pid == 4242 && back.started == 1700000000 &&
	      strcmp(back.host, "build-1.example") == 0 && strcmp(back.table, "app_jobs") == 0 && back.oid == 16384 &&
	      !back.listing, "it reads back as written");
	o.oid = 0;
	owner_format(&o, note, sizeof(note));
	CHECK(strcmp(note, "claimbench run: pid 4242 on build-1.example started 1700000000; table app_jobs") == 0 &&
	      owner_parse(note, &back) == 0 && back.oid == 0 && strcmp(back.table, "app_jobs") == 0,
	      "an SQLite table's note has no oid (%s)", note);
	CHECK(owner_parse("claimbench run: pid 7 on h started 5", &back) == 0 && back.table[0] == '\0',
	      "a directory's note, of no table, reads");
	CHECK(owner_parse("some other comment", &back) < 0, "a comment claimbench did not write is no note");
	CHECK(owner_parse("claimbench run: pid 0 on h started 5", &back) < 0, "pid 0 is refused");
	CHECK(owner_parse("claimbench run: pid 7 on h started 5 and more", &back) < 0, "trailing text is refused");
	CHECK(owner_parse("claimbench run: pid 7 on h started 5; table ", &back) < 0, "a table without a name is refused");
	CHECK(owner_parse("claimbench run: pid 7 on h started 5; table a b", &back) < 0,
	      "a second table after the first is refused");
	CHECK(owner_parse("claimbench run: pid 7 on h started 5; table a oid 0", &back) < 0, "oid 0 is refused");
	CHECK(owner_parse("claimbench run: pid 7 on h started 5; table a oid 5x", &back) < 0,
	      "text after the oid is refused");
	CHECK(owner_parse("claimbench run: pid 7 on h started 5; table a oid 123456789012345678901234567890", &back) < 0,
	      "an oid of 30 digits (beyond any unsigned long long) is refused as malformed");
	CHECK(owner_parse("claimbench run: pid 7 on h started 5; table a oid 18446744073709551615", &back) == 0 &&
	      back.oid == 18446744073709551615ULL, "the largest unsigned long long is an oid still");
}

/*
 * What a note marks: the one table it names, with that table's oid; an older claimbench's
 * list of tables (a decoy: a note on decoy listing payroll) marks nothing.
 */
static void test_marks(void)
{
	struct owner o;

	check_need(owner_parse("claimbench run: pid 9 on h started 5; table app_jobs oid 300", &o) == 0, "a note");
	CHECK(owner_marks(&o, "app_jobs", 300), "a note marks the table it names, with its oid");
	CHECK(!owner_marks(&o, "app_jobs", 301), "not a table of that name with another oid (a copy, a restore)");
	CHECK(!owner_marks(&o, "decoy", 300), "not a table of another name (the note copied or the table renamed)");
	check_need(owner_parse("claimbench run: pid 9 on h started 5; table app_jobs", &o) == 0, "an SQLite note");
	CHECK(owner_marks(&o, "app_jobs", 0), "an SQLite note marks its table, which has no oid");
	CHECK(!owner_marks(&o, "app_jobs", 300), "a note without an oid marks no PostgreSQL table");
	check_need(owner_parse("claimbench run: pid 4000000 on h started 0; tables payroll", &o) == 0,
		   "an older note with a list of tables reads");
	CHECK(o.listing && !owner_marks(&o, "payroll", 0) && !owner_marks(&o, "decoy", 0),
	      "a list of tables marks neither a table it lists nor the table that carries it");
	check_need(owner_parse("claimbench run: pid 9 on h started 5", &o) == 0, "a directory's note");
	CHECK(!owner_marks(&o, "app_jobs", 0), "a note of no table marks no table");
}

int main(void)
{
	test_self();
	test_alive_after_growth();
	test_dead_and_reused();
	test_round_trip();
	test_marks();
	return check_exit_status();
}
