/*
 * The ledger of ledger.h: arrays preallocated for the expected run, grown
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
	free(l->faults);
	free(l->returns);
	memset(l, 0, sizeof(*l));
}

/*
 * The array arr of n entries, of room *cap, with room for one more entry of size bytes:
 * arr itself, or arr grown (l->growths counted). NULL when out of memory (arr untouched).
 */
static void *room_for_one(struct ledger *l, void *arr, size_t n, size_t *cap, size_t size)
{
	void *p;

	if (n < *cap)
		return arr;
	p = grow_array(arr, cap, n + 1, size);
	if (p)
		l->growths++;
	return p;
}

int ledger_add_execution(struct ledger *l, const struct execution *e)
{
	struct execution *p = room_for_one(l, l->execs, l->n_execs, &l->cap_execs, sizeof(*p));

	if (!p)
		return -1;
	l->execs = p;
	l->execs[l->n_execs++] = *e;
	return 0;
}

int ledger_add_empty(struct ledger *l, const struct empty_claim *e)
{
	struct empty_claim *p = room_for_one(l, l->empties, l->n_empties, &l->cap_empties, sizeof(*p));

	if (!p)
		return -1;
	l->empties = p;
	l->empties[l->n_empties++] = *e;
	return 0;
}

int ledger_add_error(struct ledger *l, int64_t at_ns)
{
	int64_t *p = room_for_one(l, l->errors, l->n_errors, &l->cap_errors, sizeof(*p));

	if (!p)
		return -1;
	l->errors = p;
	l->errors[l->n_errors++] = at_ns;
	return 0;
}

int ledger_add_fault(struct ledger *l, const struct fault_record *f)
{
	struct fault_record *p = room_for_one(l, l->faults, l->n_faults, &l->cap_faults, sizeof(*p));

	if (!p)
		return -1;
	l->faults = p;
	l->faults[l->n_faults++] = *f;
	return 0;
}

int ledger_add_return(struct ledger *l, const struct job_return *r)
{
	struct job_return *p = room_for_one(l, l->returns, l->n_returns, &l->cap_returns, sizeof(*p));

	if (!p)
		return -1;
	l->returns = p;
	l->returns[l->n_returns++] = *r;
	return 0;
}

/*
 * Appends the n_parts arrays of one kind (part_arr(i) of part_n(i) entries of size bytes)
 * to *arr of *n entries and room *cap. 0, or -1 when out of memory.
 */
static int merge_array(void **arr, size_t *n, size_t *cap, size_t size, const struct ledger *parts, size_t n_parts,
		       const void *(*part_arr)(const struct ledger *), size_t (*part_n)(const struct ledger *))
{
	size_t total = *n;
	void *p;

	for (size_t i = 0; i < n_parts; i++) {
		if (part_n(&parts[i]) > SIZE_MAX - total)
			return -1;
		total += part_n(&parts[i]);
	}
	if (total > *cap) {
		p = grow_array(*arr, cap, total, size);
		if (!p)
			return -1;
		*arr = p;
	}
	for (size_t i = 0; i < n_parts; i++) {
		if (part_n(&parts[i]))
			memcpy((char *)*arr + *n * size, part_arr(&parts[i]), part_n(&parts[i]) * size);
		*n += part_n(&parts[i]);
	}
	return 0;
}

/* The arrays of a ledger and their lengths, as merge_array reads them: executions, empty claims, errors, faults, returns. */
static const void *execs_of(const struct ledger *l)
{
	return l->execs;
}

static size_t n_execs_of(const struct ledger *l)
{
	return l->n_execs;
}

static const void *empties_of(const struct ledger *l)
{
	return l->empties;
}

static size_t n_empties_of(const struct ledger *l)
{
	return l->n_empties;
}

static const void *errors_of(const struct ledger *l)
{
	return l->errors;
}

static size_t n_errors_of(const struct ledger *l)
{
	return l->n_errors;
}

static const void *faults_of(const struct ledger *l)
{
	return l->faults;
}

static size_t n_faults_of(const struct ledger *l)
{
	return l->n_faults;
}

static const void *returns_of(const struct ledger *l)
{
	return l->returns;
}

static size_t n_returns_of(const struct ledger *l)
{
	return l->n_returns;
}

/*
 * The merge runs after the run, so room made in into here is not counted in its
 * growths; the parts' growths are added instead, so that the merged ledger tells
 * how often the workers' ledgers grew while they recorded.
 */
int ledger_merge(struct ledger *into, const struct ledger *parts, size_t n)
{
	void *execs = into->execs, *empties = into->empties, *errors = into->errors, *faults = into->faults;
	void *returns = into->returns;
	int rc = 0;

	rc |= merge_array(&execs, &into->n_execs, &into->cap_execs, sizeof(*into->execs), parts, n, execs_of, n_execs_of);
	into->execs = execs;
	rc |= merge_array(&empties, &into->n_empties, &into->cap_empties, sizeof(*into->empties), parts, n, empties_of,
			  n_empties_of);
	into->empties = empties;
	rc |= merge_array(&errors, &into->n_errors, &into->cap_errors, sizeof(*into->errors), parts, n, errors_of,
			  n_errors_of);
	into->errors = errors;
	rc |= merge_array(&faults, &into->n_faults, &into->cap_faults, sizeof(*into->faults), parts, n, faults_of,
			  n_faults_of);
	into->faults = faults;
	rc |= merge_array(&returns, &into->n_returns, &into->cap_returns, sizeof(*into->returns), parts, n, returns_of,
			  n_returns_of);
	into->returns = returns;
	for (size_t i = 0; i < n; i++)
		into->growths += parts[i].growths;
	return rc ? -1 : 0;
}

/* qsort order of faults: by instant, then worker, kind and job (a total order). */
static int cmp_fault(const void *pa, const void *pb)
{
	const struct fault_record *a = pa, *b = pb;

	if (a->at_ns != b->at_ns)
		return (a->at_ns > b->at_ns) - (a->at_ns < b->at_ns);
	if (a->worker != b->worker)
		return (a->worker > b->worker) - (a->worker < b->worker);
	if (a->kind != b->kind)
		return (a->kind > b->kind) - (a->kind < b->kind);
	return (a->job_id > b->job_id) - (a->job_id < b->job_id);
}

void ledger_sort_faults(struct fault_record *faults, size_t n)
{
	if (n)
		qsort(faults, n, sizeof(*faults), cmp_fault);
}

int ledger_keep_faults(const struct ledger *merged, struct run_result *out)
{
	out->n_faults = merged->n_faults;
	if (!merged->n_faults)
		return 0;
	out->faults = malloc(merged->n_faults * sizeof(*out->faults));
	if (!out->faults)
		return -1;
	memcpy(out->faults, merged->faults, merged->n_faults * sizeof(*out->faults));
	ledger_sort_faults(out->faults, out->n_faults);
	return 0;
}
