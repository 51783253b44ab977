/*
 * The parsers and printers of the commands' rows whose values are more than a number or a
 * word (option_values.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "adapter/manifest.h"
#include "base/parse.h"
#include "cli/option_values.h"
#include "db/backend.h"
#include "db/conninfo.h"
#include "model/config.h"
#include "plugin/guard.h"
#include "plugin/strategy.h"

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

int parse_db(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
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
void format_db(const struct option_def *o, const void *base, char *buf, size_t len)
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
int parse_progress_interval(const struct option_def *o, const char *text, void *base, char *err,
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
void format_progress_interval(const struct option_def *o, const void *base, char *buf, size_t len)
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
int parse_strategies(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
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
int parse_guards(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
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
void format_guards(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct guarded_plan *plan = &((const struct run_config *)base)->guarded;
	size_t used = 0;

	(void)o;
	snprintf(buf, len, "%s", plan->all_guards ? "all" : "");
	for (size_t i = 0; !plan->all_guards && i < plan->n_guards && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", plan->guards[i]->name);
}

/* --strategy as text: "all", or each strategy with the claim mode given for it. */
void format_strategies(const struct option_def *o, const void *base, char *buf, size_t len)
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

int parse_work_dist(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
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

void format_work_dist(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;

	(void)o;
	if (cfg->work_max_ms > 0)
		snprintf(buf, len, "uniform:%g-%g", cfg->work_min_ms, cfg->work_max_ms);
	else
		snprintf(buf, len, "%s", work_dist_name((enum work_dist)cfg->work_dist));
}

/* --workers: "w1,w2,...", each from 1 to MAX_WORKERS. */
int parse_workers(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
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
void format_workers(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;
	size_t used = 0;

	(void)o;
	buf[0] = '\0';
	for (size_t i = 0; i < cfg->n_worker_points && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "", cfg->workers[i]);
}

/* --repeat: a whole number from 1 to 1000, or auto (0). */
int parse_repeat(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
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
void format_repeat(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;

	(void)o;
	if (cfg->repeat > 0)
		snprintf(buf, len, "%d", cfg->repeat);
	else
		snprintf(buf, len, "auto");
}

/* --queue: "name,name,...", 1 to MAX_QUEUES names of 1 to QUEUE_NAME_MAX - 1 bytes. */
int parse_queues(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
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
void format_queues(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;
	size_t used = 0;

	(void)o;
	buf[0] = '\0';
	for (int i = 0; i < cfg->n_queues && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", cfg->queues[i]);
}

/* --claim-mode: hold or flip; NULL: each strategy's own. */
int parse_claim_mode(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct run_config *cfg = config_of(base);
	int mode = text ? parse_word(o->name, text, claim_mode_names, err, errlen) : MODE_COUNT;

	if (mode < 0)
		return -1;
	cfg->claim_mode = (enum claim_mode)mode;
	return 0;
}

/* --claim-mode as text, "" when not given. */
void format_claim_mode(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct run_config *cfg = base;

	(void)o;
	snprintf(buf, len, "%s", cfg->claim_mode == MODE_COUNT ? "" : claim_mode_name(cfg->claim_mode));
}

/* --table-prefix: 1 to 48 letters, digits, _ - or .; NULL: the run's own. */
int parse_table_prefix(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
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
void format_table_prefix(const struct option_def *o, const void *base, char *buf, size_t len)
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
int parse_instants(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct fault_trigger *t = trigger_of(o, base);

	return parse_fault_list(o, text, t, &t->n_at, read_instant, err, errlen);
}

/* --KIND-at as text. */
void format_instants(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct fault_trigger *t = trigger_in(o, base);
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->n_at && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%g", i ? "," : "", t->at_s[i]);
}

/* --KIND-exec: the N-th executions of the run (from 1), comma-separated; NULL: none. */
int parse_exec_numbers(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct fault_trigger *t = trigger_of(o, base);

	return parse_fault_list(o, text, t, &t->n_exec, read_exec_number, err, errlen);
}

/* --KIND-exec as text. */
void format_exec_numbers(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct fault_trigger *t = trigger_in(o, base);
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->n_exec && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%ld", i ? "," : "", t->exec[i]);
}

/* --phase: the run's timeline, KIND[:ARG]:DURATION items comma-separated (repeated --phase joined so); NULL: none. */
int parse_phases(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct timeline *tl = (struct timeline *)((char *)base + o->offset);

	tl->n = 0;
	return text ? timeline_parse(text, tl, err, errlen) : 0;
}

/* --phase as text. */
void format_phases(const struct option_def *o, const void *base, char *buf, size_t len)
{
	timeline_format((const struct timeline *)((const char *)base + o->offset), buf, len);
}
