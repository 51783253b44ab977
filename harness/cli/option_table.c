/*
 * The table of the commands' options (option_table.h), and the parsers and printers
 * (option_parse_fn, option_format_fn) of its rows whose values are more than one number or
 * word (--db, --strategy, --guard, --workers, --queue, --claim-mode, --table-prefix, the
 * fault lists) or one number with a gap in its range (--progress-interval).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "adapter/manifest.h"
#include "base/parse.h"
#include "cli/option_table.h"
#include "db/backend.h"
#include "db/conninfo.h"
#include "model/config.h"
#include "plugin/guard.h"
#include "plugin/strategy.h"
#include "store/store.h"

/* The run_config of base. */
static struct run_config *config_of(void *base)
{
	return base;
}

/*
 * Writes into buf the forms of --db's value, for a refusal: the backends' target_form, the
 * one without a prefix first ("a libpq conninfo or URI, or sqlite:PATH, or mariadb:..."); a
 * backend whose name text is (without its prefix's colon) is named with how its throwaway
 * is asked for.
 */
static void db_forms(const char *text, const struct backend_ops *skip, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int prefixed = 0; prefixed < 2; prefixed++)
		for (size_t k = 0; k < backend_registry_len && used < len; k++) {
			const struct backend_ops *db = backend_registry[k];
			bool named = text && strcasecmp(text, db->name) == 0;

			if (db == skip || !db->target_prefix != !prefixed)
				continue;
			used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s", used ? ", or " : "",
						 named ? "for " : "", named ? db->title : "", named ? " " : "");
			if (used < len)
				used += (size_t)snprintf(buf + used, len - used, "%s", db->target_form);
			if (named && db->prefix_alone_throwaway && used < len)
				used += (size_t)snprintf(buf + used, len - used, ", or %s for a throwaway", db->target_prefix);
		}
}

/*
 * --db: the driver and target, as backend_of_target reads them (sqlite:PATH, mariadb:...,
 * else a conninfo); a target NULL for a prefix alone that asks for its backend's throwaway,
 * and driver and target NULL without --db (invocation_backend chooses).
 */
static int parse_db(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct run_config *cfg = config_of(base);
	char forms[512];

	cfg->backend = NULL;
	cfg->target = NULL;
	if (!text)
		return 0;
	if (!text[strspn(text, " \t\n\r\f\v")]) {
		db_forms(NULL, NULL, forms, sizeof(forms));
		snprintf(err, errlen, "--%s: expected %s, got %s (an unset variable?); libpq would take its defaults from "
			 "the environment", o->name, forms, *text ? "only blanks" : "an empty value");
		return -1;
	}
	cfg->backend = backend_of_target(text, &cfg->target);
	if (cfg->backend->target_prefix && cfg->backend->prefix_alone_throwaway && !*cfg->target)
		cfg->target = NULL;
	if (cfg->target && !conninfo_parses(text)) {
		forms[0] = '\0';
		if (!cfg->backend->target_prefix) {
			memcpy(forms, ", or ", 6);
			db_forms(text, cfg->backend, forms + 5, sizeof(forms) - 5);
		}
		snprintf(err, errlen, "--%s: %s%s", o->name, cfg->backend->target_malformed, forms);
		cfg->backend = NULL;
		cfg->target = NULL;
		return -1;
	}
	return 0;
}

/* --db as text, its passwords masked. */
static void format_db(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;
	const char *prefix = cfg->backend && cfg->backend->target_prefix ? cfg->backend->target_prefix : "";
	char *full, *masked;

	(void)o;
	full = malloc(strlen(prefix) + (cfg->target ? strlen(cfg->target) : 0) + 1);
	if (full)
		sprintf(full, "%s%s", prefix, cfg->target ? cfg->target : "");
	masked = full ? conninfo_masked(full) : NULL;
	snprintf(buf, len, "%s", masked ? masked : CONNINFO_MASK);
	free(masked);
	free(full);
}

/*
 * --progress-interval: 0 (no lines), or from PROGRESS_MIN_INTERVAL_S to 3600 seconds; a
 * shorter interval would round to no interval at all and print nothing.
 */
static int parse_progress_interval(const struct option_def *o, const char *text, void *base, char *err,
				   size_t errlen)
{
	struct run_config *cfg = config_of(base);
	double v = 0;

	if (text && (parse_double(o->name, text, 0, 3600, &v, err, errlen) < 0 ||
		     (v > 0 && v < PROGRESS_MIN_INTERVAL_S))) {
		snprintf(err, errlen, "--%s: expected 0 (no lines) or a number from %g to 3600, got \"%s\"", o->name,
			 PROGRESS_MIN_INTERVAL_S, text);
		return -1;
	}
	cfg->progress_interval_s = v;
	return 0;
}

/* --progress-interval as text. */
static void format_progress_interval(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;

	(void)o;
	snprintf(buf, len, "%.15g", cfg->progress_interval_s);
}

/* Refuses a comma-separated list with an empty item ("1,,2", ",1", "1,"), which strtok would skip. 0, or -1 with err. */
static int check_list(const struct option_def *o, const char *text, char *err, size_t errlen)
{
	size_t len = strlen(text);

	if (len && text[0] != ',' && text[len - 1] != ',' && !strstr(text, ",,"))
		return 0;
	snprintf(err, errlen, "--%s: expected a comma-separated list without empty items, got \"%s\"", o->name, text);
	return -1;
}

/*
 * Copies the comma-separated list text into buf of len for strtok, refusing an empty item
 * or a list too long. 0, or -1 with err.
 */
static int copy_list(const struct option_def *o, const char *text, char *buf, size_t len, char *err, size_t errlen)
{
	if (check_list(o, text, err, errlen) < 0)
		return -1;
	if (strlen(text) >= len) {
		snprintf(err, errlen, "--%s: list too long", o->name);
		return -1;
	}
	strcpy(buf, text);
	return 0;
}

/* Appends strategy ops with mode (MODE_COUNT: not given) to cfg. 0, or -1 with err. */
static int add_strategy(struct run_config *cfg, const struct strategy_ops *ops, enum claim_mode mode, char *err,
			size_t errlen)
{
	if (cfg->n_strategies == MAX_STRATEGIES) {
		snprintf(err, errlen, "--strategy: at most %d strategies", MAX_STRATEGIES);
		return -1;
	}
	cfg->strategies[cfg->n_strategies++] =
		(struct strategy_choice){ .ops = ops, .mode = mode, .kind = strategy_index(ops) };
	return 0;
}

/*
 * --strategy: "all" (NULL too) or "name[:mode],...", a name "adapter:NAME" an adapter's
 * (loaded now, docs/adapters.md); modes not given are left MODE_COUNT.
 */
static int parse_strategies(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct run_config *cfg = config_of(base);
	char buf[512], *save = NULL;

	cfg->n_strategies = 0;
	cfg->all_strategies = !text || strcmp(text, "all") == 0;
	if (cfg->all_strategies) {
		for (size_t i = 0; i < strategy_registry_len; i++)
			if (add_strategy(cfg, strategy_registry[i], MODE_COUNT, err, errlen) < 0)
				return -1;
		return 0;
	}
	if (copy_list(o, text, buf, sizeof(buf), err, errlen) < 0)
		return -1;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		bool adapter = strncmp(item, ADAPTER_STRATEGY_PREFIX, strlen(ADAPTER_STRATEGY_PREFIX)) == 0;
		char *colon = strchr(adapter ? item + strlen(ADAPTER_STRATEGY_PREFIX) : item, ':');
		const struct strategy_ops *ops;
		int mode = MODE_COUNT;

		if (colon) {
			*colon = '\0';
			mode = parse_word(o->name, colon + 1, claim_mode_names, err, errlen);
			if (mode < 0)
				return -1;
		}
		if (adapter) {
			enum adapter_load_error why;
			const struct adapter_manifest *m = adapter_load(item + strlen(ADAPTER_STRATEGY_PREFIX), &why, err,
									 errlen);

			if (!m)
				return -1;
			if (add_strategy(cfg, &m->ops, (enum claim_mode)mode, err, errlen) < 0)
				return -1;
			continue;
		}
		ops = strategy_find(item);
		for (size_t i = 0; !ops && i < cfg->n_defined; i++)
			if (strcmp(cfg->defined[i]->name, item) == 0)
				ops = cfg->defined[i];
		if (!ops) {
			size_t used = (size_t)snprintf(err, errlen, "--%s: unknown strategy \"%s\"; known:", o->name, item);

			for (size_t i = 0; i < strategy_registry_len && used < errlen; i++)
				used += (size_t)snprintf(err + used, errlen - used, " %s", strategy_registry[i]->name);
			for (size_t i = 0; i < cfg->n_defined && used < errlen; i++)
				used += (size_t)snprintf(err + used, errlen - used, " %s", cfg->defined[i]->name);
			return -1;
		}
		if (add_strategy(cfg, ops, (enum claim_mode)mode, err, errlen) < 0)
			return -1;
	}
	if (cfg->n_strategies == 0) {
		snprintf(err, errlen, "--%s: expected \"all\" or a comma-separated list of strategies", o->name);
		return -1;
	}
	return 0;
}

/* --guard: "all" (NULL too) or "name,..."; whether each guards the workload is checked once all is parsed. */
static int parse_guards(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct guarded_plan *plan = &config_of(base)->guarded;
	char buf[512], *save = NULL;

	plan->n_guards = 0;
	plan->all_guards = !text || strcmp(text, "all") == 0;
	if (plan->all_guards)
		return 0;
	if (copy_list(o, text, buf, sizeof(buf), err, errlen) < 0)
		return -1;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		const struct guard_ops *g = guard_find(item);

		if (!g) {
			size_t used = (size_t)snprintf(err, errlen, "--%s: unknown guard \"%s\"; known:", o->name, item);

			for (size_t i = 0; i < guard_registry_len && used < errlen; i++)
				used += (size_t)snprintf(err + used, errlen - used, " %s", guard_registry[i]->name);
			return -1;
		}
		if (plan->n_guards == MAX_GUARDS) {
			snprintf(err, errlen, "--%s: at most %d guards", o->name, MAX_GUARDS);
			return -1;
		}
		plan->guards[plan->n_guards++] = g;
	}
	return 0;
}

/* --guard as text: "all", or the guards given. */
static void format_guards(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct guarded_plan *plan = &((const struct run_config *)base)->guarded;
	size_t used = 0;

	(void)o;
	snprintf(buf, len, "%s", plan->all_guards ? "all" : "");
	for (size_t i = 0; !plan->all_guards && i < plan->n_guards && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", plan->guards[i]->name);
}

/* --strategy as text: "all", or each strategy with the claim mode given for it. */
static void format_strategies(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;
	size_t used = 0;

	(void)o;
	snprintf(buf, len, "%s", cfg->all_strategies ? "all" : "");
	for (size_t i = 0; !cfg->all_strategies && i < cfg->n_strategies && used < len; i++) {
		const struct strategy_choice *c = &cfg->strategies[i];

		used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s", i ? "," : "", c->ops->name,
					 c->mode == MODE_COUNT ? "" : ":", c->mode == MODE_COUNT ? "" : claim_mode_name(c->mode));
	}
}

/* The longest work time a range may give, in ms (--work-ms's bound). */
#define WORK_RANGE_MAX_MS 3600000

static int parse_work_dist(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct run_config *cfg = config_of(base);
	const char *colon = strchr(text, ':'), *dash;
	char name[32], bound[64];
	int dist;

	snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - text) : (int)strlen(text), text);
	dist = parse_word(o->name, name, work_dist_names, err, errlen);
	if (dist < 0)
		return -1;
	cfg->work_dist = dist;
	cfg->work_min_ms = cfg->work_max_ms = 0;
	if (!colon)
		return 0;
	if (dist != WORK_UNIFORM) {
		snprintf(err, errlen, "--%s %s: only uniform takes a range (uniform:MIN-MAX); %s is given by its mean, "
			 "--work-ms", o->name, text, name);
		return -1;
	}
	dash = strchr(colon + 1, '-');
	if (!dash) {
		snprintf(err, errlen, "--%s %s: expected uniform:MIN-MAX, work times in ms (uniform:5-50)", o->name, text);
		return -1;
	}
	snprintf(bound, sizeof(bound), "%.*s", (int)(dash - colon - 1), colon + 1);
	if ((size_t)(dash - colon - 1) >= sizeof(bound) ||
	    parse_double(o->name, bound, 0, WORK_RANGE_MAX_MS, &cfg->work_min_ms, err, errlen) < 0 ||
	    parse_double(o->name, dash + 1, 0, WORK_RANGE_MAX_MS, &cfg->work_max_ms, err, errlen) < 0) {
		snprintf(err, errlen, "--%s %s: MIN and MAX are work times in ms, from 0 to %d (uniform:5-50)", o->name,
			 text, WORK_RANGE_MAX_MS);
		return -1;
	}
	if (cfg->work_min_ms >= cfg->work_max_ms) {
		snprintf(err, errlen, "--%s %s: MIN must be below MAX (one work time for every job is --work-dist fixed "
			 "--work-ms T)", o->name, text);
		return -1;
	}
	cfg->work_ms = (cfg->work_min_ms + cfg->work_max_ms) / 2;
	return 0;
}

static void format_work_dist(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;

	(void)o;
	if (cfg->work_max_ms > 0)
		snprintf(buf, len, "uniform:%g-%g", cfg->work_min_ms, cfg->work_max_ms);
	else
		snprintf(buf, len, "%s", work_dist_name((enum work_dist)cfg->work_dist));
}

/* --workers: "w1,w2,...", each from 1 to MAX_WORKERS. */
static int parse_workers(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct run_config *cfg = config_of(base);
	char buf[512], *save = NULL;
	long v;

	if (copy_list(o, text, buf, sizeof(buf), err, errlen) < 0)
		return -1;
	cfg->n_worker_points = 0;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (cfg->n_worker_points == MAX_WORKER_POINTS) {
			snprintf(err, errlen, "--%s: at most %d worker counts", o->name, MAX_WORKER_POINTS);
			return -1;
		}
		if (parse_long(o->name, item, 1, MAX_WORKERS, &v, err, errlen) < 0)
			return -1;
		cfg->workers[cfg->n_worker_points++] = (int)v;
	}
	if (cfg->n_worker_points == 0) {
		snprintf(err, errlen, "--%s: expected a comma-separated list of worker counts", o->name);
		return -1;
	}
	return 0;
}

/* --workers as text. */
static void format_workers(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;
	size_t used = 0;

	(void)o;
	buf[0] = '\0';
	for (size_t i = 0; i < cfg->n_worker_points && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "", cfg->workers[i]);
}

/* --repeat: a whole number from 1 to 1000, or auto (0). */
static int parse_repeat(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct run_config *cfg = config_of(base);
	char *end;
	long v;

	if (strcmp(text, "auto") == 0) {
		cfg->repeat = 0;
		return 0;
	}
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < 1 || v > 1000) {
		snprintf(err, errlen, "--%s: expected a whole number from 1 to 1000 or auto, got \"%s\"", o->name, text);
		return -1;
	}
	cfg->repeat = (int)v;
	return 0;
}

/* --repeat as text: its number, or auto. */
static void format_repeat(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;

	(void)o;
	if (cfg->repeat > 0)
		snprintf(buf, len, "%d", cfg->repeat);
	else
		snprintf(buf, len, "auto");
}

/* --queue: "name,name,...", 1 to MAX_QUEUES names of 1 to QUEUE_NAME_MAX - 1 bytes. */
static int parse_queues(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct run_config *cfg = config_of(base);

	cfg->n_queues = 0;
	for (const char *item = text;; item += strcspn(item, ",") + 1) {
		size_t len = strcspn(item, ",");

		if (len == 0 || len >= QUEUE_NAME_MAX || cfg->n_queues == MAX_QUEUES) {
			snprintf(err, errlen, "--%s: expected 1 to %d comma-separated names of 1 to %d bytes", o->name,
				 MAX_QUEUES, QUEUE_NAME_MAX - 1);
			return -1;
		}
		snprintf(cfg->queues[cfg->n_queues++], QUEUE_NAME_MAX, "%.*s", (int)len, item);
		if (!item[len])
			return 0;
	}
}

/* --queue as text. */
static void format_queues(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;
	size_t used = 0;

	(void)o;
	buf[0] = '\0';
	for (int i = 0; i < cfg->n_queues && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", cfg->queues[i]);
}

/* --claim-mode: hold or flip; NULL: each strategy's own. */
static int parse_claim_mode(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct run_config *cfg = config_of(base);
	int mode = text ? parse_word(o->name, text, claim_mode_names, err, errlen) : MODE_COUNT;

	if (mode < 0)
		return -1;
	cfg->claim_mode = (enum claim_mode)mode;
	return 0;
}

/* --claim-mode as text, "" when not given. */
static void format_claim_mode(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;

	(void)o;
	snprintf(buf, len, "%s", cfg->claim_mode == MODE_COUNT ? "" : claim_mode_name(cfg->claim_mode));
}

/* --table-prefix: 1 to 48 letters, digits, _ - or .; NULL: the run's own. */
static int parse_table_prefix(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	static const char allowed[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.";
	struct run_config *cfg = config_of(base);

	cfg->table_prefix = text;
	if (!text)
		return 0;
	if (strlen(text) == 0 || strlen(text) > 48 || strspn(text, allowed) != strlen(text)) {
		snprintf(err, errlen, "--%s: expected 1 to 48 letters, digits, _ - or ., got \"%s\"", o->name, text);
		return -1;
	}
	return 0;
}

/* --table-prefix as text, "" for the run's own. */
static void format_table_prefix(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;

	(void)o;
	snprintf(buf, len, "%s", cfg->table_prefix ? cfg->table_prefix : "");
}

/* The fault trigger row o's offset points at in base. */
static struct fault_trigger *trigger_of(const struct option_def *o, void *base)
{
	return (struct fault_trigger *)((char *)base + o->offset);
}

/* The same, read-only. */
static const struct fault_trigger *trigger_in(const struct option_def *o, const void *base)
{
	return (const struct fault_trigger *)((const char *)base + o->offset);
}

/* Reads one item of a fault list into t at its place n. 0, or -1 with err. */
typedef int (*fault_item_fn)(const struct option_def *o, const char *item, struct fault_trigger *t, size_t n,
			     char *err, size_t errlen);

/* A --KIND-at item: an instant in seconds after the start, 0 to 86400. */
static int read_instant(const struct option_def *o, const char *item, struct fault_trigger *t, size_t n, char *err,
			size_t errlen)
{
	return parse_double(o->name, item, 0, 86400, &t->at_s[n], err, errlen);
}

/* A --KIND-exec item: the N-th execution of the run, from 1. */
static int read_exec_number(const struct option_def *o, const char *item, struct fault_trigger *t, size_t n,
			    char *err, size_t errlen)
{
	return parse_long(o->name, item, 1, 100000000, &t->exec[n], err, errlen);
}

/* Reads text, a comma-separated list of at most MAX_FAULT_POINTS items, with read into t; *count the items read. */
static int parse_fault_list(const struct option_def *o, const char *text, struct fault_trigger *t, size_t *count,
			    fault_item_fn read, char *err, size_t errlen)
{
	char buf[1024], *save = NULL;

	*count = 0;
	if (!text)
		return 0;
	if (copy_list(o, text, buf, sizeof(buf), err, errlen) < 0)
		return -1;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (*count == MAX_FAULT_POINTS) {
			snprintf(err, errlen, "--%s: at most %d items", o->name, MAX_FAULT_POINTS);
			return -1;
		}
		if (read(o, item, t, (*count)++, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* --KIND-at: instants in seconds after the start, comma-separated; NULL: none. */
static int parse_instants(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct fault_trigger *t = trigger_of(o, base);

	return parse_fault_list(o, text, t, &t->n_at, read_instant, err, errlen);
}

/* --KIND-at as text. */
static void format_instants(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct fault_trigger *t = trigger_in(o, base);
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->n_at && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%g", i ? "," : "", t->at_s[i]);
}

/* --KIND-exec: the N-th executions of the run (from 1), comma-separated; NULL: none. */
static int parse_exec_numbers(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct fault_trigger *t = trigger_of(o, base);

	return parse_fault_list(o, text, t, &t->n_exec, read_exec_number, err, errlen);
}

/* --KIND-exec as text. */
static void format_exec_numbers(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct fault_trigger *t = trigger_in(o, base);
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->n_exec && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%ld", i ? "," : "", t->exec[i]);
}

/* --phase: the run's timeline, KIND[:ARG]:DURATION items comma-separated (repeated --phase joined so); NULL: none. */
static int parse_phases(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct timeline *tl = (struct timeline *)((char *)base + o->offset);

	tl->n = 0;
	return text ? timeline_parse(text, tl, err, errlen) : 0;
}

/* --phase as text. */
static void format_phases(const struct option_def *o, const void *base, char *buf, size_t len)
{
	timeline_format((const struct timeline *)((const char *)base + o->offset), buf, len);
}

const char *const export_formats[] = { [EXPORT_CSV] = "csv", [EXPORT_JSON] = "json", NULL };
const char *const compare_formats[] = { [COMPARE_TABLE] = "table", [COMPARE_JSON] = "json",
						[COMPARE_MARKDOWN] = "markdown", [COMPARE_JUNIT] = "junit", NULL };

/* A macro's value as a string literal, for a default. */
#define STRINGIFY(x) #x
#define TEXT_OF(x) STRINGIFY(x)

/*
 * The commands that take run's rows: run, and explore, which runs its workers' statements one
 * step at a time. A row explore does not honour (a timed run, faults, the server's samples,
 * the guarded workloads ...) is run's alone, RUN_ONLY_ROW: explore refuses it by name
 * (option_set_refuses), on its command line and in a scenario file.
 */
#define RUN_COMMANDS (COMMAND_BIT(COMMAND_RUN) | COMMAND_BIT(COMMAND_EXPLORE))

/* A row of `run` that lands in run_config's member. */
#define RUN_ROW(opt_name, opt_type, member) \
	.name = opt_name, .type = opt_type, .place = OPTION_IN_RUN, .commands = RUN_COMMANDS, \
	.offset = offsetof(struct run_config, member)

/* A row of `run` alone (not explore's) that lands in run_config's member. */
#define RUN_ONLY_ROW(opt_name, opt_type, member) \
	.name = opt_name, .type = opt_type, .place = OPTION_IN_RUN, .commands = COMMAND_BIT(COMMAND_RUN), \
	.offset = offsetof(struct run_config, member)

/* A row of `run` alone (not explore's) parsed by its own functions. */
#define RUN_ONLY_CUSTOM(opt_name, parse_fn, format_fn) \
	.name = opt_name, .type = OPTION_CUSTOM, .place = OPTION_IN_RUN, .commands = COMMAND_BIT(COMMAND_RUN), \
	.parse = parse_fn, .format = format_fn

/* A row of `run` parsed by its own functions. */
#define RUN_CUSTOM(opt_name, parse_fn, format_fn) \
	.name = opt_name, .type = OPTION_CUSTOM, .place = OPTION_IN_RUN, .commands = RUN_COMMANDS, \
	.parse = parse_fn, .format = format_fn

/* A row of explore's own that lands in command_settings.explore's member. */
#define EXPLORE_ROW(opt_name, opt_type, member) \
	.name = opt_name, .type = opt_type, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_EXPLORE), \
	.offset = offsetof(struct command_settings, explore.member)

/* A row of explore's own parsed by its own functions (explore/explore_options.c), given command_settings.explore. */
#define EXPLORE_CUSTOM(opt_name, parse_fn, format_fn) \
	.name = opt_name, .type = OPTION_CUSTOM, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_EXPLORE), \
	.offset = offsetof(struct command_settings, explore), .parse = parse_fn, .format = format_fn

/* The three rows that say when faults of kind strike: --NAME-at, --NAME-exec and --NAME-rate (run's alone). */
#define FAULT_ROWS(name, kind, what)                                                                               \
	{ RUN_ONLY_CUSTOM(name "-at", parse_instants, format_instants), .offset = offsetof(struct run_config, faults.when[kind]), \
	  .arg = "S,...", .help = what " at these instants, seconds after the start" },                               \
	{ RUN_ONLY_CUSTOM(name "-exec", parse_exec_numbers, format_exec_numbers),                                    \
	  .offset = offsetof(struct run_config, faults.when[kind]), .arg = "N,...",                                   \
	  .help = what " in the N-th executions of the run (from 1), which makes the count exact" },                  \
	{ RUN_ONLY_ROW(name "-rate", OPTION_DOUBLE, faults.when[kind].rate), .flags = OPTION_SWEEP, .min = 0, .max = 1, \
	  .arg = "P", .help = what " in an execution with this chance, drawn from --seed per job and execution" }

const struct option_def command_options[] = {
	{ EXPLORE_ROW("claims", OPTION_LONG, claims), .min = 1, .max = 1000, .def = "2", .arg = "C",
	  .help = "claims each worker makes" },
	{ EXPLORE_ROW("crash", OPTION_FLAG, crashes),
	  .help = "a worker may crash between any two of its statements (one crash per schedule)" },
	{ EXPLORE_ROW("sample", OPTION_LONG, sample), .min = 1, .max = 100000000, .arg = "N",
	  .help = "run N seeded (--seed) random schedules, not every one" },
	{ EXPLORE_ROW("schedule", OPTION_TEXT, schedule), .arg = "TRACE",
	  .help = "replay one schedule: worker numbers, cN (a crash), e (leases expire)" },
	{ EXPLORE_ROW("max-steps", OPTION_LONG, max_steps), .min = 1, .max = 100000, .arg = "N",
	  .help = "the most statements a worker sends in one schedule (default 6C+6): a schedule that reaches it "
		  "is counted bounded, not checked; at most 510/K for K workers (a schedule holds 512 choices)" },
	{ EXPLORE_ROW("max-schedules", OPTION_LONG, max_schedules), .min = 1, .max = 1000000000,
	  .def = TEXT_OF(EXPLORE_DEFAULT_MAX_SCHEDULES), .arg = "N",
	  .help = "stop the depth-first search after N schedules" },
	{ EXPLORE_CUSTOM("expect", parse_explore_expect, format_explore_expect), .arg = "'KIND OP N'",
	  .help = "schedules with KIND (duplicate, lost, stuck, zombie, deadlock, lock-error, empty-claimable, "
		  "fifo-inversion, error, violation, blocked, bounded, schedules, redelivered, fenced) compared with "
		  "N (OP: == != < <= > >=), per strategy and mode; exit 1 when it fails; up to "
		  TEXT_OF(EXPLORE_MAX_EXPECTS) " of them" },
	{ EXPLORE_CUSTOM("show", parse_explore_show, format_explore_show), .arg = "KIND",
	  .help = "show the shortest schedule of KIND (a kind of --expect) first" },
	{ RUN_CUSTOM("db", parse_db, format_db), .flags = OPTION_NOT_STORED, .arg = "CONNINFO",
	  .help = "a libpq conninfo or URI, or sqlite:PATH for an SQLite file (created when missing), or sqlite: "
		  "alone for a throwaway SQLite file, or mariadb://USER@HOST:PORT/DB or mariadb:KEY=VALUE... for a "
		  "MariaDB server, or mariadb: alone for a throwaway one; default: a throwaway PostgreSQL server in a "
		  "temporary directory. A password is better given in PGPASSWORD, a service file or PGPASSFILE "
		  "(MariaDB: MYSQL_PWD); one given here is masked in everything claimbench keeps or prints, and in "
		  "what ps shows" },
	{ RUN_CUSTOM("strategy", parse_strategies, format_strategies), .flags = OPTION_NOT_STORED, .def = "all",
	  .arg = "LIST", .help = "strategies, comma-separated, each NAME or NAME:MODE; all: every one the backend can run" },
	{ RUN_CUSTOM("claim-mode", parse_claim_mode, format_claim_mode), .flags = OPTION_NOT_STORED, .arg = "MODE",
	  .help = "hold or flip, for the strategies given without a mode (default: each one's own)" },
	{ RUN_ONLY_ROW("workload", OPTION_WORD, guarded.workload), .words = workload_names, .def = "queue", .arg = "W",
	  .help = "what the workers do: queue (claim jobs, the strategies), or a guarded resource (docs/guarded.md): "
		  "refresh (seed 003: check a shared cache, refresh it when stale), exclusive-use (seed 003: users "
		  "hold the cache table locked, a refresher waits) or resource (seed 004: a ticket line over "
		  "--resources); a guarded run lasts --duration (default 2 s)" },
	{ RUN_ONLY_CUSTOM("guard", parse_guards, format_guards), .flags = OPTION_NOT_STORED, .def = "all", .arg = "LIST",
	  .help = "a guarded workload's guards, comma-separated; all: every one of the workload the backend can run "
		  "(claimbench list guards)" },
	{ RUN_ONLY_ROW("stale-interval-ms", OPTION_INT, guarded.stale_ms), .flags = OPTION_SWEEP, .min = 1, .max = 3600000,
	  .def = "200", .arg = "MS", .help = "refresh, exclusive-use: the cache goes stale every MS (a stale period)" },
	{ RUN_ONLY_ROW("refresh-ms", OPTION_INT, guarded.refresh_ms), .flags = OPTION_SWEEP, .min = 0, .max = 3600000,
	  .def = "20", .arg = "MS", .help = "refresh, exclusive-use: a refresh takes MS between writing its two "
					      "halves: the window in which the cache is half-written" },
	{ RUN_ONLY_ROW("wait-limit-ms", OPTION_INT, guarded.wait_limit_ms), .flags = OPTION_SWEEP, .min = 1, .max = 3600000,
	  .def = "50", .arg = "MS",
	  .help = "row-lock-wait: how long the lock may be waited for (lock_timeout on PostgreSQL, the busy timeout on "
		  "SQLite, FOR UPDATE WAIT n on MariaDB: a multiple of 1000 there); a timeout is counted and its worker "
		  "uses the cache unchecked" },
	{ RUN_ONLY_ROW("retry-ms", OPTION_INT, guarded.retry_ms), .flags = OPTION_SWEEP, .min = 0, .max = 3600000,
	  .def = "5", .arg = "MS", .help = "nowait-retry, truncate-nowait: pause before trying a refused lock again" },
	{ RUN_ONLY_ROW("line-poll-ms", OPTION_INT, guarded.poll_ms), .flags = OPTION_SWEEP, .min = 0, .max = 3600000,
	  .def = "5", .arg = "MS", .help = "ticket-line: pause between a ticket's polls of the line" },
	{ RUN_ONLY_ROW("resources", OPTION_INT, guarded.resources), .flags = OPTION_SWEEP, .min = 1, .max = 1000,
	  .def = "1", .arg = "N", .help = "resource: the resources requests spread over, uniformly" },
	{ RUN_ONLY_ROW("limit", OPTION_INT, guarded.limit), .flags = OPTION_SWEEP, .min = 1, .max = MAX_WORKERS,
	  .def = "1", .arg = "X", .help = "resource: at most X holders of one resource at once (top-X); a write "
					    "always holds it alone" },
	{ RUN_ONLY_ROW("write-share", OPTION_DOUBLE, guarded.write_share), .flags = OPTION_SWEEP, .min = 0, .max = 1,
	  .def = "0", .arg = "F", .help = "resource: the share of requests that are writes (readers go unless a "
					    "write is ahead of them in the line; a write goes when first)" },
	{ RUN_ONLY_ROW("ticket-expiry-ms", OPTION_INT, guarded.ticket_expiry_ms), .flags = OPTION_SWEEP, .min = 0,
	  .max = 3600000, .arg = "MS", .help = "ticket-line: each poll first deletes tickets taken over MS ago, "
					       "a crashed holder's (0: never)" },
	{ RUN_ONLY_ROW("abandon-share", OPTION_DOUBLE, guarded.abandon_share), .flags = OPTION_SWEEP, .min = 0, .max = 1,
	  .arg = "F", .help = "ticket-line: the share of holders that leave without deleting their ticket, as a "
			      "crashed participant does" },
	{ RUN_CUSTOM("workers", parse_workers, format_workers), .flags = OPTION_NOT_STORED, .def = "10",
	  .arg = "LIST", .help = "worker counts, comma-separated; each strategy runs at each" },
	{ RUN_ROW("jobs", OPTION_LONG, jobs), .flags = OPTION_SWEEP, .min = 1, .max = 100000000, .def = "200",
	  .arg = "N", .help = "jobs in the backlog" },
	{ RUN_ONLY_ROW("work-ms", OPTION_DOUBLE, work_ms), .flags = OPTION_SWEEP, .min = 0, .max = 3600000, .def = "100",
	  .arg = "MS", .help = "mean work time per job" },
	{ RUN_ONLY_CUSTOM("work-dist", parse_work_dist, format_work_dist), .flags = OPTION_SWEEP, .def = "fixed",
	  .arg = "D",
	  .help = "how work times are drawn: fixed, uniform (0 to 2x the mean), uniform:MIN-MAX (a range in ms, its "
		  "mean the --work-ms), exp, or the heavy-tailed lognormal (--work-sigma) and pareto (--work-alpha, cut "
		  "at 1000x the mean), so that some jobs outlast a lease" },
	{ RUN_ONLY_ROW("work-sigma", OPTION_DOUBLE, work_sigma), .flags = OPTION_SWEEP, .min = 0.01, .max = 5, .def = "1",
	  .arg = "S", .help = "lognormal work times: the sigma of the underlying normal (the larger, the heavier the tail)" },
	{ RUN_ONLY_ROW("work-alpha", OPTION_DOUBLE, work_alpha), .flags = OPTION_SWEEP, .min = 1.05, .max = 10, .def = "1.5",
	  .arg = "A", .help = "pareto work times: the tail index (the smaller, the heavier the tail)" },
	{ RUN_ONLY_ROW("duration", OPTION_DOUBLE, duration_s), .flags = OPTION_SWEEP, .min = 0.001, .max = 86400,
	  .arg = "S", .help = "a timed run of S seconds instead of draining the backlog" },
	{ RUN_ONLY_ROW("warmup", OPTION_DOUBLE, warmup_s), .flags = OPTION_SWEEP, .min = 0, .max = 86400, .arg = "S",
	  .help = "a timed run: leave its first S seconds out of the rate and latency figures (throughput, claim "
		  "latency, shares, queue wait); duplicates, losses and errors still count over the whole run" },
	{ RUN_ONLY_ROW("arrival-rate", OPTION_DOUBLE, arrival_rate), .flags = OPTION_SWEEP, .min = 0, .max = 1000000,
	  .arg = "R", .help = "open-loop arrivals: producers insert R jobs/s in all after the backlog (0: none); "
			      "a drain run ends when they are done and the queue is empty" },
	{ RUN_ONLY_ROW("arrival-s", OPTION_DOUBLE, arrival_s), .flags = OPTION_SWEEP, .min = 0.001, .max = 86400,
	  .arg = "S", .help = "how long producers insert (default: --duration; required in a drain run; "
			      "only with --arrival-rate)" },
	{ RUN_ONLY_ROW("producers", OPTION_INT, producers), .flags = OPTION_SWEEP, .min = 1, .max = MAX_WORKERS,
	  .def = "1", .arg = "N", .help = "producer threads, each with its own connection" },
	{ RUN_ONLY_CUSTOM("repeat", parse_repeat, format_repeat), .flags = OPTION_NOT_STORED, .def = "1",
	  .arg = "N|auto", .help = "repetitions of each strategy x worker count, 1 to 1000; auto: repeat each until "
	  "its throughput's 95 % interval is within --repeat-ci of its mean (3 runs at least) or --repeat-max" },
	{ RUN_ONLY_ROW("repeat-ci", OPTION_DOUBLE, repeat_ci_pct), .flags = OPTION_NOT_STORED, .min = 0.1, .max = 100,
	  .def = "5", .arg = "PCT", .help = "--repeat auto: the throughput's 95 % interval half-width sought, % of its "
	  "mean" },
	{ RUN_ONLY_ROW("repeat-max", OPTION_INT, repeat_max), .flags = OPTION_NOT_STORED, .min = REPEAT_AUTO_MIN,
	  .max = 1000, .def = "10", .arg = "N", .help = "--repeat auto: the most runs of one strategy x worker count" },
	{ RUN_ROW("format", OPTION_WORD, format), .flags = OPTION_NOT_STORED, .words = output_format_names,
	  .def = "table", .arg = "F", .help = "the output: table, csv or json" },
	{ RUN_ROW("seed", OPTION_U64, seed), .flags = OPTION_SWEEP, .min = 0, .max = (double)LONG_MAX, .def = "1",
	  .arg = "N", .help = "seed of the work-time draw and the injected failures" },
	{ RUN_CUSTOM("queue", parse_queues, format_queues), .def = "default", .arg = "LIST",
	  .help = "task classes sharing the table, comma-separated; jobs and workers are dealt to them in turn" },
	{ RUN_ONLY_ROW("fail-rate", OPTION_DOUBLE, fail_rate), .flags = OPTION_SWEEP, .min = 0, .max = 1, .arg = "P",
	  .help = "share of jobs (0 to 1) whose first pass fails and is marked error" },
	{ RUN_ONLY_ROW("rerun-errors", OPTION_FLAG, rerun_errors),
	  .help = "once the queue is drained, clear the errors and drain it again (seed 000)" },
	{ RUN_ONLY_ROW("empty-retries", OPTION_INT, empty_retries), .flags = OPTION_SWEEP, .min = 0, .max = 1000000,
	  .arg = "N", .help = "claim again at once up to N times after an empty claim (seed 002)" },
	{ RUN_CUSTOM("table-prefix", parse_table_prefix, format_table_prefix), .flags = OPTION_NOT_STORED, .arg = "P",
	  .help = "prefix of the run's table names (default claimbench_<pid>_)" },
	{ RUN_ONLY_ROW("replicas", OPTION_INT, replicas), .min = 1, .max = 64, .def = "1", .arg = "R",
	  .help = "an adapter's processes (--strategy adapter:NAME), each with --workers workers" },
	{ RUN_ONLY_ROW("adapter-silence-ms", OPTION_INT, adapter_silence_ms), .flags = OPTION_NOT_STORED, .min = 100,
	  .max = 3600000, .def = "10000", .arg = "MS",
	  .help = "an adapter whose replicas write no line this long is stopped: the run is incomplete" },
	{ RUN_ONLY_ROW("crash-replica-at", OPTION_DOUBLE, crash_replica_at_s), .min = 0, .max = 86400, .def = "0",
	  .arg = "S", .help = "SIGKILL an adapter's replica 0 this many seconds after the start, or once it next "
		  "holds a job after that; 0: never" },
	{ RUN_ONLY_ROW("replica-respawn-ms", OPTION_INT, replica_respawn_ms), .min = 0, .max = 3600000, .def = "0",
	  .arg = "MS", .help = "after --crash-replica-at, start a replacement for the killed replica this long after "
		  "its output ended: a new process in its seats; 0: none" },
	{ RUN_ONLY_ROW("empty-wait-ms", OPTION_INT, empty_wait_ms), .flags = OPTION_SWEEP, .min = 0, .max = 60000,
	  .def = "5", .arg = "MS", .help = "pause after an empty claim while jobs remain" },
	{ RUN_ONLY_ROW("sqlite-journal", OPTION_WORD, db_opts.sqlite_journal), .flags = OPTION_SWEEP,
	  .words = sqlite_journal_modes, .def = "wal", .arg = "M",
	  .help = "SQLite journal mode: delete, truncate, persist, memory, wal or off" },
	{ RUN_ONLY_ROW("sqlite-synchronous", OPTION_WORD, db_opts.sqlite_synchronous), .flags = OPTION_SWEEP,
	  .words = sqlite_synchronous_levels, .def = "normal", .arg = "L",
	  .help = "SQLite synchronous level: off, normal, full or extra" },
	{ RUN_ONLY_ROW("sqlite-busy-timeout-ms", OPTION_INT, db_opts.sqlite_busy_timeout_ms), .flags = OPTION_SWEEP,
	  .min = 0, .max = 3600000, .def = "5000", .arg = "MS",
	  .help = "SQLite: how long a statement waits for the write lock" },
	{ RUN_ROW("isolation", OPTION_WORD, db_opts.isolation), .flags = OPTION_SWEEP,
	  .words = isolation_names, .def = "server", .arg = "L",
	  .help = "MariaDB: isolation level of every connection: server (InnoDB's default, REPEATABLE READ), "
		  "repeatable-read or read-committed" },
	{ RUN_ROW("lock-timeout-ms", OPTION_INT, db_opts.lock_timeout_ms), .flags = OPTION_SWEEP, .min = 0,
	  .max = 3600000, .arg = "MS",
	  .help = "PostgreSQL: lock_timeout of every connection, so that no statement waits longer for a lock "
		  "(0: none); a timeout counts as lock_not_available. MariaDB: innodb_lock_wait_timeout, rounded "
		  "up to seconds; a timeout counts as lock_wait_timeout" },
	{ RUN_ROW("statement-timeout-ms", OPTION_INT, db_opts.statement_timeout_ms), .flags = OPTION_SWEEP, .min = 0,
	  .max = 3600000, .arg = "MS", .help = "PostgreSQL: statement_timeout of every connection (0: none); "
	  "MariaDB: max_statement_time" },
	{ RUN_ROW("pipeline", OPTION_FLAG, db_opts.pipeline),
	  .help = "PostgreSQL: a worker sends a claim transaction's statements in libpq's pipeline mode where they "
		  "do not wait on each other's answers (BEGIN with the first statement, the last with COMMIT): "
		  "fewer round trips" },
	{ RUN_ONLY_ROW("pooler", OPTION_WORD, pooler), .words = pooler_mode_names,
	  .def = "none", .arg = "MODE",
	  .help = "PostgreSQL: workers and producers connect through a throwaway pgbouncer in this pool mode, "
		  "session or transaction (none: to the server itself); the harness's own connections do not "
		  "(docs/pooler.md)" },
	{ RUN_ONLY_ROW("server-connections", OPTION_INT, server_connections), .min = 1, .max = 1000, .def = "10", .arg = "N",
	  .help = "--pooler: the server connections pgbouncer's pool keeps at most, however many workers there are" },
	{ RUN_ONLY_ROW("verify", OPTION_FLAG, verify),
	  .help = "record every committed change to the run's own tables by trigger, derive the "
		  "integrity figures from that record alone and compare them with the ledger's; a difference "
		  "is printed with its jobs and fails the run (exit 5). The triggers cost the server time "
		  "(docs/metrics.md)" },
	FAULT_ROWS("crash", FAULT_CRASH, "a worker crashes in the middle of its job (its connection dropped with no "
				       "COMMIT or ROLLBACK; a replacement starts after --respawn-ms)"),
	{ RUN_ONLY_ROW("respawn-ms", OPTION_INT, faults.respawn_ms), .flags = OPTION_SWEEP, .min = 0, .max = 3600000,
	  .def = "500", .arg = "MS", .help = "how long after a crash the replacement worker, a new identity, starts" },
	FAULT_ROWS("stall", FAULT_STALL, "a worker's job hangs in the middle for --stall-ms, then resumes and "
				       "completes"),
	{ RUN_ONLY_ROW("stall-ms", OPTION_INT, faults.stall_ms), .flags = OPTION_SWEEP, .min = 1, .max = 3600000,
	  .def = "2000", .arg = "MS", .help = "how long a stall holds its job up (a heartbeat goes on beating)" },
	FAULT_ROWS("kill-backend", FAULT_KILL_BACKEND, "PostgreSQL: a worker's server process is terminated "
					    "(pg_terminate_backend), by -exec and -rate in the middle of that "
					    "execution's job, by -at whatever the worker is doing"),
	{ RUN_ONLY_CUSTOM("restart-at", parse_instants, format_instants), .offset = offsetof(struct run_config,
	  faults.when[FAULT_RESTART]), .arg = "S,...",
	  .help = "the server restarts in immediate mode (crash recovery) at these instants: the throwaway one by "
		  "claimbench, a server of your own by --restart-command" },
	{ RUN_ONLY_ROW("restart-command", OPTION_TEXT, faults.restart_command), .flags = OPTION_NOT_STORED, .arg = "CMD",
	  .help = "a shell command that restarts your server in immediate mode, for --restart-at with --db" },
	{ RUN_ONLY_ROW("restart-limit-s", OPTION_DOUBLE, faults.restart_limit_s), .flags = OPTION_NOT_STORED, .min = 0.1,
	  .max = 3600, .def = "60", .arg = "S",
	  .help = "how long --restart-command may run: then its process group is ended (SIGTERM, SIGKILL a second "
		  "later) and the run is incomplete; a stop ends it at once" },
	{ RUN_ONLY_ROW("standby", OPTION_WORD, faults.standby), .words = standby_mode_names, .def = "none", .arg = "MODE",
	  .help = "the throwaway PostgreSQL gets a streaming standby (pg_basebackup, a replication slot) that "
		  "--failover-at promotes: async, sync (synchronous_commit on, synchronous_standby_names the standby) or remote-apply "
		  "(synchronous_commit remote_apply); clients connect to both, target_session_attrs=read-write" },
	{ RUN_ONLY_CUSTOM("failover-at", parse_instants, format_instants), .offset = offsetof(struct run_config,
	  faults.when[FAULT_FAILOVER]), .arg = "S,...",
	  .help = "the primary stops in immediate mode and stays down, its standby is promoted, and every connection "
		  "reconnects to the new primary, at this instant: the throwaway one's --standby by claimbench, servers "
		  "of your own by --failover-command" },
	{ RUN_ONLY_ROW("failover-command", OPTION_TEXT, faults.failover_command), .flags = OPTION_NOT_STORED, .arg = "CMD",
	  .help = "a shell command that fails your primary over to its standby and returns once the new primary "
		  "accepts writes, for --failover-at with --db (a multi-host conninfo, target_session_attrs=read-write); "
		  "bounded by --restart-limit-s; one run per invocation (the pair has no standby after it)" },
	{ RUN_ONLY_ROW("failover-lag-ms", OPTION_INT, faults.failover_lag_ms), .min = 0, .max = 600000, .def = "0", .arg = "MS",
	  .help = "the throwaway standby stops receiving WAL this long before the failover (its walreceiver cut off): "
		  "what commits meanwhile is on the old primary alone, a lagging standby made certain" },
	{ RUN_ONLY_ROW("reconnect-limit-s", OPTION_DOUBLE, faults.reconnect_limit_s), .min = 0.1, .max = 3600, .def = "30",
	  .arg = "S", .help = "how long a worker or producer keeps connecting anew after losing its connection before "
			      "it gives up (the run is then incomplete)" },
	{ RUN_ROW("lease-ms", OPTION_INT, recovery.lease_ms), .flags = OPTION_SWEEP, .min = 0, .max = 86400000,
	  .arg = "MS", .help = "flip mode: a claim holds its job this long; a job whose lease ran out may be claimed "
			       "again (a visibility timeout, as pgmq's); 0: no lease, a lost claim stays active" },
	{ RUN_ONLY_ROW("heartbeat-ms", OPTION_INT, recovery.heartbeat_ms), .flags = OPTION_SWEEP, .min = 0, .max = 86400000,
	  .arg = "MS", .help = "flip mode: a worker extends its lease this often while it works (0: never)" },
	{ RUN_ROW("reaper-ms", OPTION_INT, recovery.reaper_ms), .flags = OPTION_SWEEP, .min = 0, .max = 86400000,
	  .arg = "MS", .help = "flip mode: the harness gives jobs whose lease ran out back to new this often "
			       "(a rescuer, as River's), and only it: claims take new jobs alone (0: no reaper)" },
	{ RUN_ROW("fence", OPTION_WORD, recovery.fence), .flags = OPTION_SWEEP, .words = fence_mode_names,
	  .def = "owner", .arg = "F", .help = "what a completion checks: none (a late completion overwrites a "
					      "successor's), owner (the job is still this worker's) or attempt (and "
					      "still this claim's)" },
	{ RUN_ONLY_ROW("rerun-stuck", OPTION_FLAG, recovery.rerun_stuck),
	  .help = "once the queue is drained, give jobs left active back to new and drain it again (seed 000's free)" },
	{ RUN_ONLY_ROW("sample-ms", OPTION_INT, pressure.sample_ms), .flags = OPTION_SWEEP, .min = 0, .max = 60000,
	  .def = "100", .arg = "MS",
	  .help = "sample the server this often from the harness's own connection: where the workers' backends wait, "
		  "the queue table's live and dead tuples, blocks and vacuums, the oldest transaction (SQLite: the "
		  "-wal file's size); 0: never" },
	{ RUN_ONLY_ROW("snapshot-at", OPTION_DOUBLE, pressure.snapshot_at_s), .flags = OPTION_SWEEP, .min = 0, .max = 86400,
	  .arg = "S", .help = "MVCC pressure: at S seconds, a session of the harness opens a REPEATABLE READ "
			      "transaction and holds its snapshot for --snapshot-s (SQLite: a read transaction, "
			      "which holds back checkpoints)" },
	{ RUN_ONLY_ROW("snapshot-s", OPTION_DOUBLE, pressure.snapshot_s), .flags = OPTION_SWEEP, .min = 0, .max = 86400,
	  .arg = "S", .help = "how long the snapshot of --snapshot-at is held (0: none)" },
	{ RUN_ONLY_CUSTOM("vacuum-at", parse_instants, format_instants), .offset = offsetof(struct run_config, pressure.vacuum),
	  .arg = "S,...", .help = "PostgreSQL: VACUUM the queue table at these instants, seconds after the start" },
	{ RUN_ONLY_ROW("autovacuum", OPTION_WORD, autovacuum), .flags = OPTION_SWEEP, .words = autovacuum_mode_names,
	  .def = "default", .arg = "MODE",
	  .help = "PostgreSQL, the throwaway server: its autovacuum for the run: default (PostgreSQL's), aggressive "
		  "(as the field runs it: scale factor 0.005, naptime 10 s, cost limit 10000) or off; on a server "
		  "of your own, default (its settings as they are) alone (docs/phases.md#autovacuum)" },
	{ RUN_ONLY_CUSTOM("phase", parse_phases, format_phases), .offset = offsetof(struct run_config, timeline),
	  .arg = "KIND[:ARG]:DURATION",
	  .help = "a phase of the run's timeline, repeatable, in order (a scenario key: comma-separated): warmup, "
		  "clean, load:F (--arrival-rate x F), idle-in-tx (a session of the harness's takes an XID and sits "
		  "idle in transaction), held-snapshot (a REPEATABLE READ snapshot held), active-readers:N (N "
		  "REPEATABLE READ sessions scanning the queue table), vacuum (a VACUUM of the queue table at its "
		  "start), recovery (clean), crash-workers:N or N% (workers crash at its start, respawned after "
		  "--respawn-ms), kill-backends:RATE (workers' server sessions terminated RATE per second), "
		  "restart-server (at its start), pool-exhaustion:N (N idle connections held), long-writer (a session "
		  "of the harness's writes a table of the run's own in one transaction); DURATION such as 500ms, 10s, 2m. The run lasts the phases' sum; needs "
		  "--arrival-rate, not --duration (docs/phases.md)" },
	{ RUN_ONLY_ROW("phase-scale", OPTION_DOUBLE, phase_scale), .min = 0.001, .max = 1000, .def = "1", .arg = "F",
	  .help = "multiply every --phase's duration by F (a scenario's cells lengthened to the field's 15 minutes, "
		  "or shortened for a test); rates and counts stay as given" },
	{ RUN_ONLY_ROW("no-progress", OPTION_FLAG, no_progress), .flags = OPTION_NOT_STORED,
	  .help = "no progress line on stderr (it is drawn only on a terminal anyway)" },
	{ RUN_ONLY_CUSTOM("progress-interval", parse_progress_interval, format_progress_interval),
	  .flags = OPTION_NOT_STORED, .arg = "S",
	  .help = "every S seconds (at least 0.1), a line on stderr with that interval's throughput, claim latency, "
		  "empty claims and errors, as pgbench -P prints (0: none); on a terminal or not" },
	{ .name = "scenario", .type = OPTION_TEXT, .place = OPTION_IN_COMMAND, .commands = RUN_COMMANDS,
	  .offset = offsetof(struct command_settings, scenario), .arg = "FILE",
	  .help = "a scenario file: [global] defaults, a section per group of runs, [expect] assertions; "
		  "every run option is a key, and the command line overrides the file; the file may also be given "
		  "as run's argument, as fio takes a job file" },
	{ .name = "trust-scenario", .type = OPTION_FLAG, .place = OPTION_IN_COMMAND, .commands = RUN_COMMANDS,
	  .offset = offsetof(struct command_settings, trust_scenario),
	  .help = "lets the scenario file run its restart-command (a shell command, as you), name a PostgreSQL "
		  "server (db) and carry SQL beyond one SELECT, INSERT, UPDATE or DELETE of the run's queue table; "
		  "without it such a file is refused (exit 2); the command line only" },
	{ .name = "section", .type = OPTION_TEXT, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_RUN),
	  .offset = offsetof(struct command_settings, sections), .arg = "LIST",
	  .help = "run only these sections of the scenario file, comma-separated (every section is still read and "
		  "checked); the [expect] lines that name what the others run are left out, and said so" },
	{ .name = "results", .type = OPTION_TEXT, .place = OPTION_IN_COMMAND,
	  .commands = COMMAND_BIT(COMMAND_RUN) | COMMAND_BIT(COMMAND_EXPLORE) | COMMAND_BIT(COMMAND_HISTORY) |
		      COMMAND_BIT(COMMAND_SHOW) | COMMAND_BIT(COMMAND_EXPORT) | COMMAND_BIT(COMMAND_COMPARE) |
		      COMMAND_BIT(COMMAND_REPORT),
	  .offset = offsetof(struct command_settings, results), .def = STORE_DEFAULT_PATH, .arg = "PATH",
	  .help = "the result store (run appends every run to it, explore what it found)" },
	{ .name = "limit", .type = OPTION_LONG, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_HISTORY),
	  .offset = offsetof(struct command_settings, limit), .min = 0, .max = INT_MAX, .def = "20", .arg = "N",
	  .help = "list at most N entries (runs and explores), 0 for all" },
	{ .name = "format", .type = OPTION_WORD, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_EXPORT),
	  .offset = offsetof(struct command_settings, export_format), .words = export_formats, .arg = "F",
	  .help = "csv or json, as claimbench run --format prints them (required)" },
	{ .name = "format", .type = OPTION_WORD, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_COMPARE),
	  .offset = offsetof(struct command_settings, compare_format), .words = compare_formats, .def = "table",
	  .arg = "F", .help = "table, json, markdown (a pull request's comment) or junit (a JUnit XML document)" },
	{ .name = "throughput-drop", .type = OPTION_DOUBLE, .place = OPTION_IN_COMMAND,
	  .commands = COMMAND_BIT(COMMAND_COMPARE), .offset = offsetof(struct command_settings, tol.throughput_drop_pct),
	  .min = 0, .max = 100, .def = TEXT_OF(COMPARE_THROUGHPUT_DROP_PCT), .arg = "PCT",
	  .help = "a regression when mean throughput falls more than PCT %" },
	{ .name = "jain-drop", .type = OPTION_DOUBLE, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_COMPARE),
	  .offset = offsetof(struct command_settings, tol.jain_drop), .min = 0, .max = 1, .def = TEXT_OF(COMPARE_JAIN_DROP),
	  .arg = "X", .help = "a regression when mean Jain's index falls more than X" },
	{ .name = "allow-duplicates", .type = OPTION_FLAG, .place = OPTION_IN_COMMAND,
	  .commands = COMMAND_BIT(COMMAND_COMPARE), .offset = offsetof(struct command_settings, tol.allow_duplicates),
	  .help = "duplicates and zombie completions where the baseline had none are no regression" },
	{ .name = "allow-losses", .type = OPTION_FLAG, .place = OPTION_IN_COMMAND,
	  .commands = COMMAND_BIT(COMMAND_COMPARE), .offset = offsetof(struct command_settings, tol.allow_losses),
	  .help = "lost jobs where the baseline had none are no regression" },
	{ .name = "strategy", .type = OPTION_TEXT, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_COMPARE),
	  .offset = offsetof(struct command_settings, scope.strategies), .arg = "LIST",
	  .help = "compare only these strategies, comma-separated, each NAME or NAME:MODE" },
	{ .name = "allow-diff", .type = OPTION_TEXT, .place = OPTION_IN_COMMAND,
	  .commands = COMMAND_BIT(COMMAND_COMPARE), .offset = offsetof(struct command_settings, scope.allowed_diffs),
	  .arg = "LIST",
	  .help = "run parameters whose values may differ between the sides, comma-separated (e.g. work-ms,seed; "
		  "backend: runs of another engine, backend or server version, each line then naming both); "
		  "compare refuses runs whose other parameters differ" },
	{ .name = "last", .type = OPTION_FLAG, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_COMPARE),
	  .offset = offsetof(struct command_settings, last),
	  .help = "the latest invocation is the candidate, and with no BASELINE the invocation before it the baseline" },
	{ .name = "out", .type = OPTION_TEXT, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_REPORT),
	  .offset = offsetof(struct command_settings, out), .arg = "DIR",
	  .help = "the output directory (default results/report-inv-N, or results/report-run-ID for run ids)" },
	{ .name = "force", .type = OPTION_FLAG, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_REPORT),
	  .offset = offsetof(struct command_settings, force),
	  .help = "write into --out even when it holds files and claimbench did not make it (its files of a report's "
		  "names are replaced, the others left alone)" },
	{ .name = "section", .type = OPTION_TEXT, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_REPORT),
	  .offset = offsetof(struct command_settings, sections), .arg = "LIST",
	  .help = "report only the runs of these scenario sections, comma-separated" },
	{ .name = "last", .type = OPTION_FLAG, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_REPORT),
	  .offset = offsetof(struct command_settings, last),
	  .help = "every run of the most recent invocation (the default)" },
	{ .name = "db", .type = OPTION_TEXT, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_CLEANUP),
	  .offset = offsetof(struct command_settings, db), .arg = "CONNINFO",
	  .help = "also look in this database (a libpq conninfo or URI, sqlite:PATH or mariadb:...) for tables of "
		  "dead runs" },
	{ .name = "dry-run", .type = OPTION_FLAG, .place = OPTION_IN_COMMAND, .commands = COMMAND_BIT(COMMAND_CLEANUP),
	  .offset = offsetof(struct command_settings, dry_run), .help = "say what would be removed; remove nothing" },
	{ .name = NULL },
};
