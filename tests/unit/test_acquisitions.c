/*
 * Unit tests of measure/acquisitions.c: the figures of a guarded-resource run and its
 * holders over time, on hand-made ledgers whose answers were worked out by hand (the
 * comments show how), and a pseudo-random ledger checked against the definitions
 * applied pair by pair.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "measure/acquisitions.h"
#include "model/metric_table.h"

#define MS(x) ((int64_t)(x) * 1000000)
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* One acquisition of resource in mode: asked at start_ms, granted at grant_ms, released at release_ms (-1: none). */
static struct acquisition acq(int32_t resource, uint8_t mode, int64_t start_ms, int64_t grant_ms, int64_t release_ms,
			      uint8_t outcome)
{
	return (struct acquisition){
		.start_ns = MS(start_ms),
		.grant_ns = grant_ms < 0 ? -1 : MS(grant_ms),
		.release_ns = release_ms < 0 ? -1 : MS(release_ms),
		.resource = resource,
		.polls = 1,
		.mode = mode,
		.role = ROLE_USER,
		.outcome = outcome,
	};
}

/* A granted holding of resource in mode over [grant_ms, release_ms), asked at grant_ms. */
static struct acquisition held(int32_t resource, uint8_t mode, int64_t grant_ms, int64_t release_ms)
{
	return acq(resource, mode, grant_ms, grant_ms, release_ms, ACQ_GRANTED);
}

/* The same with a ticket. */
static struct acquisition ticketed(int32_t resource, uint8_t mode, int64_t ticket, int64_t grant_ms)
{
	struct acquisition a = held(resource, mode, grant_ms, grant_ms + 1);

	a.ticket = ticket;
	return a;
}

/* The figures of the n acquisitions a with limit X, stale interval stale_ms and duration duration_ms. */
static struct guard_figures figures(const struct acquisition *a, size_t n, int limit, int64_t stale_ms,
				    int64_t duration_ms)
{
	struct acquisitions_input in = {
		.acqs = a, .n = n, .resources = 4, .limit = limit, .stale_ns = MS(stale_ms), .duration_ns = MS(duration_ms),
	};
	struct guard_figures f;

	check_need(acquisitions_figures(&in, &f) == 0, "acquisitions_figures");
	return f;
}

/*
 * Exclusive holders back to back on resource 0: [0, 10) then [10, 20). At 10 the release
 * is taken before the grant, so the second meets no holder: 0 violations, at most 1 at
 * once. One on resource 1 over [5, 15) overlaps both in time but not in resource.
 */
static void test_back_to_back(void)
{
	struct acquisition a[] = {
		held(0, ACQ_EXCLUSIVE, 0, 10), held(0, ACQ_EXCLUSIVE, 10, 20), held(1, ACQ_EXCLUSIVE, 5, 15),
	};
	struct guard_figures f = figures(a, COUNT(a), 1, 0, 100);

	CHECK_EQ(f.violations, 0, "back to back: no violation (%llu)", (unsigned long long)f.violations);
	CHECK(f.max_holders == 1 && f.max_exclusive == 1 && f.max_shared == 0,
	      "back to back: one holder at most, exclusive (%llu, %llu, %llu)", (unsigned long long)f.max_holders,
	      (unsigned long long)f.max_exclusive, (unsigned long long)f.max_shared);
	CHECK_EQ(f.grants, 3, "back to back: three grants");
}

/* Exclusive [0, 10) and [5, 15) on one resource: the second meets the first. 1 violation, 2 at once. */
static void test_overlap(void)
{
	struct acquisition a[] = { held(0, ACQ_EXCLUSIVE, 0, 10), held(0, ACQ_EXCLUSIVE, 5, 15) };
	struct guard_figures f = figures(a, COUNT(a), 1, 0, 100);

	CHECK(f.violations == 1 && f.max_holders == 2 && f.max_exclusive == 2,
	      "overlapping exclusive holders: 1 violation, 2 at once (%llu, %llu, %llu)",
	      (unsigned long long)f.violations, (unsigned long long)f.max_holders, (unsigned long long)f.max_exclusive);
}

/*
 * Readers [0, 30), [5, 25), [10, 20): three at once from 10 to 20, no conflict. A writer
 * granted at 15 (to 40) meets the three readers: 1 violation, 4 holders at once. A reader
 * granted at 35 meets the writer: a second violation.
 */
static void test_readers_and_writer(void)
{
	struct acquisition a[] = {
		held(0, ACQ_SHARED, 0, 30), held(0, ACQ_SHARED, 5, 25), held(0, ACQ_SHARED, 10, 20),
		held(0, ACQ_EXCLUSIVE, 15, 40), held(0, ACQ_SHARED, 35, 45),
	};
	struct guard_figures f = figures(a, 3, 1, 0, 100);

	CHECK(f.max_shared == 3 && f.max_holders == 3 && f.violations == 0,
	      "three readers at once: max_shared 3, no violation (%llu, %llu)", (unsigned long long)f.max_shared,
	      (unsigned long long)f.violations);
	f = figures(a, 4, 1, 0, 100);
	CHECK(f.violations == 1 && f.max_holders == 4 && f.max_exclusive == 1 && f.max_shared == 3,
	      "a writer among three readers: 1 violation, 4 holders (%llu, %llu)", (unsigned long long)f.violations,
	      (unsigned long long)f.max_holders);
	f = figures(a, 5, 1, 0, 100);
	CHECK_EQ(f.violations, 2, "a reader granted while the writer holds: a second violation (%llu)",
	      (unsigned long long)f.violations);
}

/*
 * Top-X: limited [0, 30), [5, 30), [10, 20); an exclusive [40, 50) and a limited granted
 * at 45. X = 2: the third limited makes 3 > 2 (1), the limited at 45 meets the exclusive
 * (1): 2. X = 3: the third fits, 1.
 */
static void test_limited(void)
{
	struct acquisition a[] = {
		held(0, ACQ_LIMITED, 0, 30), held(0, ACQ_LIMITED, 5, 30), held(0, ACQ_LIMITED, 10, 20),
		held(0, ACQ_EXCLUSIVE, 40, 50), held(0, ACQ_LIMITED, 45, 55),
	};
	struct guard_figures f = figures(a, COUNT(a), 2, 0, 100);

	CHECK(f.violations == 2 && f.max_holders == 3, "X = 2: three limited at once and one beside a writer, 2 (%llu, %llu)",
	      (unsigned long long)f.violations, (unsigned long long)f.max_holders);
	f = figures(a, COUNT(a), 3, 0, 100);
	CHECK_EQ(f.violations, 1, "X = 3: only the one beside a writer (%llu)", (unsigned long long)f.violations);
	f = figures(a, 3, 2, 0, 100);
	CHECK_EQ(f.violations, 1, "X = 2, the three limited alone: 1 (%llu)", (unsigned long long)f.violations);
}

/*
 * An abandoned grant at 10, never released, holds to the end: an exclusive granted at 100
 * meets it. An expired acquisition never granted holds nothing; zero-length holdings are
 * judged at their grant but never held.
 */
static void test_abandoned_and_empty(void)
{
	struct acquisition a[] = {
		acq(0, ACQ_EXCLUSIVE, 10, 10, -1, ACQ_ABANDONED), held(0, ACQ_EXCLUSIVE, 100, 110),
		acq(1, ACQ_EXCLUSIVE, 0, -1, 50, ACQ_EXPIRED), held(1, ACQ_EXCLUSIVE, 20, 30),
		held(2, ACQ_EXCLUSIVE, 20, 20), held(2, ACQ_EXCLUSIVE, 10, 30),
	};
	struct guard_figures f = figures(a, COUNT(a), 1, 0, 200);

	/* resource 0: 1; resource 1: 0; resource 2: the empty grant at 20 meets [10, 30): 1 */
	CHECK_EQ(f.violations, 2, "abandoned holds to the end; expired without grant holds nothing; 2 (%llu)",
	      (unsigned long long)f.violations);
	CHECK_EQ(f.max_holders, 2, "the empty holding is never held: 2 at once at most, on resource 0 (%llu)",
	      (unsigned long long)f.max_holders);
	CHECK(f.abandoned == 1 && f.expired == 1 && f.grants == 5,
	      "outcomes: 1 abandoned, 1 expired; 5 granted, the abandoned one too, not the expired one never granted");
}

/*
 * Inversions, each ledger on its own:
 * - exclusive tickets 1, 2 granted at 20, 10: 1;
 * - readers tickets 1, 2 granted at 20, 10: 0 (no conflict);
 * - a reader ticket 1 at 20, a writer ticket 2 at 10: 1;
 * - limited tickets 1, 2 at 20, 10: 1 under X = 1, 0 under X = 2;
 * - equal grants or equal tickets: 0.
 */
static void test_inversion_pairs(void)
{
	struct acquisition excl[] = { ticketed(0, ACQ_EXCLUSIVE, 1, 20), ticketed(0, ACQ_EXCLUSIVE, 2, 10) };
	struct acquisition readers[] = { ticketed(0, ACQ_SHARED, 1, 20), ticketed(0, ACQ_SHARED, 2, 10) };
	struct acquisition mixed[] = { ticketed(0, ACQ_SHARED, 1, 20), ticketed(0, ACQ_EXCLUSIVE, 2, 10) };
	struct acquisition limited[] = { ticketed(0, ACQ_LIMITED, 1, 20), ticketed(0, ACQ_LIMITED, 2, 10) };
	struct acquisition ties[] = {
		ticketed(0, ACQ_EXCLUSIVE, 1, 10), ticketed(0, ACQ_EXCLUSIVE, 2, 10),
		ticketed(1, ACQ_EXCLUSIVE, 3, 30), ticketed(1, ACQ_EXCLUSIVE, 3, 20),
	};

	CHECK_EQ(figures(excl, 2, 1, 0, 100).fifo_inversions, 1, "an exclusive pair granted against its tickets: 1");
	excl[0].ticket = excl[1].ticket = 0;
	CHECK_EQ(figures(excl, 2, 1, 0, 100).fifo_inversions, METRIC_UNKNOWN, "no ticket, no line: unknown");
	excl[0].ticket = 1;
	excl[1].ticket = 2;
	CHECK_EQ(figures(readers, 2, 1, 0, 100).fifo_inversions, 0, "two readers in either order: 0");
	CHECK_EQ(figures(mixed, 2, 1, 0, 100).fifo_inversions, 1, "a writer granted before an earlier reader: 1");
	CHECK_EQ(figures(limited, 2, 1, 0, 100).fifo_inversions, 1, "a limited pair reversed under X = 1: 1");
	CHECK_EQ(figures(limited, 2, 2, 0, 100).fifo_inversions, 0, "a limited pair reversed under X = 2: 0");
	CHECK_EQ(figures(ties, COUNT(ties), 1, 0, 100).fifo_inversions, 0, "equal grants, equal tickets: no inversion");
}

/*
 * Several at once. Resource 0: exclusive tickets 1..5 granted at 50, 10, 40, 20, 30: pairs
 * out of order: 50 before 10, 40, 20, 30 (4); 40 before 20, 30 (2): 6. Resource 1: ticket 6
 * granted at 5, which against resource 0 would add 5: 0. Resource 2: readers tickets 1, 2 at
 * 30, 20 and a writer ticket 3 at 10: the readers' pair does not count, the writer's two
 * do: 2. Ungranted and ticketless acquisitions count in none. 8 in all.
 */
static void test_inversion_count(void)
{
	struct acquisition a[] = {
		ticketed(0, ACQ_EXCLUSIVE, 1, 50), ticketed(0, ACQ_EXCLUSIVE, 2, 10), ticketed(0, ACQ_EXCLUSIVE, 3, 40),
		ticketed(0, ACQ_EXCLUSIVE, 4, 20), ticketed(0, ACQ_EXCLUSIVE, 5, 30), ticketed(1, ACQ_EXCLUSIVE, 6, 5),
		ticketed(2, ACQ_SHARED, 1, 30), ticketed(2, ACQ_SHARED, 2, 20), ticketed(2, ACQ_EXCLUSIVE, 3, 10),
		acq(0, ACQ_EXCLUSIVE, 0, -1, -1, ACQ_TIMEOUT), held(0, ACQ_EXCLUSIVE, 1, 2),
	};

	a[9].ticket = 9;
	CHECK_EQ(figures(a, COUNT(a), 1, 0, 100).fifo_inversions, 8, "6 + 0 + 2 inversions (%llu)",
	      (unsigned long long)figures(a, COUNT(a), 1, 0, 100).fifo_inversions);
}

/*
 * Stale interval 100 ms over 350 ms: periods 350 / 100 + 1 = 4. Refreshes: period 0 one,
 * period 1 three (one of them timed out after writing: still a refresh), period 3 two: 6,
 * duplicates 0 + 2 + 1 = 3, three periods refreshed: 2 per period. Waited skips: two
 * granted users that waited and did not refresh; a writer, a refresher and a timed-out
 * user that waited do not count. Uses: 2 stale, 1 torn.
 */
static void test_refreshes(void)
{
	struct acquisition a[12];
	struct guard_figures f;
	size_t i;

	for (i = 0; i < COUNT(a); i++)
		a[i] = held(0, ACQ_EXCLUSIVE, (int64_t)i * 20, (int64_t)i * 20 + 10);
	a[0].refreshed = 1;
	a[1].refreshed = a[2].refreshed = a[3].refreshed = 1;
	a[1].period = a[2].period = a[3].period = 1;
	a[3].outcome = ACQ_TIMEOUT;
	a[4].refreshed = a[5].refreshed = 1;
	a[4].period = a[5].period = 3;
	a[6].waited = a[7].waited = 1;
	a[8].waited = 1;
	a[8].role = ROLE_WRITER;
	a[5].waited = 1;
	a[9].waited = 1;
	a[9].outcome = ACQ_TIMEOUT;
	a[6].seen = a[7].seen = USE_STALE;
	a[10].seen = USE_TORN;
	a[11].seen = USE_FRESH;
	f = figures(a, COUNT(a), 1, 100, 350);
	CHECK_EQ(f.periods, 4, "periods: 350 / 100 + 1 = 4 (%llu)", (unsigned long long)f.periods);
	CHECK(f.refreshes == 6 && f.duplicate_refreshes == 3, "6 refreshes, 3 beyond one a period (%llu, %llu)",
	      (unsigned long long)f.refreshes, (unsigned long long)f.duplicate_refreshes);
	CHECK_NEAR(f.refreshes_per_period, 2.0, 1e-12, "6 refreshes over 3 refreshed periods: 2 (%g)", f.refreshes_per_period);
	CHECK_EQ(f.waited_skips, 2, "waited skips: the two granted users only (%llu)", (unsigned long long)f.waited_skips);
	CHECK(f.stale_uses == 2 && f.torn_uses == 1, "2 stale uses, 1 torn (%llu, %llu)", (unsigned long long)f.stale_uses,
	      (unsigned long long)f.torn_uses);

	/* without a cache: the refresh figures are unknown; uses are still counted */
	f = figures(a, COUNT(a), 1, 0, 350);
	CHECK(f.periods == METRIC_UNKNOWN && f.refreshes == METRIC_UNKNOWN && f.duplicate_refreshes == METRIC_UNKNOWN &&
	      f.waited_skips == METRIC_UNKNOWN && isnan(f.refreshes_per_period),
	      "stale interval 0: periods, refreshes, duplicates, waited skips and refreshes per period unknown");
	CHECK(f.stale_uses == 2 && f.torn_uses == 1, "stale interval 0: uses known all the same");
	for (i = 0; i < COUNT(a); i++)
		a[i].refreshed = 0;
	f = figures(a, COUNT(a), 1, 100, 350);
	CHECK(f.refreshes == 0 && f.duplicate_refreshes == 0 && isnan(f.refreshes_per_period),
	      "no refresh at all: 0, 0 and refreshes per period unknown");
}

/*
 * Waits: 200 granted acquisitions waiting 1..200 ms. Nearest rank: p50 the 100th (100 ms),
 * p90 the 180th, p99 the 198th, p99.9 the ceil(199.8) = 200th, max 200. A timeout that
 * waited 1000 ms is not a grant. Writers: those waiting 10, 20 and 30 ms: p50 the 2nd
 * (20), p90 the ceil(2.7) = 3rd (30), max 30.
 */
static void test_waits(void)
{
	struct acquisition a[201];
	struct guard_figures f;

	for (int i = 0; i < 200; i++) {
		a[i] = acq(i % 4, ACQ_SHARED, 1000 - (i + 1), 1000, 1100, ACQ_GRANTED);
		if ((i + 1) % 10 == 0 && i < 30)
			a[i].role = ROLE_WRITER;
	}
	a[200] = acq(0, ACQ_SHARED, 0, -1, 1000, ACQ_TIMEOUT);
	f = figures(a, COUNT(a), 1, 0, 2000);
	CHECK(f.wait_ms.p50 == 100 && f.wait_ms.p90 == 180 && f.wait_ms.p99 == 198 && f.wait_ms.p999 == 200 &&
	      f.wait_ms.max == 200, "waits 1..200 ms: 100, 180, 198, 200, max 200 (%g, %g, %g, %g, %g)", f.wait_ms.p50,
	      f.wait_ms.p90, f.wait_ms.p99, f.wait_ms.p999, f.wait_ms.max);
	CHECK(f.writer_wait_ms.p50 == 20 && f.writer_wait_ms.p90 == 30 && f.writer_wait_ms.p99 == 30 &&
	      f.writer_wait_ms.max == 30, "writers' waits 10, 20, 30 ms: 20, 30, 30, max 30 (%g, %g, %g)",
	      f.writer_wait_ms.p50, f.writer_wait_ms.p90, f.writer_wait_ms.max);
	CHECK(f.timeouts == 1 && f.grants == 200, "the timeout is not a grant");
	a[9].role = a[19].role = a[29].role = ROLE_USER;
	f = figures(a, COUNT(a), 1, 0, 2000);
	CHECK(isnan(f.writer_wait_ms.p50) && isnan(f.writer_wait_ms.p99) && isnan(f.writer_wait_ms.max),
	      "no writer: writer wait unknown");
}

/*
 * Outcomes over 1.5 s: 3 grants polling 1, 2 and 6 times (9 / 3 = 3 polls a grant, 2 grants
 * a second); one still waiting (starved; its 50 polls not counted), a timeout, a refusal,
 * an error (counted nowhere).
 */
static void test_outcomes(void)
{
	struct acquisition a[] = {
		held(0, ACQ_EXCLUSIVE, 0, 10), held(0, ACQ_EXCLUSIVE, 20, 30), held(0, ACQ_EXCLUSIVE, 40, 50),
		acq(0, ACQ_EXCLUSIVE, 60, -1, -1, ACQ_WAITING), acq(0, ACQ_EXCLUSIVE, 70, -1, 80, ACQ_TIMEOUT),
		acq(0, ACQ_EXCLUSIVE, 90, -1, 90, ACQ_REFUSED), acq(0, ACQ_EXCLUSIVE, 95, -1, 96, ACQ_ERROR),
	};
	struct guard_figures f;

	a[1].polls = 2;
	a[2].polls = 6;
	a[3].polls = 50;
	f = figures(a, COUNT(a), 1, 0, 1500);
	CHECK(f.grants == 3 && f.starved == 1 && f.timeouts == 1 && f.refusals == 1 && f.expired == 0 && f.abandoned == 0,
	      "outcomes: 3 grants, 1 starved, 1 timeout, 1 refusal");
	CHECK_NEAR(f.polls_per_grant, 3.0, 1e-12, "polls per grant: 9 / 3 (%g)", f.polls_per_grant);
	CHECK_NEAR(f.grants_per_s, 2.0, 1e-12, "3 grants in 1.5 s: 2 a second (%g)", f.grants_per_s);
}

/* An empty ledger: counts 0, every duration and ratio unknown, and the line's inversions. */
static void test_empty(void)
{
	struct guard_figures f = figures(NULL, 0, 1, 0, 1000);

	CHECK(f.grants == 0 && f.grants_per_s == 0 && f.violations == 0 && f.max_holders == 0 && f.starved == 0 &&
	      f.stale_uses == 0, "empty ledger: counts 0");
	CHECK_EQ(f.fifo_inversions, METRIC_UNKNOWN, "empty ledger: no line, its inversions unknown");
	CHECK(isnan(f.polls_per_grant) && isnan(f.wait_ms.p50) && isnan(f.wait_ms.max) && isnan(f.writer_wait_ms.p99),
	      "empty ledger: polls per grant and waits unknown");
	CHECK_EQ(f.refreshes, METRIC_UNKNOWN, "empty ledger without a cache: refreshes unknown");
	f = figures(NULL, 0, 1, 100, 1000);
	CHECK(f.periods == 11 && f.refreshes == 0 && f.duplicate_refreshes == 0 && f.waited_skips == 0 &&
	      isnan(f.refreshes_per_period), "empty ledger with a cache: 11 periods, no refresh");
}

/*
 * The holder series over 300 ms (3 buckets), two resources.
 * Resource 0: A holds [50, 150); B asks at 60, granted at 150, releases at 210; C asks at
 * 120 and is still waiting at the end.
 *   [0, 100): A from 50: 1 holder; B waits from 60: 1.
 *   [100, 200): A held at the start, then B from 150: 1; B waiting at the start, C from 120: 2.
 *   [200, 300): B until 210: 1; C: 1.
 * Resource 1: D holds [0, 100); E asks at 20, holds [30, 250); F asks at 90, holds [100, 120).
 *   [0, 100): D, then E: 2; E waits [20, 30), F [90, 100): 1 at a time.
 *   [100, 200): D released at the bucket's start is not counted: E and F, 2; none waiting.
 *   [200, 300): E: 1; none waiting.
 * An acquisition of resource 7 (beyond the run's 2) is left out.
 */
static void test_series(void)
{
	struct acquisition a[] = {
		held(0, ACQ_EXCLUSIVE, 50, 150), acq(0, ACQ_EXCLUSIVE, 60, 150, 210, ACQ_GRANTED),
		acq(0, ACQ_EXCLUSIVE, 120, -1, -1, ACQ_WAITING), held(1, ACQ_SHARED, 0, 100),
		acq(1, ACQ_SHARED, 20, 30, 250, ACQ_GRANTED), acq(1, ACQ_SHARED, 90, 100, 120, ACQ_GRANTED),
		held(7, ACQ_SHARED, 0, 300),
	};
	static const uint32_t want[6][2] = { { 1, 1 }, { 1, 2 }, { 1, 1 }, { 2, 1 }, { 2, 0 }, { 1, 0 } };
	struct acquisitions_input in = { .acqs = a, .n = COUNT(a), .resources = 2, .limit = 1, .duration_ns = MS(300) };
	struct holder_point *p = NULL;
	size_t n = 0;
	bool right = true;

	check_need(acquisitions_holder_series(&in, &p, &n) == 0, "acquisitions_holder_series");
	CHECK_EQ(n, 6, "two resources x three buckets (%zu)", n);
	for (size_t i = 0; i < n && i < 6; i++) {
		right &= p[i].resource == (int32_t)(i / 3) && p[i].t_ms == (int64_t)(i % 3) * 100 &&
			 p[i].holders == want[i][0] && p[i].waiting == want[i][1];
		if (p[i].holders != want[i][0] || p[i].waiting != want[i][1])
			printf("# point %zu: resource %d at %lld ms: %u holders, %u waiting\n", i, p[i].resource,
			       (long long)p[i].t_ms, p[i].holders, p[i].waiting);
	}
	CHECK(right, "resource after resource, buckets in time order, holders and waiting as worked out");
	free(p);

	in.duration_ns = MS(250);
	check_need(acquisitions_holder_series(&in, &p, &n) == 0, "acquisitions_holder_series");
	CHECK(n == 6 && p[5].t_ms == 200, "250 ms: the last bucket partly covered still counts (%zu)", n);
	free(p);
	in.duration_ns = 0;
	check_need(acquisitions_holder_series(&in, &p, &n) == 0, "acquisitions_holder_series");
	CHECK(n == 0 && p == NULL, "no duration: no point");
	in.n = 0;
	in.duration_ns = MS(100);
	check_need(acquisitions_holder_series(&in, &p, &n) == 0, "acquisitions_holder_series");
	CHECK(n == 2 && p[0].holders == 0 && p[1].waiting == 0, "empty ledger: a point per resource, all 0");
	free(p);
}

/* The next value of a small linear congruential generator: the same ledger every run. */
static uint32_t next_random(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 8;
}

/*
 * Brute force on the definitions: the violations of holder k (grants distinct in time),
 * meeting every holder of its resource granted before it and not yet released.
 */
static uint64_t brute_violation(const struct acquisition *a, size_t n, size_t k, int limit)
{
	uint64_t count[3] = { 0, 0, 0 };

	for (size_t i = 0; i < n; i++)
		if (i != k && a[i].resource == a[k].resource && a[i].grant_ns < a[k].grant_ns &&
		    a[i].release_ns > a[k].grant_ns)
			count[a[i].mode]++;
	if (a[k].mode == ACQ_EXCLUSIVE)
		return count[0] + count[1] + count[2] > 0;
	if (a[k].mode == ACQ_SHARED)
		return count[ACQ_EXCLUSIVE] > 0;
	return count[ACQ_EXCLUSIVE] > 0 || count[ACQ_LIMITED] + 1 > (uint64_t)limit;
}

/* Brute force: whether holders i and j, i's ticket first, were granted against it and conflict. */
static bool brute_inversion(const struct acquisition *x, const struct acquisition *y, int limit)
{
	bool conflict = x->mode == ACQ_EXCLUSIVE || y->mode == ACQ_EXCLUSIVE ||
			(x->mode == ACQ_LIMITED && y->mode == ACQ_LIMITED && limit == 1);

	return x->resource == y->resource && x->ticket < y->ticket && y->grant_ns < x->grant_ns && conflict;
}

/*
 * 1500 pseudo-random holders on 3 resources, every mode, grants distinct, releases on a
 * coarse grid so that many fall on another's grant: the sweep and the Fenwick count agree
 * with the definitions applied pair by pair, under X = 1 and X = 2.
 */
static void test_against_brute_force(void)
{
	enum { N = 1500 };
	struct acquisition *a = calloc(N, sizeof(*a));
	uint32_t state = 12345;

	check_need(a != NULL, "calloc");
	for (size_t i = 0; i < N; i++) {
		int64_t grant = (int64_t)i * 7 + 3;

		a[i] = held((int32_t)(next_random(&state) % 3), (uint8_t)(next_random(&state) % 3), 0, 0);
		a[i].grant_ns = grant;
		a[i].start_ns = grant - (int64_t)(next_random(&state) % 50);
		a[i].release_ns = (grant / 10 + 1 + (int64_t)(next_random(&state) % 8)) * 10 + 3;
		a[i].ticket = 1 + (int64_t)(next_random(&state) % (N / 2));
	}
	for (int limit = 1; limit <= 2; limit++) {
		struct acquisitions_input in = { .acqs = a, .n = N, .resources = 3, .limit = limit, .duration_ns = MS(1) };
		uint64_t violations = 0, inversions = 0;
		struct guard_figures f;

		for (size_t k = 0; k < N; k++) {
			violations += brute_violation(a, N, k, limit);
			for (size_t j = 0; j < N; j++)
				inversions += brute_inversion(&a[k], &a[j], limit);
		}
		check_need(acquisitions_figures(&in, &f) == 0, "acquisitions_figures");
		CHECK(f.violations == violations && violations > 0, "X = %d: violations as pair by pair (%llu, %llu)", limit,
		      (unsigned long long)f.violations, (unsigned long long)violations);
		CHECK(f.fifo_inversions == inversions && inversions > 0, "X = %d: inversions as pair by pair (%llu, %llu)",
		      limit, (unsigned long long)f.fifo_inversions, (unsigned long long)inversions);
	}
	free(a);
}

int main(void)
{
	test_back_to_back();
	test_overlap();
	test_readers_and_writer();
	test_limited();
	test_abandoned_and_empty();
	test_inversion_pairs();
	test_inversion_count();
	test_refreshes();
	test_waits();
	test_outcomes();
	test_empty();
	test_series();
	test_against_brute_force();
	return check_exit_status();
}
