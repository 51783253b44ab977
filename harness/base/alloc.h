/* Allocation helpers shared by the files that size arrays by counts that may be zero. */
#ifndef CLAIMBENCH_ALLOC_H
#define CLAIMBENCH_ALLOC_H

#include <stdlib.h>

/* calloc that treats zero elements as one, so that NULL always means out of memory. */
static inline void *alloc_zeroed(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

#endif
