/*
 * Building JSON output with json-c: numbers with nine significant digits, members
 * added with their failures counted, nested members by dotted path, and printing
 * pretty with two-space indentation.
 */
#ifndef CLAIMBENCH_JSON_OUT_H
#define CLAIMBENCH_JSON_OUT_H

#include <stdio.h>

#include <json-c/json.h>

/* A JSON number of v with nine significant digits, or NULL (JSON null) when v is NaN or infinite. */
json_object *json_number(double v);

/*
 * Adds key = value to obj, value NULL standing for JSON null (as does a value whose own
 * allocation failed). 0, or -1 when out of memory (value released).
 */
int json_put(json_object *obj, const char *key, json_object *value);

/*
 * Adds value at the dotted path ("fairness.jain") under obj, creating the objects on the
 * way or adding to those already there. 0, or -1 when out of memory (value released).
 */
int json_put_path(json_object *obj, const char *path, json_object *value);

/* Prints obj pretty-printed, two spaces a level, and a newline. 0, or -1 when out of memory. */
int json_print(FILE *out, json_object *obj);

#endif
