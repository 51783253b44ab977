/*
 * Scenario files: INI, a [global] section of defaults, one section per group of runs, an
 * [expect] section of named assertions and an [explore-expect] one of explore's. This module only reads the file and keeps every
 * key with its line; what keys mean is the business of cli/invocation.c and the option
 * table (cli/option_table.c).
 *
 * The dialect: `key = value` (or `key: value`), `[section]` headers, comment lines that
 * begin with ; or #, a ';' after a blank starts a comment, and a line that begins with a
 * space or a tab after a key continues that key's value on a line of its own.
 */
#ifndef CLAIMBENCH_SCENARIO_H
#define CLAIMBENCH_SCENARIO_H

#include <stddef.h>

/* The most bytes a line may hold, its newline not counted: room for a real statement on one line. */
#define SCENARIO_MAX_LINE 65536
/* The most bytes a scenario file may hold. */
#define SCENARIO_MAX_BYTES 4194304

/* One `key = value` line. */
struct scenario_entry {
	char *key;	/* the key, as written */
	char *value;	/* the value, trimmed; indented lines after it continue it, each after a newline */
	int line;	/* its line in the file, from 1 */
};

/* One [section] and its lines, in file order. */
struct scenario_section {
	char *name;			/* the section's name ("global", "expect", a group's or "strategy NAME") */
	int line;			/* the line of its [header] */
	struct scenario_entry *entries;	/* its lines */
	size_t n_entries;		/* entries used */
	size_t cap_entries;		/* entries allocated */
};

struct scenario {
	char *path;				/* the file as named on the command line */
	char *name;				/* its base name without .ini, the scenario's name in output */
	char *text;				/* the whole file, kept with the results */
	struct scenario_section *sections;	/* sections in file order */
	size_t n_sections;			/* sections used */
	size_t cap_sections;			/* sections allocated */
};

/*
 * Reads and parses the file at path (a regular file of at most SCENARIO_MAX_BYTES) into
 * out. 0, or -1 with "path:line: what was expected" in err (a syntax error, a key outside
 * any section, a key or section given twice, a line of more than SCENARIO_MAX_LINE bytes,
 * a NUL byte).
 */
int scenario_load(const char *path, struct scenario *out, char *err, size_t errlen);

/* Frees what out holds. */
void scenario_free(struct scenario *s);

/* The section called name, or NULL. */
const struct scenario_section *scenario_section(const struct scenario *s, const char *name);

#endif
