#include <math.h>
#include <string.h>

#include "output/json_out.h"

json_object *json_number(double v)
{
	char text[32];

	if (!isfinite(v))
		return NULL;
	snprintf(text, sizeof(text), "%.9g", v);
	return json_object_new_double_s(v, text);
}

int json_put(json_object *obj, const char *key, json_object *value)
{
	if (json_object_object_add(obj, key, value) == 0)
		return 0;
	json_object_put(value);
	return -1;
}

int json_put_path(json_object *obj, const char *path, json_object *value)
{
	const char *dot;
	json_object *inner;
	char key[64];
	size_t n;

	while ((dot = strchr(path, '.'))) {
		n = (size_t)(dot - path);
		if (n >= sizeof(key))
			goto fail;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(obj, key, &inner) || !json_object_is_type(inner, json_type_object)) {
			inner = json_object_new_object();
			if (!inner || json_put(obj, key, inner) < 0)
				goto fail;
		}
		obj = inner;
		path = dot + 1;
	}
	return json_put(obj, path, value);
fail:
	json_object_put(value);
	return -1;
}

int json_print(FILE *out, json_object *obj)
{
	const char *text = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
								JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!text)
		return -1;
	fprintf(out, "%s\n", text);
	return 0;
}
