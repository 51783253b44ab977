#include <stdlib.h>
#include <string.h>

#include "cli/secrets.h"
#include "db/conninfo.h"

/* The --db value argv[i] holds ("--db=VALUE", or after "--db"), or NULL when it holds none. */
static char *db_value(char **argv, int i)
{
	if (strncmp(argv[i], "--db=", 5) == 0)
		return argv[i] + 5;
	if (i > 0 && strcmp(argv[i - 1], "--db") == 0)
		return argv[i];
	return NULL;
}

int secrets_hide_argv(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *value = db_value(argv, i), *masked, *copy;
		size_t len;

		if (!value)
			continue;
		masked = conninfo_masked(value);
		copy = strdup(argv[i]);
		if (!masked || !copy) {
			free(masked);
			free(copy);
			return -1;
		}
		len = strlen(value);
		if (strstr(masked, CONNINFO_MASK)) {
			size_t shown = strlen(masked) <= len ? strlen(masked) : 0;

			memcpy(value, masked, shown);
			memset(value + shown, shown ? ' ' : '*', len - shown);
		}
		free(masked);
		argv[i] = copy;
	}
	return 0;
}

/* Appends text to the growing string *buf (*len bytes in it). 0, or -1 when out of memory. */
static int append(char **buf, size_t *len, const char *text)
{
	size_t n = strlen(text);
	char *grown = realloc(*buf, *len + n + 1);

	if (!grown)
		return -1;
	memcpy(grown + *len, text, n + 1);
	*buf = grown;
	*len += n;
	return 0;
}

char *secrets_command_line(int argc, char **argv)
{
	char *line = NULL, *redacted;
	size_t len = 0;

	if (append(&line, &len, "claimbench") < 0)
		return NULL;
	for (int i = 0; i < argc; i++) {
		char *value = db_value(argv, i), *masked = value ? conninfo_masked(value) : NULL;
		int rc = append(&line, &len, " ");

		if (rc == 0 && value && value != argv[i])
			rc = append(&line, &len, "--db=");
		if (rc == 0)
			rc = append(&line, &len, value ? (masked ? masked : CONNINFO_MASK) : argv[i]);
		free(masked);
		if (rc < 0) {
			free(line);
			return NULL;
		}
	}
	redacted = conninfo_redacted(line);
	free(line);
	return redacted;
}

/* Replaces the value of the key on line (from 1) of text, after its '=', by value. 0, or -1 when out of memory. */
static int replace_value(char **text, int line, const char *value)
{
	char *start = *text, *eq, *end, *grown;
	size_t head, tail_len;

	for (int n = 1; n < line && start; n++) {
		start = strchr(start, '\n');
		start = start ? start + 1 : NULL;
	}
	if (!start)
		return 0;
	end = start + strcspn(start, "\n");
	eq = memchr(start, '=', (size_t)(end - start));
	if (!eq)
		return 0;
	head = (size_t)(eq + 1 - *text);
	tail_len = strlen(end);
	grown = malloc(head + 1 + strlen(value) + tail_len + 1);
	if (!grown)
		return -1;
	memcpy(grown, *text, head);
	grown[head] = ' ';
	strcpy(grown + head + 1, value);
	strcat(grown, end);
	free(*text);
	*text = grown;
	return 0;
}

int secrets_mask_scenario(struct scenario *sc)
{
	char *masked;

	for (size_t s = 0; s < sc->n_sections; s++) {
		for (size_t i = 0; i < sc->sections[s].n_entries; i++) {
			const struct scenario_entry *e = &sc->sections[s].entries[i];
			char *masked;
			int rc;

			if (strcmp(e->key, "db") != 0)
				continue;
			masked = conninfo_masked(e->value);
			rc = masked ? replace_value(&sc->text, e->line, masked) : -1;
			free(masked);
			if (rc < 0)
				return -1;
		}
	}
	masked = conninfo_redacted(sc->text);
	if (!masked)
		return -1;
	free(sc->text);
	sc->text = masked;
	return 0;
}
