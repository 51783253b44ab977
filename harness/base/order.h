/* Orders of plain values, for the comparators qsort takes. */
#ifndef CLAIMBENCH_ORDER_H
#define CLAIMBENCH_ORDER_H

#include <stdint.h>

/* -1, 0 or 1 as a is below, equal to or above b (no subtraction, so no overflow). */
static inline int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

#endif
