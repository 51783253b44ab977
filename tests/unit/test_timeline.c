/*
 * A run's timeline (model/timeline.c): --phase items parsed and refused, the arrivals and
 * their due instants phase by phase; the per-phase figures' arithmetic on a hand-made 100 ms
 * series and samples (measure/timeline_figures.c): throughput median and p10 over whole
 * seconds, depth, errors, arrivals, recovery; expectations that name a phase (analysis/expect.c).
 */
#include <string.h>

#include "analysis/expect.h"
#include "check.h"
#include "measure/timeline_figures.h"
#include "model/timeline.h"

/* Parses text into a fresh timeline; 0 or -1, err filled. */
static int parse(const char *text, struct timeline *tl, char *err, size_t errlen)
{
	memset(tl, 0, sizeof(*tl));
	err[0] = '\0';
	return timeline_parse(text, tl, err, errlen);
}

static void test_parse(void)
{
	struct timeline tl;
	char err[512], text[256];
	static const struct {
		const char *text;	/* the --phase value */
		const char *says;	/* what its error must contain */
	} bad[] = {
		{ "sleepy:10s", "unknown kind" },
		{ "clean", "a duration expected" },
		{ "clean:", "a duration such as" },
		{ "clean:10", "needs a unit" },
		{ "clean:10x", "needs a unit" },
		{ "clean:0s", "above 0" },
		{ "clean:25h", "at most 24h" },
		{ "clean:-1s", "a duration such as" },
		{ "load:2s", "a duration expected" },
		{ "load:0:2s", "above 0" },
		{ "load:101:2s", "at most 100" },
		{ "active-readers:0:1s", "from 1 to 16" },
		{ "active-readers:17:1s", "from 1 to 16" },
		{ "active-readers:1.5:1s", "from 1 to 16" },
		{ "idle-in-tx:3:1s", "takes no argument" },
		{ "clean:1s,,clean:1s", "an empty item" },
	};

	CHECK(parse("warmup:500ms, clean:2s,load:1.5:1m,idle-in-tx:2s,held-snapshot:1s,active-readers:4:1s,vacuum:1s,"
		    "recovery:1h", &tl, err, sizeof(err)) == 0 && tl.n == 8, "every kind parses (%s, %zu phases)", err, tl.n);
	CHECK(tl.steps[0].kind == TIMELINE_WARMUP && tl.steps[0].duration_s == 0.5, "500ms is 0.5 s (%g)",
	      tl.steps[0].duration_s);
	CHECK(tl.steps[2].kind == TIMELINE_LOAD && tl.steps[2].arg == 1.5 && tl.steps[2].duration_s == 60,
	      "load:1.5:1m: factor 1.5 for 60 s (%g, %g)", tl.steps[2].arg, tl.steps[2].duration_s);
	CHECK(tl.steps[5].arg == 4 && tl.steps[7].duration_s == 3600, "active-readers:4, recovery 1h (%g, %g)",
	      tl.steps[5].arg, tl.steps[7].duration_s);
	CHECK(timeline_total_s(&tl) == 0.5 + 2 + 60 + 2 + 1 + 1 + 1 + 3600 && timeline_warmup_s(&tl) == 0.5,
	      "total %g s, warm-up %g s", timeline_total_s(&tl), timeline_warmup_s(&tl));
	timeline_format(&tl, text, sizeof(text));
	CHECK(strncmp(text, "warmup:500ms,clean:2000ms,load:1.5:60000ms", 42) == 0, "formatted back: %s", text);
	CHECK(parse("load:1.23456789:1234567ms", &tl, err, sizeof(err)) == 0, "a factor of nine digits parses (%s)", err);
	timeline_format(&tl, text, sizeof(text));
	CHECK(strcmp(text, "load:1.23456789:1234567ms") == 0, "and is formatted back whole, not to six digits: %s", text);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(parse(bad[i].text, &tl, err, sizeof(err)) < 0 && strstr(err, bad[i].says),
		      "\"%s\" refused saying \"%s\": %s", bad[i].text, bad[i].says, err);
}

static void test_arrivals(void)
{
	struct timeline tl;
	char err[256];

	parse("clean:2s,load:2:1s,recovery:1s", &tl, err, sizeof(err));
	CHECK_EQ(timeline_arrivals(&tl, 10), 20 + 20 + 10, "10/s: 20 in clean, 20 in load:2's second, 10 after");
	CHECK_EQ(timeline_due_ns(&tl, 10, 0), 0, "the first arrival at the start");
	CHECK_EQ(timeline_due_ns(&tl, 10, 19), 1900000000, "the 20th at 1.9 s, clean's rate");
	CHECK_EQ(timeline_due_ns(&tl, 10, 20), 2000000000, "the 21st at 2 s, load's start");
	CHECK_EQ(timeline_due_ns(&tl, 10, 21), 2050000000, "then every 50 ms: twice the rate");
	CHECK_EQ(timeline_due_ns(&tl, 10, 40), 3000000000, "the 41st at 3 s, recovery's start");
	CHECK_EQ(timeline_due_ns(&tl, 10, 41), 3100000000, "then every 100 ms again");
}

/* A phase of kind from start_s to end_s, its figures to come. */
static struct timeline_phase phase(enum timeline_kind kind, double start_s, double end_s)
{
	return (struct timeline_phase){ .kind = kind, .start_ns = (int64_t)(start_s * 1e9), .end_ns = (int64_t)(end_s * 1e9) };
}

/*
 * 10 s of 100 ms buckets: 10 completions a bucket (100/s) in 0-4 s, 3 a bucket (30/s) in
 * 4-6 s, none at 6-6.5 s, 10 a bucket after; one second of 4-6 s has 5 a bucket instead. The
 * depth rises 1 a bucket from 4 s; an error at 4.5 s; 8 arrivals a bucket.
 */
static void test_series(void)
{
	struct series_point s[100];
	struct timeline_phase p[3] = {
		phase(TIMELINE_CLEAN, 0, 4), phase(TIMELINE_IDLE_IN_TX, 4, 6), phase(TIMELINE_RECOVERY, 6, 10),
	};

	for (size_t b = 0; b < 100; b++) {
		s[b] = (struct series_point){ .t_ms = (int64_t)b * 100, .completed = b < 40 ? 10 : b < 50 ? 5 : b < 60 ? 3 : b < 65 ? 0 : 10,
					      .enqueued = 8, .backlog = b < 40 ? 2 : 2 + (b - 39), .errors = b == 45 };
	}
	for (size_t i = 0; i < 3; i++)
		CHECK(timeline_series_figures(s, 100, &p[i]) == 0, "phase %zu's figures", i);
	CHECK(p[0].throughput_median == 100 && p[0].throughput_p10 == 100, "clean: 100/s every second (%g, %g)",
	      p[0].throughput_median, p[0].throughput_p10);
	CHECK(p[1].throughput_median == 40 && p[1].throughput_p10 == 30,
	      "idle-in-tx: seconds of 50 and 30: median 40, p10 30 (%g, %g)", p[1].throughput_median, p[1].throughput_p10);
	CHECK(p[2].throughput_median == 100 && p[2].throughput_p10 == 50,
	      "recovery: 50 then 100, 100, 100: median 100, p10 50 (%g, %g)", p[2].throughput_median, p[2].throughput_p10);
	CHECK(p[1].depth_start == 3 && p[1].depth_end == 22 && p[1].depth_max == 22,
	      "idle-in-tx's depth: 3 at its first bucket, 22 at its last, most 22 (%lld, %lld, %lld)",
	      (long long)p[1].depth_start, (long long)p[1].depth_end, (long long)p[1].depth_max);
	CHECK(p[0].errors == 0 && p[1].errors == 1 && p[1].arrivals == 160 && p[1].completed == 80,
	      "idle-in-tx: 1 error, 160 arrivals, 80 completions (%lld, %lld, %lld)", (long long)p[1].errors,
	      (long long)p[1].arrivals, (long long)p[1].completed);
	timeline_recoveries(s, 100, p, 3);
	CHECK(isnan(p[0].recovery_s) && isnan(p[1].recovery_s), "no pressure before clean or idle-in-tx: no recovery");
	CHECK_NEAR(p[2].recovery_s, 0.3, 1e-9,
		   "from 6 s, the first 1 s window within 20 %% of 100/s (80 completions, 2 empty buckets and 8 of 10) "
		   "starts at 6.3 s: 0.3 s (%g)", p[2].recovery_s);
	for (size_t b = 60; b < 100; b++)
		s[b].completed = 5;
	timeline_recoveries(s, 100, p, 3);
	CHECK(isinf(p[2].recovery_s), "50/s to the end: not recovered (%g)", p[2].recovery_s);
	p[0].kind = TIMELINE_RECOVERY;
	timeline_recoveries(s, 100, p, 3);
	CHECK(isnan(p[2].recovery_s), "no clean phase to recover to: unknown (%g)", p[2].recovery_s);
}

/* Short phases and samples: a phase under a second, and the samples' dead tuples and ages. */
static void test_short_and_samples(void)
{
	struct series_point s[10];
	struct timeline_phase p[2] = { phase(TIMELINE_CLEAN, 0, 0.5), phase(TIMELINE_IDLE_IN_TX, 0.5, 1) };
	struct server_sample sm[] = {
		{ .t_ms = 100, .dead_tuples = 5, .xmin_age = 2 }, { .t_ms = 400, .dead_tuples = 9, .xmin_age = 3 },
		{ .t_ms = 600, .dead_tuples = 20, .xmin_age = 50 }, { .t_ms = 900, .dead_tuples = SAMPLE_UNKNOWN, .xmin_age = 90 },
	};

	for (size_t b = 0; b < 10; b++)
		s[b] = (struct series_point){ .t_ms = (int64_t)b * 100, .completed = b < 5 ? 2 : 1 };
	timeline_series_figures(s, 10, &p[0]);
	CHECK(p[0].throughput_median == 20, "under a second: its completions over its length, 10 in 0.5 s (%g)",
	      p[0].throughput_median);
	timeline_sample_figures(sm, 4, p, 2);
	CHECK(p[0].dead_start == 5 && p[0].dead_end == 9 && p[0].xmin_age_max == 3,
	      "clean's samples: dead 5 to 9, oldest age 3 (%lld, %lld, %lld)", (long long)p[0].dead_start,
	      (long long)p[0].dead_end, (long long)p[0].xmin_age_max);
	CHECK(p[1].dead_start == 20 && p[1].dead_end == 20 && p[1].xmin_age_max == 90,
	      "idle-in-tx's: dead 20 (the unknown last one skipped), oldest age 90 (%lld, %lld, %lld)",
	      (long long)p[1].dead_start, (long long)p[1].dead_end, (long long)p[1].xmin_age_max);
}

/*
 * Each phase's vacuums and autovacuums: the rise of the samples' cumulative counts from the
 * last sample before it (its first, when none) to its last, unknown samples skipped.
 */
static void test_vacuum_counts(void)
{
	struct timeline_phase p[5] = { phase(TIMELINE_CLEAN, 0, 0.5), phase(TIMELINE_VACUUM, 0.5, 1),
				       phase(TIMELINE_IDLE_IN_TX, 1, 1.3), phase(TIMELINE_RECOVERY, 1.3, 2),
				       phase(TIMELINE_CLEAN, 2, 3) };
	struct server_sample sm[] = {
		{ .t_ms = 100, .vacuums = 3, .autovacuums = 1 }, { .t_ms = 400, .vacuums = 3, .autovacuums = 1 },
		{ .t_ms = 600, .vacuums = 5, .autovacuums = 2 }, { .t_ms = 900, .vacuums = 6, .autovacuums = 2 },
		{ .t_ms = 1200, .vacuums = SAMPLE_UNKNOWN, .autovacuums = SAMPLE_UNKNOWN },
		{ .t_ms = 1500, .vacuums = 8, .autovacuums = 4 },
	};

	timeline_sample_figures(sm, 6, p, 5);
	CHECK(p[0].vacuums == 0 && p[0].autovacuums == 0,
	      "the first phase, no sample before it: from its first sample (3, 1) to its last (3, 1): 0 and 0 (%lld, %lld)",
	      (long long)p[0].vacuums, (long long)p[0].autovacuums);
	CHECK(p[1].vacuums == 3 && p[1].autovacuums == 1,
	      "from the sample before it (3, 1) to its last (6, 2): 3 vacuums, 1 autovacuum (%lld, %lld)",
	      (long long)p[1].vacuums, (long long)p[1].autovacuums);
	CHECK(p[2].vacuums == TIMELINE_UNKNOWN && p[2].autovacuums == TIMELINE_UNKNOWN,
	      "a phase whose only sample read no count: unknown (%lld, %lld)", (long long)p[2].vacuums,
	      (long long)p[2].autovacuums);
	CHECK(p[3].vacuums == 2 && p[3].autovacuums == 2,
	      "the unknown sample before it skipped: from 900 ms's (6, 2) to its last (8, 4): 2 and 2 (%lld, %lld)",
	      (long long)p[3].vacuums, (long long)p[3].autovacuums);
	CHECK(p[4].vacuums == TIMELINE_UNKNOWN, "a phase with no sample in its span: unknown (%lld)",
	      (long long)p[4].vacuums);
}

/* A sample on the boundary of two phases ends the first and begins the second: the rises add up. */
static void test_vacuum_boundary(void)
{
	struct timeline_phase p[2] = { phase(TIMELINE_CLEAN, 0, 0.5), phase(TIMELINE_VACUUM, 0.5, 1) };
	struct server_sample sm[] = {
		{ .t_ms = 100, .vacuums = 1, .autovacuums = 0 }, { .t_ms = 500, .vacuums = 3, .autovacuums = 0 },
		{ .t_ms = 900, .vacuums = 4, .autovacuums = 0 },
	};

	timeline_sample_figures(sm, 3, p, 2);
	CHECK(p[0].vacuums == 2 && p[1].vacuums == 1,
	      "the 500 ms sample ends the first phase (1 to 3: 2) and begins the second (3 to 4: 1), not both's "
	      "(%lld, %lld)", (long long)p[0].vacuums, (long long)p[1].vacuums);
	CHECK_EQ(p[0].vacuums + p[1].vacuums, (int64_t)3, "the phases' vacuums add up to the samples' rise, 1 to 4");
}

/* Parses text as an expectation and evaluates it over runs; the verdict in *pass. 0, -1 (parse), -2 (eval). */
static int judge(const char *text, const struct run_result *runs, size_t n, bool *pass, char *err, size_t errlen)
{
	struct expectation e;
	double lhs, rhs;
	int rc = 0;

	if (expect_parse("x", text, &e, err, errlen) < 0)
		return -1;
	if (expect_eval(&e, runs, n, &lhs, &rhs, pass, err, errlen) < 0)
		rc = -2;
	expect_free(&e);
	return rc;
}

static void test_expectations(void)
{
	struct timeline_phase p[2] = { phase(TIMELINE_CLEAN, 0, 2), phase(TIMELINE_IDLE_IN_TX, 2, 4) };
	struct run_result r = { .strategy = "skip-locked", .claim_mode = "hold", .workers = 2, .timeline = p, .n_timeline = 2 };
	char err[1024];
	bool pass = false;

	snprintf(p[0].name, sizeof(p[0].name), "clean");
	snprintf(p[1].name, sizeof(p[1].name), "idle-in-tx");
	p[0].throughput_median = 100;
	p[1].throughput_median = 40;
	CHECK(judge("skip-locked.phase[idle-in-tx].throughput_median / skip-locked.phase[clean].throughput_median >= 0.3",
		    &r, 1, &pass, err, sizeof(err)) == 0 && pass, "40/100 >= 0.3 passes (%s)", err);
	CHECK(judge("skip-locked.phase[idle-in-tx].throughput_median / skip-locked.phase[clean].throughput_median >= 0.5",
		    &r, 1, &pass, err, sizeof(err)) == 0 && !pass, "40/100 >= 0.5 fails (%s)", err);
	CHECK(judge("skip-locked.phase[vacuum].throughput_median > 0", &r, 1, &pass, err, sizeof(err)) == -2 &&
	      strstr(err, "no run matches skip-locked.phase[vacuum].throughput_median"), "a phase no run has: %s", err);
	CHECK(judge("skip-locked.phase[clean].speed > 0", &r, 1, &pass, err, sizeof(err)) == -1 &&
	      strstr(err, "unknown phase field \"speed\"") && strstr(err, "throughput_p10"), "an unknown field: %s", err);
	CHECK(judge("skip-locked.phase[clean.throughput_median > 0", &r, 1, &pass, err, sizeof(err)) == -1 &&
	      strstr(err, "phase[NAME].FIELD"), "an unclosed phase[: %s", err);
	CHECK(judge("skip-locked.phase[].throughput_median > 0", &r, 1, &pass, err, sizeof(err)) == -1 &&
	      strstr(err, "phase[NAME].FIELD"), "an empty phase name: %s", err);
}

/* Phase names, and expectations checked against the timelines before anything runs. */
static void test_names_and_checks(void)
{
	struct timeline tl;
	struct expect_target targets[] = { { "skip-locked", "a", &tl }, { "for-update", "b", NULL } };
	struct expectation e;
	char err[512], name[40];

	parse("clean:1s,idle-in-tx:1s,clean:1s", &tl, err, sizeof(err));
	timeline_phase_name(&tl, 2, name, sizeof(name));
	CHECK_STR_EQ(name, "clean-2", "the second clean phase's name");
	CHECK(timeline_has_phase(&tl, "idle-in-tx") && timeline_has_phase(&tl, "clean-2") && !timeline_has_phase(&tl, "clean-3"),
	      "the timeline has idle-in-tx and clean-2, not clean-3");
	expect_parse("x", "skip-locked.phase[clean-2].throughput_median > 0", &e, err, sizeof(err));
	CHECK(expect_check(&e, targets, 2, err, sizeof(err)) == 0, "a phase the timeline has passes the check (%s)", err);
	expect_free(&e);
	expect_parse("x", "skip-locked.phase[vacuum].throughput_median > 0", &e, err, sizeof(err));
	CHECK(expect_check(&e, targets, 2, err, sizeof(err)) < 0 && strstr(err, "phase[vacuum]: no timeline"),
	      "a phase it lacks is refused before anything runs: %s", err);
	expect_free(&e);
	expect_parse("x", "for-update[b].phase[clean].errors == 0", &e, err, sizeof(err));
	CHECK(expect_check(&e, targets, 2, err, sizeof(err)) < 0 && strstr(err, "for-update in [b]"),
	      "a phase of a section without a timeline is refused: %s", err);
	expect_free(&e);
}

int main(void)
{
	test_parse();
	test_arrivals();
	test_series();
	test_short_and_samples();
	test_vacuum_counts();
	test_vacuum_boundary();
	test_expectations();
	test_names_and_checks();
	return check_exit_status();
}
