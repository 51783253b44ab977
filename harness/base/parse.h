/* Values every option, scenario key and store id is parsed with, the same way with the same messages. */
#ifndef CLAIMBENCH_PARSE_H
#define CLAIMBENCH_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* Parses a whole decimal number in [min, max] for --option into *out. 0, or -1 with err. */
int parse_long(const char *option, const char *text, long min, long max, long *out, char *err, size_t errlen);

/* Parses a finite decimal number in [min, max] for --option into *out, "-0" as 0. 0, or -1 with err. */
int parse_double(const char *option, const char *text, double min, double max, double *out, char *err,
		 size_t errlen);

/* The index of text in the NULL-terminated names, or -1 with err listing them for --option. */
int parse_word(const char *option, const char *text, const char *const *names, char *err, size_t errlen);

/* Reads a result-store id (one or more digits, no sign or space, from 1) into *id. true when text is one. */
bool parse_id(const char *text, long long *id);

#endif
