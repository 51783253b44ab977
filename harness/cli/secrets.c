#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/secrets.h"
#include "db/command_secrets.h"
#include "db/conninfo.h"

/* An option whose value may hold a secret, and how that value is masked. */
struct secret_option {
	const char *name;			/* the option, without its "--" */
	char *(*masked)(const char *value);	/* its value masked, as a new string; NULL when out of memory */
};

/* Every option whose value may hold a secret: a conninfo, a shell command. */
static const struct secret_option secret_options[] = {
	{ "db", conninfo_masked },
	{ "restart-command", command_redacted },
	{ "failover-command", command_redacted },
};

/*
 * Whether arg is "--" and name or an abbreviation of it (getopt_long takes one that is no
 * other option's: no option's name is a shorter start of these names), up to its '='
 * (want_value: one is there) or its end.
 */
static bool names_option(const char *arg, const char *name, bool want_value)
{
	size_t len;

	if (strncmp(arg, "--", 2) != 0)
		return false;
	arg += 2;
	len = strcspn(arg, "=");
	return len > 0 && len <= strlen(name) && strncmp(arg, name, len) == 0 && (arg[len] == '=') == want_value;
}

/*
 * The value of an option of secret_options that argv[i] holds ("--NAME=VALUE", or after
 * "--NAME", NAME maybe abbreviated), its option into *option; NULL when it holds none.
 */
static char *secret_value(char **argv, int i, const struct secret_option **option)
{
	for (size_t k = 0; k < sizeof(secret_options) / sizeof(secret_options[0]); k++) {
		const char *name = secret_options[k].name;

		*option = &secret_options[k];
		if (names_option(argv[i], name, true))
			return strchr(argv[i], '=') + 1;
		if (i > 0 && names_option(argv[i - 1], name, false))
			return argv[i];
	}
	return NULL;
}

int secrets_hide_argv(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const struct secret_option *option;
		char *value = secret_value(argv, i, &option), *masked, *copy;
		size_t len;

		if (!value)
			continue;
		masked = option->masked(value);
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
		const struct secret_option *option;
		char *value = secret_value(argv, i, &option), *masked = value ? option->masked(value) : NULL;
		int rc = append(&line, &len, " ");

		if (rc == 0 && value && value != argv[i])
			rc = append(&line, &len, "--") < 0 || append(&line, &len, option->name) < 0 ||
			     append(&line, &len, "=") < 0 ? -1 : 0;
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

			if (strcmp(e->key, "db") == 0)
				masked = conninfo_masked(e->value);
			else if (strcmp(e->key, "restart-command") == 0 || strcmp(e->key, "failover-command") == 0)
				masked = command_redacted(e->value);
			else
				continue;
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
