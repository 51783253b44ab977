#include "base/clock.h"
#include "queue/instants.h"

void instants_init(struct critical_instants *ci, int seats)
{
	atomic_init(&ci->begun, 0);
	atomic_init(&ci->done, 0);
	for (int i = 0; i < MAX_WORKERS; i++)
		atomic_init(&ci->claim_start[i], INSTANT_NO_CLAIM);
	ci->seats = seats;
}

int64_t instants_clock(struct critical_instants *ci)
{
	int64_t now;

	atomic_fetch_add(&ci->begun, 1);
	now = clock_now_ns();
	atomic_fetch_add(&ci->done, 1);
	return now;
}

struct instants_snapshot instants_snapshot(struct critical_instants *ci)
{
	/* done first: begun equal to it then means none was being read in between */
	uint64_t done = atomic_load(&ci->done), begun = atomic_load(&ci->begun);

	return (struct instants_snapshot){ .begun = begun, .quiet = begun == done };
}

int64_t instants_claim_begin(struct critical_instants *ci, int seat)
{
	int64_t start;

	atomic_store(&ci->claim_start[seat], INSTANT_CLAIM_BEGINNING);
	start = clock_now_ns();
	atomic_store(&ci->claim_start[seat], start);
	return start;
}

int64_t instants_claim_end(struct critical_instants *ci, int seat, bool returned)
{
	int64_t end = returned ? instants_clock(ci) : clock_now_ns();

	/* after its end was counted: a claim that returned a job is seen in flight or as begun, never neither */
	atomic_store(&ci->claim_start[seat], INSTANT_NO_CLAIM);
	return end;
}

int instants_none_within(struct critical_instants *ci, struct instants_snapshot snapshot, int seat,
			 int64_t from_ns, int64_t to_ns)
{
	bool in_flight = false;

	if (!snapshot.quiet)
		return -1;
	/* the claims in flight first, then begun: a claim that ends meanwhile is counted in begun */
	for (int i = 0; i < ci->seats; i++) {
		int64_t start = i == seat ? INSTANT_NO_CLAIM : atomic_load(&ci->claim_start[i]);

		in_flight |= start == INSTANT_CLAIM_BEGINNING || (start > from_ns && start <= to_ns);
	}
	if (atomic_load(&ci->begun) != snapshot.begun)
		return -1;
	return in_flight ? 0 : 1;
}
