/*
 * The timeline's fault phases (model/timeline.c): crash-workers,
 * kill-backends, restart-server and pool-exhaustion parsed, formatted back and refused with
 * their ranges; the faults each has due from its start (a share of the workers rounded up,
 * a rate's kills one every 1/RATE s); their recovery measured; each phase's faults counted
 * from the fault records in its span (measure/timeline_figures.c); their fields named.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "measure/timeline_figures.h"
#include "model/faults.h"
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
	static const struct {
		const char *text;	/* a bad item */
		const char *says;	/* what its message must say */
	} bad[] = {
		{ "crash-workers:0:1s", "N workers from 1 to 1024, or a share of them above 0 and at most 100%" },
		{ "crash-workers:1.5:1s", "got \"1.5\"" },
		{ "crash-workers:101%:1s", "got \"101%\"" },
		{ "crash-workers:1s", "a duration expected (crash-workers:N:DURATION, such as crash-workers:2:10s)" },
		{ "kill-backends:0:1s", "RATE server sessions terminated per second, above 0 and at most 100" },
		{ "kill-backends:101:1s", "got \"101\"" },
		{ "restart-server:1:1s", "restart-server takes no argument" },
		{ "pool-exhaustion:1001:1s", "N idle connections from 1 to 1000" },
		{ "pool-exhaustion:-3:1s", "got \"-3\"" },
		{ "burst:2:1s", "pool-exhaustion:N" },
	};
	struct timeline tl;
	char err[512], text[512];

	CHECK(parse("crash-workers:2:1s,crash-workers:25%:2s,kill-backends:2.5:4s,restart-server:3s,pool-exhaustion:150:1s",
		    &tl, err, sizeof(err)) == 0 && tl.n == 5, "the four fault kinds parse (%s)", err);
	CHECK(tl.steps[0].kind == TIMELINE_CRASH_WORKERS && tl.steps[0].arg == 2 && !tl.steps[0].arg_share,
	      "crash-workers:2: two workers (%g, share %d)", tl.steps[0].arg, tl.steps[0].arg_share);
	CHECK(tl.steps[1].arg == 25 && tl.steps[1].arg_share, "crash-workers:25%%: a share of 25 (%g, share %d)",
	      tl.steps[1].arg, tl.steps[1].arg_share);
	CHECK(tl.steps[2].kind == TIMELINE_KILL_BACKENDS && tl.steps[2].arg == 2.5 &&
	      tl.steps[3].kind == TIMELINE_RESTART_SERVER && tl.steps[4].kind == TIMELINE_POOL_EXHAUSTION &&
	      tl.steps[4].arg == 150, "kill-backends:2.5, restart-server, pool-exhaustion:150 (%g, %g)", tl.steps[2].arg,
	      tl.steps[4].arg);
	timeline_format(&tl, text, sizeof(text));
	CHECK(strcmp(text, "crash-workers:2:1000ms,crash-workers:25%:2000ms,kill-backends:2.5:4000ms,restart-server:3000ms,"
			   "pool-exhaustion:150:1000ms") == 0, "formatted back, the share with its %%: %s", text);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(parse(bad[i].text, &tl, err, sizeof(err)) < 0 && strstr(err, bad[i].says),
		      "\"%s\" refused saying \"%s\" (%s)", bad[i].text, bad[i].says, err);
	CHECK(timeline_is_pressure(TIMELINE_CRASH_WORKERS) && timeline_is_pressure(TIMELINE_KILL_BACKENDS) &&
	      timeline_is_pressure(TIMELINE_RESTART_SERVER) && timeline_is_pressure(TIMELINE_POOL_EXHAUSTION) &&
	      !timeline_is_pressure(TIMELINE_RECOVERY), "the fault kinds are pressure: the phase after them recovers");
}

static void test_due(void)
{
	struct timeline_step crash = { .kind = TIMELINE_CRASH_WORKERS, .arg = 3, .duration_s = 1 };
	struct timeline_step share = { .kind = TIMELINE_CRASH_WORKERS, .arg = 25, .arg_share = true, .duration_s = 1 };
	struct timeline_step kill = { .kind = TIMELINE_KILL_BACKENDS, .arg = 4, .duration_s = 2 };
	struct timeline_step slow = { .kind = TIMELINE_KILL_BACKENDS, .arg = 0.3, .duration_s = 2 };
	struct timeline_step restart = { .kind = TIMELINE_RESTART_SERVER, .duration_s = 1 };
	struct timeline_step pool = { .kind = TIMELINE_POOL_EXHAUSTION, .arg = 5, .duration_s = 1 };

	CHECK(timeline_faults_due(&crash, 8, 0) == 3 && timeline_faults_due(&crash, 8, -0.1) == 0,
	      "crash-workers:3: three at its start, none before (%ld)", timeline_faults_due(&crash, 8, 0));
	CHECK(timeline_faults_due(&share, 8, 0) == 2 && timeline_faults_due(&share, 9, 0) == 3 &&
	      timeline_faults_due(&share, 2, 0) == 1, "25%% of 8, 9, 2 workers: 2, 3 (rounded up), 1 (%ld %ld %ld)",
	      timeline_faults_due(&share, 8, 0), timeline_faults_due(&share, 9, 0), timeline_faults_due(&share, 2, 0));
	CHECK(timeline_faults_due(&kill, 4, 0) == 1 && timeline_faults_due(&kill, 4, 0.24) == 1 &&
	      timeline_faults_due(&kill, 4, 0.25) == 2 && timeline_faults_due(&kill, 4, 1.9) == 8 &&
	      timeline_faults_due(&kill, 4, 5) == 8, "kill-backends:4 for 2 s: one at once, one every 0.25 s, 8 in all");
	CHECK(timeline_faults_due(&slow, 4, 1.9) == 1, "kill-backends:0.3 for 2 s: ceil(0.6) = 1 (%ld)",
	      timeline_faults_due(&slow, 4, 1.9));
	CHECK(timeline_faults_due(&restart, 4, 0) == 1 && timeline_faults_due(&pool, 4, 0) == 0,
	      "restart-server: one; pool-exhaustion strikes no fault");
	CHECK(timeline_fault_kind(TIMELINE_CRASH_WORKERS) == FAULT_CRASH &&
	      timeline_fault_kind(TIMELINE_KILL_BACKENDS) == FAULT_KILL_BACKEND &&
	      timeline_fault_kind(TIMELINE_RESTART_SERVER) == FAULT_RESTART &&
	      timeline_fault_kind(TIMELINE_POOL_EXHAUSTION) == -1, "each fault phase strikes with its fault kind");
}

static void test_counts_and_fields(void)
{
	struct fault_record faults[] = {
		{ .at_ns = 500000000, .kind = FAULT_CRASH },
		{ .at_ns = 1000000000, .kind = FAULT_KILL_BACKEND },
		{ .at_ns = 1999999999, .kind = FAULT_KILL_BACKEND },
		{ .at_ns = 2000000000, .kind = FAULT_RESTART },
	};
	struct ledger l = { .faults = faults, .n_faults = 4 };
	struct timeline_phase p[2] = {
		{ .kind = TIMELINE_CLEAN, .start_ns = 0, .end_ns = 1000000000 },
		{ .kind = TIMELINE_KILL_BACKENDS, .start_ns = 1000000000, .end_ns = 2000000000, .pool_held = 7,
		  .pool_refused = TIMELINE_UNKNOWN },
	};
	double v;

	timeline_fault_counts(&l, p, 2);
	CHECK(p[0].faults == 1 && p[1].faults == 2, "faults counted in [start, end): 1 and 2 (%lld, %lld)",
	      (long long)p[0].faults, (long long)p[1].faults);
	CHECK(timeline_field(&p[1], "faults", &v) == 0 && v == 2, "the field faults (%g)", v);
	CHECK(timeline_field(&p[1], "pool_held", &v) == 0 && v == 7, "the field pool_held (%g)", v);
	CHECK(timeline_field(&p[1], "pool_refused", &v) == 0 && isnan(v), "pool_refused unknown: not a number (%g)", v);
}

int main(void)
{
	test_parse();
	test_due();
	test_counts_and_fields();
	return check_exit_status();
}
