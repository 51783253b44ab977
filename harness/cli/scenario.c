#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/scenario.h"

/* The text of a number macro's value, such as "65536". */
#define TEXT_OF(n) #n
#define NUMBER_TEXT(n) TEXT_OF(n)

/* The file's state while its lines are read. */
struct parse_state {
	struct scenario *s;	/* the scenario being filled */
	int line;		/* the line being read, from 1 */
	char *err;		/* where the error goes */
	size_t errlen;		/* its size */
	char *section;		/* the name of the [section] read last, NULL before the first (owned) */
	int header_line;	/* the line of that [section] header */
	bool has_key;		/* a key was read since that header: an indented line continues it */
	char **headers;		/* the [section] names seen so far, in order (owned) */
	size_t n_headers;	/* entries in headers */
};

/* Records an error as path:line: message detail. Returns -1. */
static int fail(struct parse_state *ps, const char *message, const char *detail)
{
	snprintf(ps->err, ps->errlen, "%s:%d: %s%s", ps->s->path, ps->line, message, detail ? detail : "");
	return -1;
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

/*
 * Notes the [section] called name and adds it to the scenario from its header on, keys or
 * none (an empty section is a group of [global]'s keys alone), refusing one given before
 * (it would merge into the first without a word). 0, or -1 after fail().
 */
static int note_header(struct parse_state *ps, const char *name)
{
	char **grown, *copy;

	for (size_t i = 0; i < ps->n_headers; i++)
		if (strcmp(ps->headers[i], name) == 0)
			return fail(ps, "this section was already given: ", name);
	grown = realloc(ps->headers, (ps->n_headers + 1) * sizeof(*grown));
	copy = strdup(name);
	if (grown)
		ps->headers = grown;
	if (!grown || !copy) {
		free(copy);
		return fail(ps, "out of memory", NULL);
	}
	ps->headers[ps->n_headers++] = copy;
	free(ps->section);
	ps->section = strdup(name);
	if (!ps->section)
		return fail(ps, "out of memory", NULL);
	ps->header_line = ps->line;
	ps->has_key = false;
	return add_section(ps->s, name, ps->line) ? 0 : fail(ps, "out of memory", NULL);
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

/* Takes in key = value (or the next line of its value, when continued) at the current line. 0, or -1 after fail(). */
static int on_entry(struct parse_state *ps, const char *key, const char *value, bool continued)
{
	struct scenario *s = ps->s;
	struct scenario_section *sec = s->n_sections ? &s->sections[s->n_sections - 1] : NULL;

	if (!ps->section)
		return fail(ps, "a key before any [section]; put it under [global]", NULL);
	if (continued)
		return continue_entry(&sec->entries[sec->n_entries - 1], value) < 0 ? fail(ps, "out of memory", NULL) : 0;
	if (!sec || strcmp(sec->name, ps->section) != 0) {
		sec = add_section(s, ps->section, ps->header_line);
		if (!sec)
			return fail(ps, "out of memory", NULL);
	}
	for (size_t i = 0; i < sec->n_entries; i++) {
		if (strcmp(sec->entries[i].key, key) == 0) {
			char detail[64];

			snprintf(detail, sizeof(detail), " (first at line %d)", sec->entries[i].line);
			return fail(ps, "key given twice in this section", detail);
		}
	}
	if (add_entry(sec, key, value, ps->line) < 0)
		return fail(ps, "out of memory", NULL);
	ps->has_key = true;
	return 0;
}

/* Cuts the blanks off the end of text. Returns text. */
static char *trim_end(char *text)
{
	size_t len = strlen(text);

	while (len && isspace((unsigned char)text[len - 1]))
		text[--len] = '\0';
	return text;
}

/* text past its leading blanks. */
static char *skip_blanks(char *text)
{
	while (isspace((unsigned char)*text))
		text++;
	return text;
}

/* The first of the characters stop in text, or a ';' after a blank (a comment), or the end of text. */
static char *find_stop(char *text, const char *stop)
{
	bool after_blank = false;

	for (; *text; text++) {
		if ((stop && strchr(stop, *text)) || (after_blank && *text == ';'))
			break;
		after_blank = isspace((unsigned char)*text);
	}
	return text;
}

/*
 * Reads one line (its newline cut off): a ; or # comment, a blank line, a [section]
 * header, key = value (or key: value), or an indented line that continues the value of
 * the key above it. A ';' after a blank starts a comment. 0, or -1 after fail().
 */
static int parse_line(struct parse_state *ps, char *line)
{
	bool indented = line[0] == ' ' || line[0] == '\t';
	char *start = skip_blanks(trim_end(line)), *end, *value;

	if (!*start || *start == ';' || *start == '#')
		return 0;
	if (indented && ps->has_key) {
		*find_stop(start, NULL) = '\0';
		return on_entry(ps, NULL, trim_end(start), true);
	}
	if (*start == '[') {
		end = find_stop(start + 1, "]");
		if (*end != ']')
			return fail(ps, "expected [section], key = value, or a ; or # comment", NULL);
		*end = '\0';
		return note_header(ps, start + 1);
	}
	end = find_stop(start, "=:");
	if (*end != '=' && *end != ':')
		return fail(ps, "expected [section], key = value, or a ; or # comment", NULL);
	*end = '\0';
	value = skip_blanks(end + 1);
	*find_stop(value, NULL) = '\0';
	return on_entry(ps, trim_end(start), trim_end(value), false);
}

/*
 * Reads the len bytes of text line by line into ps->s. A line of more than
 * SCENARIO_MAX_LINE bytes or one holding a NUL byte is refused. 0, or -1 after fail().
 */
static int parse_text(struct parse_state *ps, const char *text, size_t len)
{
	static const char bom[] = "\xEF\xBB\xBF";
	const char *p = text, *end = text + len;
	char *line = malloc(SCENARIO_MAX_LINE + 1);
	int rc = 0;

	if (!line)
		return fail(ps, "out of memory", NULL);
	if (len >= 3 && memcmp(p, bom, 3) == 0)
		p += 3;
	while (rc == 0 && p < end) {
		const char *newline = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((newline ? newline : end) - p);

		ps->line++;
		if (memchr(p, '\0', n))
			rc = fail(ps, "a NUL byte in the line: a scenario is text", NULL);
		else if (n > SCENARIO_MAX_LINE)
			rc = fail(ps, "line too long: a line may hold at most " NUMBER_TEXT(SCENARIO_MAX_LINE) " bytes", NULL);
		if (rc < 0)
			break;
		memcpy(line, p, n);
		line[n] = '\0';
		rc = parse_line(ps, line);
		p = newline ? newline + 1 : end;
	}
	free(line);
	return rc;
}

/*
 * Reads the whole file, at most SCENARIO_MAX_BYTES, into a new string and its length into
 * *len. 0, or -1 with "path: what went wrong" in ps->err.
 */
static int slurp(struct parse_state *ps, FILE *f, char **out, size_t *len)
{
	const char *why = "out of memory";
	size_t cap = 4096;
	char *buf = malloc(cap);

	*out = NULL;
	*len = 0;
	while (buf) {
		*len += fread(buf + *len, 1, cap - *len - 1, f);
		if (*len > SCENARIO_MAX_BYTES) {
			why = "the file is larger than the " NUMBER_TEXT(SCENARIO_MAX_BYTES) " bytes a scenario may hold";
			break;
		}
		if (*len < cap - 1) {
			if (ferror(f))
				why = "cannot read the scenario";
			else
				*out = buf;
			break;
		}
		char *grown = realloc(buf, cap * 2);

		if (!grown)
			break;
		buf = grown;
		cap *= 2;
	}
	if (buf && *out == buf) {
		buf[*len] = '\0';
		return 0;
	}
	free(buf);
	snprintf(ps->err, ps->errlen, "%s: %s", ps->s->path, why);
	return -1;
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

/* Frees what ps holds. */
static void free_state(struct parse_state *ps)
{
	for (size_t i = 0; i < ps->n_headers; i++)
		free(ps->headers[i]);
	free(ps->headers);
	free(ps->section);
}

int scenario_load(const char *path, struct scenario *out, char *err, size_t errlen)
{
	struct parse_state ps = { .s = out, .err = err, .errlen = errlen };
	struct stat st;
	size_t len;
	FILE *file;

	memset(out, 0, sizeof(*out));
	out->path = strdup(path);
	out->name = base_name(path);
	if (!out->path || !out->name) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	file = fopen(path, "r");
	if (!file) {
		snprintf(err, errlen, "%s: cannot read the scenario: %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(fileno(file), &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: cannot read the scenario: not a regular file", path);
		fclose(file);
		goto fail;
	}
	if (slurp(&ps, file, &out->text, &len) < 0) {
		fclose(file);
		goto fail;
	}
	fclose(file);
	if (parse_text(&ps, out->text, len) < 0)
		goto fail;
	free_state(&ps);
	return 0;
fail:
	free_state(&ps);
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
