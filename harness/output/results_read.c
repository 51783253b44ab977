#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "model/metric_table.h"
#include "model/run_descriptor.h"
#include "output/results_read.h"

/*
 * Reads the whole file path, at most REPORT_FILE_MAX_BYTES (it may be a pipe: no size is
 * trusted before reading), into a new NUL-terminated *text of *len bytes. 0, or -1 with err.
 */
static int read_file(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	char *buf = NULL, *grown;
	size_t cap = 0, used = 0, got;
	FILE *f;

	f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (cap - used < 4096) {
			cap = cap ? 2 * cap : 65536;
			grown = realloc(buf, cap + 1);
			if (!grown) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			buf = grown;
		}
		got = fread(buf + used, 1, cap - used, f);
		used += got;
		if (used > REPORT_FILE_MAX_BYTES) {
			snprintf(err, errlen, "%s: larger than the %d MiB a result file may hold", path,
				 REPORT_FILE_MAX_BYTES >> 20);
			goto fail;
		}
	} while (got);
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		goto fail;
	}
	fclose(f);
	buf[used] = '\0';
	*text = buf;
	*len = used;
	return 0;
fail:
	fclose(f);
	free(buf);
	return -1;
}

/* Parses text (len bytes) as one strict JSON value into *doc. 0, or -1 with err naming path. */
static int parse_json(const char *path, const char *text, size_t len, json_object **doc, char *err,
		      size_t errlen)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	size_t end;
	int ret = -1;

	*doc = NULL;
	if (len > INT_MAX) {
		snprintf(err, errlen, "%s: too large for a result file", path);
		return -1;
	}
	tok = json_tokener_new();
	if (!tok) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	*doc = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	if (jerr == json_tokener_continue) {
		snprintf(err, errlen, "%s is not JSON: it ends inside a value", path);
		goto out;
	}
	if (jerr != json_tokener_success) {
		snprintf(err, errlen, "%s is not JSON: %s at byte %zu", path, json_tokener_error_desc(jerr),
			 json_tokener_get_parse_end(tok));
		goto out;
	}
	for (end = json_tokener_get_parse_end(tok); end < len && strchr(" \t\r\n", text[end]); end++)
		;
	if (end < len) {
		snprintf(err, errlen, "%s is not JSON: something follows the value at byte %zu", path, end);
		goto out;
	}
	ret = 0;
out:
	if (ret < 0) {
		json_object_put(*doc);
		*doc = NULL;
	}
	json_tokener_free(tok);
	return ret;
}

/*
 * The member at dotted path ("fairness.jain") of object obj in *out (NULL for JSON null).
 * 0, or -1 when a step of the path is missing or not an object.
 */
static int member_at(json_object *obj, const char *path, json_object **out)
{
	char key[64];
	const char *dot;
	size_t n;

	for (;;) {
		if (!json_object_is_type(obj, json_type_object))
			return -1;
		dot = strchr(path, '.');
		if (!dot)
			return json_object_object_get_ex(obj, path, out) ? 0 : -1;
		n = (size_t)(dot - path);
		if (n >= sizeof(key))
			return -1;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(obj, key, &obj))
			return -1;
		path = dot + 1;
	}
}

/* Where a result object of a file is, for messages. */
struct run_place {
	const char *path;	/* the file */
	size_t index;		/* the result's index in results */
};

/* Says in err that member key of the result at p is not what it should be. Returns -1. */
static int bad_member(const struct run_place *p, const char *key, const char *want, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: results[%zu]: \"%s\" is %s (as claimbench run --format json writes it)", p->path, p->index,
		 key, want);
	return -1;
}

/* Reads descriptor d of the result object obj into r; a missing one but an identity stays unset. 0, or -1 with err. */
static int read_descriptor(const struct run_place *p, json_object *obj, const struct run_descriptor *d,
			   struct run_result *r, char *err, size_t errlen)
{
	json_object *v = NULL;
	int64_t n;

	if (member_at(obj, d->name, &v) < 0 || !v) {
		if (!d->identity)
			return 0;
		return bad_member(p, d->name, d->type == DESC_TEXT ? "missing or not a string" :
				  "missing or not a whole number from 1", err, errlen);
	}
	switch (d->type) {
	case DESC_TEXT:
		if (!json_object_is_type(v, json_type_string))
			return bad_member(p, d->name, "not a string", err, errlen);
		descriptor_set_text(d, r, json_object_get_string(v));
		break;
	case DESC_INT:
	case DESC_LONG:
		n = json_object_get_int64(v);
		if (!json_object_is_type(v, json_type_int) || n < (d->identity ? 1 : INT_MIN) || n > INT_MAX)
			return bad_member(p, d->name, d->identity ? "not a whole number from 1" : "not a whole number",
					  err, errlen);
		descriptor_set_int(d, r, n);
		break;
	case DESC_BOOL:
		if (!json_object_is_type(v, json_type_boolean))
			return bad_member(p, d->name, "not true or false", err, errlen);
		descriptor_set_int(d, r, json_object_get_boolean(v));
		break;
	case DESC_DOUBLE:
		if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
			return bad_member(p, d->name, "not a number or null", err, errlen);
		descriptor_set_double(d, r, json_object_get_double(v));
		break;
	}
	return 0;
}

/* Reads metric m of the result object obj into r; missing or null is unknown. 0, or -1 with err. */
static int read_metric(const struct run_place *p, json_object *obj, const struct metric *m, struct run_result *r,
		       char *err, size_t errlen)
{
	json_object *v = NULL;

	if (member_at(obj, m->path, &v) < 0 || !v)
		return 0;
	if (m->type == METRIC_FLAG) {
		if (!json_object_is_type(v, json_type_boolean))
			return bad_member(p, m->path, "not true, false or null", err, errlen);
		metric_set_count(m, &r->metrics, json_object_get_boolean(v) ? 1 : 0);
	} else if (m->type == METRIC_COUNT) {
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
			return bad_member(p, m->path, "not a whole number from 0 or null", err, errlen);
		metric_set_count(m, &r->metrics, json_object_get_uint64(v));
	} else {
		if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
			return bad_member(p, m->path, "not a number or null", err, errlen);
		metric_set_double(m, &r->metrics, json_object_get_double(v));
	}
	return 0;
}

/* Reads the params object of obj, when it has one, into r's parameters. 0, or -1 with err. */
static int read_params(const struct run_place *p, json_object *obj, struct run_result *r, char *err, size_t errlen)
{
	json_object *params;

	if (!json_object_object_get_ex(obj, "params", &params) || !params)
		return 0;
	if (!json_object_is_type(params, json_type_object))
		return bad_member(p, "params", "not an object", err, errlen);
	json_object_object_foreach(params, name, value) {
		if (!json_object_is_type(value, json_type_string))
			return bad_member(p, "params", "an object of strings", err, errlen);
		if (run_param_add(r, name, json_object_get_string(value)) < 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* Reads the optional run_id member of obj into r. 0, or -1 with err. */
static int read_run_id(const struct run_place *p, json_object *obj, struct run_result *r, char *err, size_t errlen)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, "run_id", &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 1)
		return bad_member(p, "run_id", "not a whole number from 1", err, errlen);
	r->run_id = json_object_get_int64(v);
	return 0;
}

/*
 * Reads the result object obj at p into r: its descriptors, every metric, its run id and
 * parameters. 0, or -1 with err.
 */
static int read_run(const struct run_place *p, json_object *obj, struct run_result *r, char *err, size_t errlen)
{
	size_t i;

	if (!json_object_is_type(obj, json_type_object)) {
		snprintf(err, errlen, "%s: results[%zu] is not an object", p->path, p->index);
		return -1;
	}
	metrics_set_unknown(&r->metrics);
	for (i = 0; i < run_descriptors_len; i++)
		if (read_descriptor(p, obj, &run_descriptors[i], r, err, errlen) < 0)
			return -1;
	for (i = 0; i < metric_table_len; i++)
		if (read_metric(p, obj, &metric_table[i], r, err, errlen) < 0)
			return -1;
	if (!json_object_object_get_ex(obj, "race_duplicates", NULL))
		metrics_fill_older(&r->metrics);	/* an older claimbench's file: no race_duplicates at all */
	return read_run_id(p, obj, r, err, errlen) < 0 ? -1 : read_params(p, obj, r, err, errlen);
}

/* The text of doc's top-level member key, or NULL when it has none that is a string. */
static const char *top_text(json_object *doc, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(doc, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

int results_file_read(const char *path, struct results_file *out, char *err, size_t errlen)
{
	struct run_place p = { .path = path };
	json_object *results;
	char *text;
	size_t len, n;
	int rc;

	memset(out, 0, sizeof(*out));
	if (read_file(path, &text, &len, err, errlen) < 0)
		return -1;
	rc = parse_json(path, text, len, &out->doc, err, errlen);
	free(text);
	if (rc < 0)
		return -1;
	if (!json_object_is_type(out->doc, json_type_object)) {
		snprintf(err, errlen, "%s: expected a JSON object at the top (claimbench run --format json)", path);
		return -1;
	}
	if (!json_object_object_get_ex(out->doc, "results", &results) ||
	    !json_object_is_type(results, json_type_array)) {
		snprintf(err, errlen, "%s: no \"results\" array (claimbench run --format json writes one)", path);
		return -1;
	}
	n = json_object_array_length(results);
	if (!n) {
		snprintf(err, errlen, "%s: \"results\" holds no runs", path);
		return -1;
	}
	out->runs = calloc(n, sizeof(*out->runs));
	if (!out->runs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	out->n_runs = n;
	for (p.index = 0; p.index < n; p.index++) {
		if (read_run(&p, json_object_array_get_idx(results, p.index), &out->runs[p.index], err, errlen) < 0)
			return -1;
		engine_name(out->runs[p.index].engine, sizeof(out->runs[p.index].engine), top_text(out->doc, "backend"),
			    top_text(out->doc, "server_version"));
	}
	return 0;
}

void results_file_free(struct results_file *f)
{
	for (size_t i = 0; f->runs && i < f->n_runs; i++)
		run_params_free(&f->runs[i]);
	json_object_put(f->doc);
	free(f->runs);
	memset(f, 0, sizeof(*f));
}
