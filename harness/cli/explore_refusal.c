/* The refusal of an explore invocation; see explore_refusal.h. */
#include <stdio.h>

#include "cli/explore_refusal.h"
#include "store/store_explore.h"

int explore_refusal(struct store *db, long long id, const char *command, char *err, size_t errlen)
{
	struct store_explore_list explores;
	size_t n;
	int rc;

	rc = store_explore_load(db, id, &explores, err, errlen);
	if (rc < 0)
		return -1;
	n = explores.n;
	store_explore_list_free(&explores);
	if (!n)
		return 0;
	snprintf(err, errlen, "invocation %lld is claimbench explore's (%zu strategy and mode%s): %s works on runs' "
		 "measurements, not explored schedules; claimbench show inv:%lld prints its tables", id, n,
		 n == 1 ? "" : "s", command, id);
	return 1;
}
