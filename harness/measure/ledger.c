/*
 * The ledger of ledger.h: three arrays preallocated for the expected run, grown
 * by doubling only when one is full so that recording stays cheap and rare
 * growths can be reported.
 */
#include "measure/ledger.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Room allocated by the first growth of an array that started empty. */
#define LEDGER_MIN_CAP 64

/*
 * Reallocates arr (*cap elements of elem_size bytes) to hold at least need
 * elements, doubling its capacity as often as required, and updates *cap.
 * The new array, or NULL (arr and *cap untouched) when the size overflows or
 * memory runs out.
 */
static void *grow_array(void *arr, size_t *cap, size_t need, size_t elem_size)
{
	size_t new_cap = *cap ? *cap : LEDGER_MIN_CAP;
	void *p;

	while (new_cap < need) {
		if (new_cap > SIZE_MAX / 2)
			return NULL;
		new_cap *= 2;
	}
	if (new_cap > SIZE_MAX / elem_size)
		return NULL;
	p = realloc(arr, new_cap * elem_size);
	if (p)
		*cap = new_cap;
	return p;
}

int ledger_init(struct ledger *l, size_t expected_execs, size_t expected_empties, size_t expected_errors)
{
	memset(l, 0, sizeof(*l));
	if (expected_execs) {
		l->execs = calloc(expected_execs, sizeof(*l->execs));
		if (!l->execs)
			goto fail;
		l->cap_execs = expected_execs;
	}
	if (expected_empties) {
		l->empties = calloc(expected_empties, sizeof(*l->empties));
		if (!l->empties)
			goto fail;
		l->cap_empties = expected_empties;
	}
	if (expected_errors) {
		l->errors = calloc(expected_errors, sizeof(*l->errors));
		if (!l->errors)
			goto fail;
		l->cap_errors = expected_errors;
	}
	return 0;

fail:
	ledger_free(l);
	return -1;
}

void ledger_free(struct ledger *l)
{
	free(l->execs);
	free(l->empties);
	free(l->errors);
	memset(l, 0, sizeof(*l));
}

int ledger_add_execution(struct ledger *l, const struct execution *e)
{
	struct execution *p;

	if (l->n_execs == l->cap_execs) {
		p = grow_array(l->execs, &l->cap_execs, l->n_execs + 1, sizeof(*p));
		if (!p)
			return -1;
		l->execs = p;
		l->growths++;
	}
	l->execs[l->n_execs++] = *e;
	return 0;
}

int ledger_add_empty(struct ledger *l, const struct empty_claim *e)
{
	struct empty_claim *p;

	if (l->n_empties == l->cap_empties) {
		p = grow_array(l->empties, &l->cap_empties, l->n_empties + 1, sizeof(*p));
		if (!p)
			return -1;
		l->empties = p;
		l->growths++;
	}
	l->empties[l->n_empties++] = *e;
	return 0;
}

int ledger_add_error(struct ledger *l, int64_t at_ns)
{
	int64_t *p;

	if (l->n_errors == l->cap_errors) {
		p = grow_array(l->errors, &l->cap_errors, l->n_errors + 1, sizeof(*p));
		if (!p)
			return -1;
		l->errors = p;
		l->growths++;
	}
	l->errors[l->n_errors++] = at_ns;
	return 0;
}

/*
 * The merge runs after the run, so room made in into here is not counted in its
 * growths; the parts' growths are added instead, so that the merged ledger tells
 * how often the workers' ledgers grew while they recorded.
 */
int ledger_merge(struct ledger *into, const struct ledger *parts, size_t n)
{
	size_t n_execs = into->n_execs, n_empties = into->n_empties, n_errors = into->n_errors, i;
	struct execution *execs;
	struct empty_claim *empties;
	int64_t *errors;

	for (i = 0; i < n; i++) {
		if (parts[i].n_execs > SIZE_MAX - n_execs ||
		    parts[i].n_empties > SIZE_MAX - n_empties ||
		    parts[i].n_errors > SIZE_MAX - n_errors)
			return -1;
		n_execs += parts[i].n_execs;
		n_empties += parts[i].n_empties;
		n_errors += parts[i].n_errors;
	}
	if (n_execs > into->cap_execs) {
		execs = grow_array(into->execs, &into->cap_execs, n_execs, sizeof(*execs));
		if (!execs)
			return -1;
		into->execs = execs;
	}
	if (n_empties > into->cap_empties) {
		empties = grow_array(into->empties, &into->cap_empties, n_empties, sizeof(*empties));
		if (!empties)
			return -1;
		into->empties = empties;
	}
	if (n_errors > into->cap_errors) {
		errors = grow_array(into->errors, &into->cap_errors, n_errors, sizeof(*errors));
		if (!errors)
			return -1;
		into->errors = errors;
	}

	for (i = 0; i < n; i++) {
		if (parts[i].n_execs)
			memcpy(into->execs + into->n_execs, parts[i].execs,
			       parts[i].n_execs * sizeof(*into->execs));
		into->n_execs += parts[i].n_execs;
		if (parts[i].n_empties)
			memcpy(into->empties + into->n_empties, parts[i].empties,
			       parts[i].n_empties * sizeof(*into->empties));
		into->n_empties += parts[i].n_empties;
		if (parts[i].n_errors)
			memcpy(into->errors + into->n_errors, parts[i].errors,
			       parts[i].n_errors * sizeof(*into->errors));
		into->n_errors += parts[i].n_errors;
		into->growths += parts[i].growths;
	}
	return 0;
}
