/* Explore's expectations in a scenario file's [explore-expect] section (explore_scenario.h). */
#include <string.h>

#include "cli/explore_scenario.h"
#include "plugin/strategy.h"

/*
 * Reads "STRATEGY[:MODE].KIND OP N" into x, its strategy and mode among cfg's: 0; 1 when
 * they are not (replay: the line read, to be left out), or -1 with why in err.
 */
static int read_line(const char *value, const struct run_config *cfg, bool replay, struct explore_scenario_expect *x,
		     char *err, size_t errlen)
{
	const char *dot = strchr(value, '.');
	size_t len = dot ? (size_t)(dot - value) : 0;
	const char *colon = memchr(value, ':', len);
	size_t name_len = colon ? (size_t)(colon - value) : len;
	bool explored = false;

	if (!dot || name_len == 0 || name_len >= sizeof(x->strategy)) {
		snprintf(err, errlen, "expected STRATEGY[:MODE].KIND OP N, e.g. naive.duplicate >= 1");
		return -1;
	}
	snprintf(x->strategy, sizeof(x->strategy), "%.*s", (int)name_len, value);
	x->mode = -1;
	for (int m = 0; colon && claim_mode_names[m]; m++)
		if (strlen(claim_mode_names[m]) == len - name_len - 1 && strncmp(claim_mode_names[m], colon + 1,
										 len - name_len - 1) == 0)
			x->mode = m;
	if (colon && x->mode < 0) {
		snprintf(err, errlen, "unknown claim mode \"%.*s\" (hold or flip)", (int)(len - name_len - 1), colon + 1);
		return -1;
	}
	for (size_t i = 0; i < cfg->n_strategies; i++)
		explored |= strcmp(cfg->strategies[i].ops->name, x->strategy) == 0 &&
			    (x->mode < 0 || (int)cfg->strategies[i].mode == x->mode);
	if (!explored && !replay) {
		snprintf(err, errlen, "%.*s is not explored here (see --strategy and --claim-mode)", (int)len, value);
		return -1;
	}
	if (explore_expect_parse(dot + 1, &x->expect, err, errlen) < 0)
		return -1;
	return explored ? 0 : 1;
}

int explore_scenario_load(const struct scenario *sc, const struct run_config *cfg, bool replay,
			  struct explore_scenario_expects *out, char *err, size_t errlen)
{
	const struct scenario_section *sec = scenario_section(sc, EXPLORE_EXPECT_SECTION);
	char why[512];

	out->n = 0;
	out->left_out = 0;
	for (size_t i = 0; sec && i < sec->n_entries; i++) {
		const struct scenario_entry *e = &sec->entries[i];
		struct explore_scenario_expect *x = &out->items[out->n];

		if (out->n == EXPLORE_SCENARIO_MAX_EXPECTS) {
			snprintf(err, errlen, "%s:%d: [%s] holds at most %d lines", sc->path, e->line,
				 EXPLORE_EXPECT_SECTION, EXPLORE_SCENARIO_MAX_EXPECTS);
			return -1;
		}
		switch (read_line(e->value, cfg, replay, x, why, sizeof(why))) {
		case 0:
			break;
		case 1:
			out->left_out++;
			continue;
		default:
			snprintf(err, errlen, "%s:%d: explore expectation \"%s\": %s", sc->path, e->line, e->key, why);
			return -1;
		}
		snprintf(x->expect.text, sizeof(x->expect.text), "%s (%s)", e->key, e->value);
		snprintf(x->where, sizeof(x->where), "%s:%d", sc->path, e->line);
		out->n++;
	}
	return 0;
}

bool explore_scenario_applies(const struct explore_scenario_expect *x, const struct explore_result *r)
{
	return strcmp(x->strategy, r->strategy) == 0 && (x->mode < 0 || strcmp(claim_mode_name(x->mode), r->mode) == 0);
}
