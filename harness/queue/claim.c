#include "queue/claim.h"
#include "queue/worker.h"

enum claim_result claim_in_transaction(struct worker *w, int select_slot, int64_t *job_id)
{
	const char *select_params[] = { w->queue };

	if (worker_begin(w) < 0)
		return CLAIM_ERROR;
	return claim_picked(w, worker_exec(w, select_slot, 1, select_params, job_id, 1), job_id);
}

enum claim_result claim_picked(struct worker *w, int rows, int64_t *job_id)
{
	if (rows < 0)
		goto rollback;
	if (rows == 0)
		return worker_commit(w) < 0 ? CLAIM_ERROR : CLAIM_EMPTY;
	if (w->shared->mode == MODE_FLIP)
		return worker_mark_active(w, *job_id, true) < 0 ? CLAIM_ERROR : CLAIM_OK;
	if (worker_mark_active(w, *job_id, false) < 0)
		goto rollback;
	return CLAIM_OK;
rollback:
	worker_rollback(w);
	return CLAIM_ERROR;
}
