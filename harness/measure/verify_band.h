/*
 * --verify's lease band: the ledger's lease judgements the server could have made either
 * way. The ledger counts a lease redelivery when the holder's lease *may* have run out by
 * its own instants, the record when it *had* by the server's clock as the claim wrote the
 * row; the two part on a claim that does not check the row's status (naive) where the
 * ledger's instants cannot tell: the claim came within its own latency and the server
 * clock's resolution of the lease's end, or it began before the holder's completion had
 * returned (its read may have come before that completion, its write after).
 */
#ifndef CLAIMBENCH_VERIFY_BAND_H
#define CLAIMBENCH_VERIFY_BAND_H

#include <stdint.h>

#include "measure/verify.h"

/*
 * The second claims of in's ledger whose lease judgement the ledger's instants leave
 * open (see above), in flip mode with a lease and no reaper; 0 otherwise. -1 when out of
 * memory.
 */
int64_t verify_lease_band(const struct verify_input *in);

#endif
