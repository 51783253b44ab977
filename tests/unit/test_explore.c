/*
 * Unit tests of explore's pieces that need no server: the trace text (written, read back,
 * bad tokens refused), the expectations' parser and verdicts, and the scheduler's grants
 * with two threads standing for workers (one step at a time, in the order granted; a plain
 * BEGIN folded; a worker past its step budget bounding the schedule; a crash; a worker's
 * look at the queue waiting for the others to settle).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "base/clock.h"
#include "check.h"
#include "explore/explore_options.h"

/* A trace through the text and back. */
static void test_trace_round_trip(void)
{
	struct trace t;
	char err[128] = "", text[256];

	CHECK(trace_parse("0.1.1.c0.e.1", &t, err, sizeof(err)) == 0 && t.n == 6, "trace 0.1.1.c0.e.1 is read (%s)",
	      err);
	CHECK(t.at[3].kind == CHOICE_CRASH && t.at[3].worker == 0 && t.at[4].kind == CHOICE_EXPIRE &&
		      t.at[5].kind == CHOICE_STEP && t.at[5].worker == 1,
	      "its choices are a crash of worker 0, an expiry, a step of worker 1");
	trace_format(&t, text, sizeof(text));
	CHECK_STR_EQ(text, "0.1.1.c0.e.1", "written back the same (%s)", text);
}

/* Bad traces are refused with the choice named. */
static void test_trace_refused(void)
{
	static const char *const bad[] = { "", "0..1", "0.x", "0.1.", "c", "12", "e1" };
	struct trace t;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[128] = "";

		CHECK(trace_parse(bad[i], &t, err, sizeof(err)) < 0 && *err, "trace \"%s\" is refused: %s", bad[i], err);
	}
}

/* Expectations parse, and hold or fail on a result. */
static void test_expect(void)
{
	struct explore_expect e;
	struct explore_result r = { .strategy = "naive", .mode = "flip", .explored = 10, .violating = 3 };
	char err[256] = "";
	FILE *sink = fopen("/dev/null", "w");

	check_need(sink != NULL, "opening /dev/null");
	r.with[FINDING_DUPLICATE] = 3;
	CHECK(explore_expect_parse("duplicate > 0", &e, err, sizeof(err)) == 0 && explore_expect_holds(&e, &r, sink),
	      "duplicate > 0 holds with 3 duplicate schedules (%s)", err);
	CHECK(explore_expect_parse("violation==0", &e, err, sizeof(err)) == 0 && !explore_expect_holds(&e, &r, sink),
	      "violation==0 fails with 3 violating schedules");
	CHECK(explore_expect_parse("schedules >= 10", &e, err, sizeof(err)) == 0 && explore_expect_holds(&e, &r, sink),
	      "schedules >= 10 holds");
	CHECK(explore_expect_parse("duplicates == 0", &e, err, sizeof(err)) < 0 && strstr(err, "unknown kind"),
	      "an unknown kind is refused: %s", err);
	CHECK(explore_expect_parse("lost = 0", &e, err, sizeof(err)) < 0 && strstr(err, "KIND OP NUMBER"),
	      "a bad comparison is refused: %s", err);
	CHECK(explore_expect_parse("lost == 0 x", &e, err, sizeof(err)) < 0, "trailing text is refused");
	fclose(sink);
}

/* A worker standing in for a real one: the statements it sends, each stopped at the scheduler. */
struct fake_worker {
	struct scheduler *s;		/* the scheduler */
	int seat;			/* its seat */
	const char *const *steps;	/* its statements, NULL-terminated */
	int crashed;			/* statements that came back crashed */
	long long in_server_ns;		/* how long each statement runs in the "server" */
	atomic_int returned;		/* statements that returned */
};

/* A fake worker's thread: sends its statements one by one through the scheduler, then finishes. */
static void *fake_main(void *arg)
{
	struct fake_worker *f = arg;

	for (const char *const *p = f->steps; *p; p++) {
		if (scheduler_step_begin(f->s, f->seat, *p) == STEP_CRASHED) {
			f->crashed++;
			continue;
		}
		clock_sleep_ns(f->in_server_ns);
		atomic_fetch_add(&f->returned, 1);
		scheduler_step_end(f->s, f->seat, "ok");
	}
	scheduler_seat_finished(f->s, f->seat);
	return NULL;
}

/* No statement of these fake workers blocks. */
static int never_blocked(void *ctx, int pid)
{
	(void)ctx;
	(void)pid;
	return 0;
}

/* The fake workers have no connection to abandon. */
static void no_abandon(void *ctx, int seat)
{
	(void)ctx;
	(void)seat;
}

/* Starts the two fake workers of f on s. */
static void start_fakes(struct scheduler *s, struct fake_worker *f, pthread_t *t)
{
	scheduler_begin(s);
	for (int i = 0; i < 2; i++)
		check_need(pthread_create(&t[i], NULL, fake_main, &f[i]) == 0, "starting a thread");
}

/* Two workers granted in the order 1, 0, 0, 1: the events come in that order, the BEGIN folded. */
static void test_scheduler_order(void)
{
	static const char *const a[] = { "BEGIN", "SELECT a1", "COMMIT", NULL };
	static const char *const b[] = { "SELECT b1", "SELECT b2", NULL };
	struct scheduler s;
	struct fake_worker f[2] = { { &s, 0, a, 0, 0, 0 }, { &s, 1, b, 0, 0, 0 } };
	pthread_t t[2];
	int order[] = { 1, 0, 0, 1 };

	check_need(scheduler_init(&s, 2, 10) == 0, "scheduler_init");
	start_fakes(&s, f, t);
	for (int i = 0; i < 4; i++) {
		CHECK(scheduler_settle(&s, never_blocked, NULL, 2000000000LL) == 0 && s.seats[order[i]].state == SEAT_WAITING,
		      "settled with worker %d waiting at its next statement", order[i]);
		scheduler_grant(&s, order[i]);
	}
	CHECK(scheduler_settle(&s, never_blocked, NULL, 2000000000LL) == 0 && s.seats[0].state == SEAT_FINISHED &&
		      s.seats[1].state == SEAT_FINISHED,
	      "both workers finished");
	scheduler_release(&s);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK(s.n_events == 5 && s.events[0].kind == EVENT_FOLDED && strcmp(s.events[1].statement, "SELECT b1") == 0 &&
		      strcmp(s.events[2].statement, "SELECT a1") == 0 && strcmp(s.events[3].statement, "COMMIT") == 0 &&
		      strcmp(s.events[4].statement, "SELECT b2") == 0 && s.events[4].returned,
	      "the events: BEGIN folded, then b1, a1, COMMIT, b2 as granted (%zu events)", s.n_events);
	scheduler_free(&s);
}

/* A worker that reaches its step budget bounds the schedule: every statement then passes. */
static void test_scheduler_bound(void)
{
	static const char *const a[] = { "S1", "S2", "S3", NULL };
	static const char *const b[] = { NULL };
	struct scheduler s;
	struct fake_worker f[2] = { { &s, 0, a, 0, 0, 0 }, { &s, 1, b, 0, 0, 0 } };
	pthread_t t[2];

	check_need(scheduler_init(&s, 2, 1) == 0, "scheduler_init");
	start_fakes(&s, f, t);
	scheduler_settle(&s, never_blocked, NULL, 2000000000LL);
	scheduler_grant(&s, 0);
	CHECK(scheduler_settle(&s, never_blocked, NULL, 2000000000LL) == 0 && s.bounded && s.released,
	      "a second statement past a budget of 1 bounds the schedule");
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	scheduler_free(&s);
}

/* A crashed worker sends nothing more; its statements fail once the schedule is released. */
static void test_scheduler_crash(void)
{
	static const char *const a[] = { "S1", "S2", "S3", NULL };
	static const char *const b[] = { "T1", NULL };
	struct scheduler s;
	struct fake_worker f[2] = { { &s, 0, a, 0, 0, 0 }, { &s, 1, b, 0, 0, 0 } };
	pthread_t t[2];

	check_need(scheduler_init(&s, 2, 10) == 0, "scheduler_init");
	start_fakes(&s, f, t);
	scheduler_settle(&s, never_blocked, NULL, 2000000000LL);
	scheduler_grant(&s, 0);
	scheduler_settle(&s, never_blocked, NULL, 2000000000LL);
	scheduler_crash(&s, 0, no_abandon, NULL);
	scheduler_grant(&s, 1);
	CHECK(scheduler_settle(&s, never_blocked, NULL, 2000000000LL) == 0 && s.seats[0].state == SEAT_CRASHED &&
		      s.seats[1].state == SEAT_FINISHED,
	      "after worker 0's crash worker 1 goes on to its end");
	scheduler_release(&s);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK(f[0].crashed == 2 && s.n_events == 3 && s.events[1].kind == EVENT_CRASH &&
		      strcmp(s.events[1].statement, "S2") == 0,
	      "the crash is noted before S2, and S2 and S3 came back crashed (%d)", f[0].crashed);
	scheduler_free(&s);
}

/* A prober's thread: seat 0 waits for the others to settle, as a worker's look at the queue does. */
static void *probe_main(void *arg)
{
	struct scheduler *s = arg;
	int rc = scheduler_settle_others(s, 0, never_blocked, NULL, 2000000000LL);

	scheduler_probe_done(s, 0);
	return rc == 0 ? s : NULL;
}

/*
 * A worker's look at the queue waits until no other worker's statement runs in the server
 * unblocked; two workers looking at once do not wait on each other.
 */
static void test_scheduler_probe_settled(void)
{
	static const char *const a[] = { NULL };
	static const char *const b[] = { "UPDATE b1", NULL };
	struct scheduler s;
	struct fake_worker f[2] = { { &s, 0, a, 0, 0, 0 }, { &s, 1, b, 0, 200000000LL, 0 } };
	pthread_t t[2], prober;
	void *probed = NULL;

	check_need(scheduler_init(&s, 3, 10) == 0, "scheduler_init");
	start_fakes(&s, f, t);
	pthread_mutex_lock(&s.lock);
	s.seats[2].state = SEAT_FINISHED;
	pthread_mutex_unlock(&s.lock);
	scheduler_settle(&s, never_blocked, NULL, 2000000000LL);
	pthread_mutex_lock(&s.lock);
	s.seats[2].state = SEAT_RUNNING;
	pthread_mutex_unlock(&s.lock);
	scheduler_grant(&s, 1);
	CHECK(scheduler_settle_others(&s, 2, never_blocked, NULL, 2000000000LL) == 0 && atomic_load(&f[1].returned) == 1,
	      "the look came only once worker 1's statement had returned");
	check_need(pthread_create(&prober, NULL, probe_main, &s) == 0, "starting a thread");
	pthread_join(prober, &probed);
	CHECK_EQ(probed, &s, "a second worker looks while the first is probing");
	scheduler_probe_done(&s, 2);
	scheduler_release(&s);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	scheduler_free(&s);
}

int main(void)
{
	test_trace_round_trip();
	test_trace_refused();
	test_expect();
	test_scheduler_order();
	test_scheduler_bound();
	test_scheduler_crash();
	test_scheduler_probe_settled();
	return check_exit_status();
}
