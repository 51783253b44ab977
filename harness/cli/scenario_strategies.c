#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/scenario_strategies.h"
#include "db/backend.h"

/* A definition's keys but its statements'. */
enum def_key { KEY_MODES, KEY_BACKENDS, KEY_SUMMARY, KEY_SESSION_NEEDS, KEY_COUNT };

static const char *const def_keys[KEY_COUNT] = { "modes", "backends", "summary", "session-needs" };

/* The session-needs key's names, each at the index of its SESSION_NEEDS_* bit. */
static const char *const session_need_names[] = { "prepared", "advisory", "listen", "state" };

bool scenario_strategy_section(const struct scenario_section *sec)
{
	return strncmp(sec->name, SCENARIO_STRATEGY_PREFIX, strlen(SCENARIO_STRATEGY_PREFIX)) == 0;
}

/* Writes "FILE:LINE: " and what into err. -1. */
static int refuse(const struct scenario *sc, int line, char *err, size_t errlen, const char *what)
{
	char copy[768];

	snprintf(copy, sizeof(copy), "%s", what);
	snprintf(err, errlen, "%s:%d: %s", sc->path, line, copy);
	return -1;
}

/*
 * Reads text, a comma-separated list of some of the n_names names, into bits (1 << index).
 * 0, or -1 with err naming the first one that is not in names.
 */
static int parse_names(const char *key, const char *text, const char *const *names, size_t n_names, unsigned *bits,
		       char *err, size_t errlen)
{
	*bits = 0;
	while (*text) {
		size_t len = strcspn(text, ","), i = 0;

		while (i < n_names && !(strlen(names[i]) == len && strncmp(names[i], text, len) == 0))
			i++;
		if (i == n_names) {
			size_t used = (size_t)snprintf(err, errlen, "%s: unknown name \"%.*s\"; known:", key,
						       (int)(len < 40 ? len : 40), text);

			for (size_t j = 0; j < n_names && used < errlen; j++)
				used += (size_t)snprintf(err + used, errlen - used, " %s", names[j]);
			return -1;
		}
		*bits |= 1u << i;
		text += len + (text[len] == ',');
	}
	return *bits ? 0 : (snprintf(err, errlen, "%s: expected a comma-separated list", key), -1);
}

/* Sets def's name from sec's "strategy NAME". 0, or -1 with err. */
static int take_name(const struct scenario *sc, const struct scenario_section *sec, struct sql_strategy *def,
		     char *err, size_t errlen)
{
	const char *name = sec->name + strlen(SCENARIO_STRATEGY_PREFIX);
	char what[256];
	size_t len;

	name += strspn(name, " \t");
	len = strlen(name);
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '-' && name[i] != '_')
			len = 0;
	if (len == 0 || len >= sizeof(def->name) || strcmp(name, "all") == 0) {
		snprintf(what, sizeof(what), "[%.100s]: a strategy's name is a word of letters, digits, - and _ "
			 "(at most %zu), not \"all\"", sec->name, sizeof(def->name) - 1);
		return refuse(sc, sec->line, err, errlen, what);
	}
	if (strategy_find(name)) {
		snprintf(what, sizeof(what), "[%s]: %s is a built-in strategy; give yours another name", sec->name, name);
		return refuse(sc, sec->line, err, errlen, what);
	}
	snprintf(def->name, sizeof(def->name), "%s", name);
	return 0;
}

/* The bits a definition's modes, backends and session-needs keys set. */
struct def_bits {
	unsigned modes;		/* MODE_BIT()s */
	unsigned dialects;	/* DIALECT_BIT()s */
	unsigned needs;		/* SESSION_NEEDS_* bits */
};

/*
 * Reads text, a backends key's comma-separated backend names (the registry's), into
 * *dialects: the DIALECT_BIT()s of the dialects they speak. 0, or -1 with err as parse_names.
 */
static int parse_backends(const char *key, const char *text, unsigned *dialects, char *err, size_t errlen)
{
	const char *names[32];
	size_t n = backend_registry_len < 32 ? backend_registry_len : 32;
	unsigned backends;

	for (size_t k = 0; k < n; k++)
		names[k] = backend_registry[k]->name;
	if (parse_names(key, text, names, n, &backends, err, errlen) < 0)
		return -1;
	*dialects = 0;
	for (size_t k = 0; k < n; k++)
		if (backends & (1u << k))
			*dialects |= DIALECT_BIT(backend_registry[k]->dialect);
	return 0;
}

/* Reads one key = value of sec into def; bits and def's summary take the settings. 0, or -1 with err. */
static int take_entry(const struct scenario *sc, const struct scenario_entry *e, struct sql_strategy *def,
		      struct def_bits *bits, char *err, size_t errlen)
{
	char origin[SQL_ORIGIN_MAX], why[512], what[768];
	int k = 0;

	for (int r = 0; r < SQL_ROLE_COUNT; r++) {
		if (strcmp(e->key, sql_role_key(r)) != 0)
			continue;
		snprintf(origin, sizeof(origin), "%.200s:%d: %s of strategy %s", sc->path, e->line, e->key, def->name);
		if (sql_strategy_set(def, r, e->value, origin, why, sizeof(why)) == 0)
			return 0;
		snprintf(what, sizeof(what), "%s of strategy %s: %s", e->key, def->name, why);
		return refuse(sc, e->line, err, errlen, what);
	}
	while (k < KEY_COUNT && strcmp(e->key, def_keys[k]) != 0)
		k++;
	if (k == KEY_MODES &&
	    parse_names(e->key, e->value, claim_mode_names, MODE_COUNT, &bits->modes, why, sizeof(why)) == 0)
		return 0;
	if (k == KEY_BACKENDS && parse_backends(e->key, e->value, &bits->dialects, why, sizeof(why)) == 0)
		return 0;
	if (k == KEY_SESSION_NEEDS &&
	    parse_names(e->key, e->value, session_need_names, sizeof(session_need_names) / sizeof(session_need_names[0]),
			&bits->needs, why, sizeof(why)) == 0)
		return 0;
	if (k == KEY_SUMMARY) {
		snprintf(def->summary, sizeof(def->summary), "%s", e->value);
		return 0;
	}
	if (k == KEY_COUNT)
		snprintf(why, sizeof(why), "unknown key \"%.60s\" (a strategy's keys are claim, complete, fail, modes, "
			 "backends, summary and session-needs)", e->key);
	snprintf(what, sizeof(what), "strategy %s: %s", def->name, why);
	return refuse(sc, e->line, err, errlen, what);
}

/* Reads the definition in sec into def. 0, or -1 with err. */
static int load_one(const struct scenario *sc, const struct scenario_section *sec, struct sql_strategy *def,
		    char *err, size_t errlen)
{
	const char *rest;
	struct def_bits bits = { .modes = MODE_BIT(MODE_FLIP), .dialects = DIALECT_BIT(backend_of_target("", &rest)->dialect) };
	char what[256];

	if (take_name(sc, sec, def, err, errlen) < 0)
		return -1;
	snprintf(def->summary, sizeof(def->summary), "defined in SQL in %.100s:%d", sc->path, sec->line);
	for (size_t i = 0; i < sec->n_entries; i++)
		if (take_entry(sc, &sec->entries[i], def, &bits, err, errlen) < 0)
			return -1;
	if (!def->roles[SQL_ROLE_CLAIM].given) {
		snprintf(what, sizeof(what), "[%s]: no claim key: a strategy needs its claim statement", sec->name);
		return refuse(sc, sec->line, err, errlen, what);
	}
	sql_strategy_finish(def, bits.dialects, bits.modes, bits.needs);
	return 0;
}

int scenario_strategies_load(const struct scenario *sc, struct scenario_strategies *out, char *err, size_t errlen)
{
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sc->n_sections; i++)
		n += scenario_strategy_section(&sc->sections[i]);
	if (n == 0)
		return 0;
	out->defs = calloc(n, sizeof(*out->defs));
	out->ops = calloc(n, sizeof(*out->ops));
	if (!out->defs || !out->ops) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < sc->n_sections; i++) {
		const struct scenario_section *sec = &sc->sections[i];

		if (!scenario_strategy_section(sec))
			continue;
		if (load_one(sc, sec, &out->defs[out->n], err, errlen) < 0)
			goto fail;
		for (size_t j = 0; j < out->n; j++) {
			if (strcmp(out->defs[j].name, out->defs[out->n].name) == 0) {
				refuse(sc, sec->line, err, errlen, "this strategy was already defined");
				goto fail;
			}
		}
		out->ops[out->n] = &out->defs[out->n].ops;
		out->n++;
	}
	return 0;
fail:
	scenario_strategies_free(out);
	return -1;
}

void scenario_strategies_free(struct scenario_strategies *ss)
{
	free(ss->defs);
	free(ss->ops);
	memset(ss, 0, sizeof(*ss));
}
