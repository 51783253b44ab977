/*
 * Unit tests of the owner notes (db/ownership.c): a process's own note names when it
 * started, it stays alive by that note however its memory grows, a dead or reused pid is
 * not alive, and notes round-trip through their text while malformed ones are refused.
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
	CHECK(self.pid == (long)getpid(), "the note names this process (%ld)", self.pid);
	CHECK(self.started <= now && self.started >= now - 30, "it started at most 30 s ago (%lld s ago)",
	      (long long)(now - self.started));
	CHECK(self.host[0] != '\0' && self.n_tables == 0, "it names the host (%s) and no tables yet", self.host);
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

/* A note with tables reads back as written; notes claimbench did not write are refused. */
static void test_round_trip(void)
{
	struct owner o = { .pid = 4242, .host = "build-1.example", .started = 1700000000, .n_tables = 2 }, back;
	char note[512];

	strcpy(o.tables[0], "claimbench_4242_jobs");
	strcpy(o.tables[1], "claimbench_4242_tickets");
	owner_format(&o, note, sizeof(note));
	CHECK(strcmp(note, "claimbench run: pid 4242 on build-1.example started 1700000000; tables "
		     "claimbench_4242_jobs claimbench_4242_tickets") == 0, "the note's text (%s)", note);
	CHECK(owner_parse(note, &back) == 0 && back.pid == 4242 && back.started == 1700000000 &&
	      strcmp(back.host, "build-1.example") == 0 && back.n_tables == 2 &&
	      strcmp(back.tables[1], "claimbench_4242_tickets") == 0, "it reads back as written");
	CHECK(owner_parse("claimbench run: pid 7 on h started 5", &back) == 0 && back.n_tables == 0,
	      "a note without tables reads");
	CHECK(owner_parse("some other comment", &back) < 0, "a comment claimbench did not write is no note");
	CHECK(owner_parse("claimbench run: pid 0 on h started 5", &back) < 0, "pid 0 is refused");
	CHECK(owner_parse("claimbench run: pid 7 on h started 5 and more", &back) < 0, "trailing text is refused");
	CHECK(owner_parse("claimbench run: pid 7 on h started 5; tables ", &back) == 0 && back.n_tables == 0,
	      "an empty table list reads as none");
}

int main(void)
{
	test_self();
	test_alive_after_growth();
	test_dead_and_reused();
	test_round_trip();
	return check_exit_status();
}
