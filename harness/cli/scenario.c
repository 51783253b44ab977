#include <errno.h>
#include <ini.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/scenario.h"

/* What the libinih callbacks share while a file is parsed. */
struct parse_state {
	struct scenario *s;	/* the scenario being filled */
	FILE *file;		/* the file being read */
	int line;		/* the line the reader returned last: the one the handler sees */
	char *err;		/* where the first error goes */
	size_t errlen;		/* its size */
	int failed;		/* an error was recorded */
	int failed_line;	/* the line of the recorded error */
	bool continued;		/* the line read last is indented: it continues the value above */
	int header_line;	/* the line of the [section] header read last */
	char **headers;		/* the [section] names seen so far, in order (owned) */
	size_t n_headers;	/* entries in headers */
};

/* Records an error as path:line: message, keeping the one of the earliest line. Returns 0 (an error to libinih). */
static int fail(struct parse_state *ps, int line, const char *message, const char *detail)
{
	if (ps->failed && ps->failed_line <= line)
		return 0;
	snprintf(ps->err, ps->errlen, "%s:%d: %s%s", ps->s->path, line, message, detail ? detail : "");
	ps->failed = 1;
	ps->failed_line = line;
	return 0;
}

/*
 * Notes the [section] header line holds, if any, refusing one given before: libinih
 * would merge a second [global] into the first without a word. 0, or -1 after fail().
 */
static int note_header(struct parse_state *ps, const char *line)
{
	const char *name = line + strspn(line, " \t"), *end;
	char **grown, *copy;

	if (*name != '[' || !(end = strchr(name, ']')))
		return 0;
	name++;
	name += strspn(name, " \t");
	while (end > name && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	for (size_t i = 0; i < ps->n_headers; i++) {
		if (strlen(ps->headers[i]) == (size_t)(end - name) && strncmp(ps->headers[i], name, (size_t)(end - name)) == 0) {
			fail(ps, ps->line, "this section was already given: ", ps->headers[i]);
			return -1;
		}
	}
	ps->header_line = ps->line;
	grown = realloc(ps->headers, (ps->n_headers + 1) * sizeof(*grown));
	copy = strndup(name, (size_t)(end - name));
	if (grown)
		ps->headers = grown;
	if (!grown || !copy) {
		free(copy);
		fail(ps, ps->line, "out of memory", NULL);
		return -1;
	}
	ps->headers[ps->n_headers++] = copy;
	return 0;
}

/*
 * libinih's reader: one line at a time, counting them. A line that does not fit the
 * reader's buffer, which libinih would split and read as two, or a header given twice,
 * ends the file with an error.
 */
static char *read_line(char *buf, int size, void *stream)
{
	struct parse_state *ps = stream;
	char *got = ps->failed ? NULL : fgets(buf, size, ps->file);
	size_t len;

	if (!got)
		return NULL;
	ps->line++;
	ps->continued = buf[0] == ' ' || buf[0] == '\t';
	len = strlen(buf);
	if (len + 1 == (size_t)size && buf[len - 1] != '\n' && !feof(ps->file)) {
		char detail[32];

		snprintf(detail, sizeof(detail), "%d bytes", size - 2);
		fail(ps, ps->line, "line too long: a line may hold at most ", detail);
		return NULL;
	}
	return note_header(ps, buf) < 0 ? NULL : got;
}

/* Appends a section called name, its header at line. NULL when out of memory. */
static struct scenario_section *add_section(struct scenario *s, const char *name, int line)
{
	struct scenario_section *sec;

	if (s->n_sections == s->cap_sections) {
		size_t cap = s->cap_sections ? 2 * s->cap_sections : 8;
		struct scenario_section *grown = realloc(s->sections, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		s->sections = grown;
		s->cap_sections = cap;
	}
	sec = &s->sections[s->n_sections];
	memset(sec, 0, sizeof(*sec));
	sec->name = strdup(name);
	sec->line = line;
	if (!sec->name)
		return NULL;
	s->n_sections++;
	return sec;
}

/* Appends key = value at line to sec. 0 or -1 when out of memory. */
static int add_entry(struct scenario_section *sec, const char *key, const char *value, int line)
{
	struct scenario_entry *e;

	if (sec->n_entries == sec->cap_entries) {
		size_t cap = sec->cap_entries ? 2 * sec->cap_entries : 16;
		struct scenario_entry *grown = realloc(sec->entries, cap * sizeof(*grown));

		if (!grown)
			return -1;
		sec->entries = grown;
		sec->cap_entries = cap;
	}
	e = &sec->entries[sec->n_entries];
	e->key = strdup(key);
	e->value = strdup(value);
	e->line = line;
	if (!e->key || !e->value) {
		free(e->key);
		free(e->value);
		return -1;
	}
	sec->n_entries++;
	return 0;
}

/* Appends value to e's on a line of its own (an indented line continues it). 0 or -1 when out of memory. */
static int continue_entry(struct scenario_entry *e, const char *value)
{
	size_t len = strlen(e->value);
	char *grown = realloc(e->value, len + strlen(value) + 2);

	if (!grown)
		return -1;
	grown[len] = '\n';
	strcpy(grown + len + 1, value);
	e->value = grown;
	return 0;
}

/* libinih's handler: one key = value in section. Nonzero to go on. */
static int on_entry(void *user, const char *section, const char *key, const char *value)
{
	struct parse_state *ps = user;
	struct scenario *s = ps->s;
	struct scenario_section *sec = s->n_sections ? &s->sections[s->n_sections - 1] : NULL;

	if (ps->failed)
		return 1;
	if (!*section)
		return fail(ps, ps->line, "a key before any [section]; put it under [global]", NULL);
	if (!sec || strcmp(sec->name, section) != 0) {
		if (scenario_section(s, section))
			return fail(ps, ps->line, "this section was already given: ", section);
		sec = add_section(s, section, ps->header_line);
		if (!sec)
			return fail(ps, ps->line, "out of memory", NULL);
	}
	if (ps->continued && sec->n_entries && strcmp(sec->entries[sec->n_entries - 1].key, key) == 0) {
		if (continue_entry(&sec->entries[sec->n_entries - 1], value) < 0)
			return fail(ps, ps->line, "out of memory", NULL);
		return 1;
	}
	for (size_t i = 0; i < sec->n_entries; i++) {
		if (strcmp(sec->entries[i].key, key) == 0) {
			char detail[64];

			snprintf(detail, sizeof(detail), " (first at line %d)", sec->entries[i].line);
			return fail(ps, ps->line, "key given twice in this section", detail);
		}
	}
	if (add_entry(sec, key, value, ps->line) < 0)
		return fail(ps, ps->line, "out of memory", NULL);
	return 1;
}

/* Reads the whole file into a string. NULL with errno set on failure. */
static char *slurp(FILE *f)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);

	while (buf) {
		size_t got = fread(buf + len, 1, cap - len - 1, f);

		len += got;
		if (len < cap - 1)
			break;
		char *grown = realloc(buf, cap * 2);

		if (!grown) {
			free(buf);
			return NULL;
		}
		buf = grown;
		cap *= 2;
	}
	if (buf)
		buf[len] = '\0';
	return buf;
}

/* The base name of path without a trailing ".ini", newly allocated. */
static char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *start = slash ? slash + 1 : path;
	size_t len = strlen(start);

	if (len > 4 && strcmp(start + len - 4, ".ini") == 0)
		len -= 4;
	return strndup(start, len);
}

/* Frees the header names ps noted. */
static void free_headers(struct parse_state *ps)
{
	for (size_t i = 0; i < ps->n_headers; i++)
		free(ps->headers[i]);
	free(ps->headers);
}

int scenario_load(const char *path, struct scenario *out, char *err, size_t errlen)
{
	struct parse_state ps = { .s = out, .err = err, .errlen = errlen };
	struct stat st;
	int rc;

	memset(out, 0, sizeof(*out));
	out->path = strdup(path);
	out->name = base_name(path);
	ps.file = fopen(path, "r");
	if (!ps.file) {
		snprintf(err, errlen, "%s: cannot read the scenario: %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(fileno(ps.file), &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: cannot read the scenario: not a regular file", path);
		goto fail;
	}
	out->text = slurp(ps.file);
	if (!out->path || !out->name || !out->text) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	rewind(ps.file);
	rc = ini_parse_stream(read_line, &ps, on_entry, &ps);
	if (rc > 0)
		fail(&ps, rc, "expected [section], key = value, or a ; or # comment", NULL);
	if (rc < 0 && !ps.failed)
		fail(&ps, ps.line, "cannot parse the file", NULL);
	if (ps.failed)
		goto fail;
	fclose(ps.file);
	free_headers(&ps);
	return 0;
fail:
	if (ps.file)
		fclose(ps.file);
	free_headers(&ps);
	scenario_free(out);
	return -1;
}

void scenario_free(struct scenario *s)
{
	for (size_t i = 0; i < s->n_sections; i++) {
		struct scenario_section *sec = &s->sections[i];

		for (size_t j = 0; j < sec->n_entries; j++) {
			free(sec->entries[j].key);
			free(sec->entries[j].value);
		}
		free(sec->entries);
		free(sec->name);
	}
	free(s->sections);
	free(s->path);
	free(s->name);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

const struct scenario_section *scenario_section(const struct scenario *s, const char *name)
{
	for (size_t i = 0; i < s->n_sections; i++)
		if (strcmp(s->sections[i].name, name) == 0)
			return &s->sections[i];
	return NULL;
}
