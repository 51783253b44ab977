/*
 * The verdicts as one JSON object (verdict_print.h): the command's members, the verdicts'
 * rows as "comparisons", the command's other members; and a group's members, which every
 * row opens with.
 */
#include "output/json_out.h"
#include "output/verdict_print.h"

int verdict_json_put_group(json_object *obj, const struct compare_group *g)
{
	json_object *strategy = g->strategy ? json_object_new_string(g->strategy) : NULL;
	json_object *mode = g->claim_mode ? json_object_new_string(g->claim_mode) : NULL;

	if (json_put(obj, "strategy", strategy) < 0 || json_put(obj, "claim_mode", mode) < 0)
		return -1;
	if (g->section && *g->section && json_put(obj, "group", json_object_new_string(g->section)) < 0)
		return -1;
	if (g->sweep && *g->sweep && json_put(obj, "sweep", json_object_new_string(g->sweep)) < 0)
		return -1;
	if (g->engine && *g->engine && json_put(obj, "engine", json_object_new_string(g->engine)) < 0)
		return -1;
	return json_put(obj, "workers", json_object_new_int(g->workers));
}

/* Adds each member of from (NULL: none) to to, shared. 0, or -1 when out of memory. */
static int put_members(json_object *to, json_object *from)
{
	if (!from)
		return 0;
	json_object_object_foreach(from, key, value) {
		if (json_object_object_add(to, key, json_object_get(value)) < 0) {
			json_object_put(value);
			return -1;
		}
	}
	return 0;
}

/* The array of list's rows, shared, or NULL when out of memory. */
static json_object *json_rows(const struct verdict_list *list)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; arr && i < list->n; i++)
		if (json_object_array_add(arr, json_object_get(list->verdicts[i].json)) < 0) {
			json_object_put(list->verdicts[i].json);
			json_object_put(arr);
			return NULL;
		}
	return arr;
}

int verdict_print_json(FILE *out, const struct verdict_list *list)
{
	json_object *top = json_object_new_object();
	int rc = -1;

	if (!top || put_members(top, list->json_head) < 0 || json_put(top, "comparisons", json_rows(list)) < 0 ||
	    put_members(top, list->json_tail) < 0)
		goto out;
	rc = json_print(out, top);
out:
	json_object_put(top);
	return rc;
}
