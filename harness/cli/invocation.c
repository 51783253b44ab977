#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/conninfo.h"
#include "base/parse.h"
#include "cli/args.h"
#include "cli/invocation.h"
#include "engine/strategy.h"

/* Long-only options get codes past the ASCII range. */
enum option_code {
	OPT_DB = 256, OPT_STRATEGY, OPT_WORKERS, OPT_JOBS, OPT_WORK_MS, OPT_WORK_DIST, OPT_CLAIM_MODE,
	OPT_DURATION, OPT_REPEAT, OPT_FORMAT, OPT_SEED, OPT_QUEUE, OPT_TABLE_PREFIX, OPT_EMPTY_WAIT,
	OPT_TRIES, OPT_BACKOFF, OPT_POLL, OPT_TICKET_LIMIT, OPT_STALE, OPT_NO_PROGRESS, OPT_HELP,
	OPT_SQLITE_JOURNAL, OPT_SQLITE_SYNCHRONOUS, OPT_SQLITE_BUSY_TIMEOUT, OPT_SCENARIO, OPT_RESULTS,
	OPT_ARRIVAL_RATE, OPT_ARRIVAL_S, OPT_PRODUCERS, OPT_FAIL_RATE, OPT_RERUN_ERRORS, OPT_EMPTY_RETRIES,
};

/* The prefix of --db that selects SQLite. */
#define SQLITE_PREFIX "sqlite:"

static const struct option run_options[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "strategy", required_argument, NULL, OPT_STRATEGY },
	{ "workers", required_argument, NULL, OPT_WORKERS },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "work-ms", required_argument, NULL, OPT_WORK_MS },
	{ "work-dist", required_argument, NULL, OPT_WORK_DIST },
	{ "claim-mode", required_argument, NULL, OPT_CLAIM_MODE },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "arrival-rate", required_argument, NULL, OPT_ARRIVAL_RATE },
	{ "arrival-s", required_argument, NULL, OPT_ARRIVAL_S },
	{ "producers", required_argument, NULL, OPT_PRODUCERS },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "queue", required_argument, NULL, OPT_QUEUE },
	{ "fail-rate", required_argument, NULL, OPT_FAIL_RATE },
	{ "rerun-errors", no_argument, NULL, OPT_RERUN_ERRORS },
	{ "empty-retries", required_argument, NULL, OPT_EMPTY_RETRIES },
	{ "table-prefix", required_argument, NULL, OPT_TABLE_PREFIX },
	{ "empty-wait-ms", required_argument, NULL, OPT_EMPTY_WAIT },
	{ "tries", required_argument, NULL, OPT_TRIES },
	{ "backoff-ms", required_argument, NULL, OPT_BACKOFF },
	{ "poll-ms", required_argument, NULL, OPT_POLL },
	{ "ticket-limit", required_argument, NULL, OPT_TICKET_LIMIT },
	{ "stale-ms", required_argument, NULL, OPT_STALE },
	{ "sqlite-journal", required_argument, NULL, OPT_SQLITE_JOURNAL },
	{ "sqlite-synchronous", required_argument, NULL, OPT_SQLITE_SYNCHRONOUS },
	{ "sqlite-busy-timeout-ms", required_argument, NULL, OPT_SQLITE_BUSY_TIMEOUT },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "scenario", required_argument, NULL, OPT_SCENARIO },
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* run's usage text. */
static const char run_usage[] =
	"usage: claimbench run [options]\n"
	"Runs each strategy at each worker count on a fresh queue table and prints the measurements.\n"
	"With no option it runs the classic scenario (seed 001): every strategy, 200 jobs,\n"
	"10 workers, 100 ms of work each, on a throwaway PostgreSQL (or, when no PostgreSQL\n"
	"server programs are installed, on a temporary SQLite file).\n"
	"\n"
	"  --db CONNINFO          libpq conninfo or URI; default: a throwaway server in a temporary directory\n"
	"  --db sqlite:PATH       an SQLite database file, created when missing\n"
	"  --strategy LIST|all    strategies, comma-separated, each NAME or NAME:MODE (default all)\n"
	"  --claim-mode hold|flip claim mode for strategies given without one (default: each one's own)\n"
	"  --workers LIST         worker counts, comma-separated (default 10)\n"
	"  --jobs N               jobs in the backlog (default 200)\n"
	"  --work-ms MS           mean work time per job (default 100)\n"
	"  --work-dist D          fixed, uniform (0..2x mean) or exp (default fixed)\n"
	"  --duration S           timed run of S seconds instead of draining the backlog\n"
	"  --arrival-rate R       open-loop arrivals: producers insert R jobs/s in all after the backlog\n"
	"                         (default 0, none); a drain run ends when they are done and the queue is empty\n"
	"  --arrival-s S          how long producers insert (default: --duration; required in a drain run)\n"
	"  --producers N          producer threads, each with its own connection (default 1)\n"
	"  --repeat N             repetitions of each strategy x worker count (default 1)\n"
	"  --format F             table, csv or json (default table)\n"
	"  --seed N               seed of the work-time draw (default 1)\n"
	"  --queue LIST           task classes sharing the table, comma-separated (default \"default\");\n"
	"                         jobs and workers are dealt to them in turn\n"
	"  --fail-rate P          share of jobs (0 to 1) whose first pass fails and is marked error (default 0)\n"
	"  --rerun-errors         once the queue is drained, clear the errors and drain it again\n"
	"  --empty-retries N      claim again at once up to N times after an empty claim (default 0)\n"
	"  --table-prefix P       prefix of the run's table names (default claimbench_<pid>_)\n"
	"  --empty-wait-ms MS     pause after an empty claim while jobs remain (default 5)\n"
	"  --tries N              nowait-backoff: lock attempts before giving up (default 5)\n"
	"  --backoff-ms MS        nowait-backoff: sleep between attempts (default 1000)\n"
	"  --poll-ms MS           ticket: sleep between polls of the line (default 5)\n"
	"  --ticket-limit X       ticket: tickets at the head of the line that may claim (default 1)\n"
	"  --stale-ms MS          ticket: age at which a ticket counts as abandoned (default 60000)\n"
	"  --sqlite-journal M     SQLite journal mode: delete, truncate, persist, memory, wal or off (default wal)\n"
	"  --sqlite-synchronous L SQLite synchronous level: off, normal, full or extra (default normal)\n"
	"  --sqlite-busy-timeout-ms MS\n"
	"                         SQLite: how long a statement waits for the write lock (default 5000)\n"
	"  --no-progress          no progress line on stderr (it is drawn only on a terminal anyway)\n"
	"  --help                 this text\n"
	"\n"
	"Exit status: 0 done, 2 usage error, 3 database or environment error, 4 run incomplete.\n";

void cli_print_run_usage(FILE *out)
{
	fputs(run_usage, out);
}

void cli_defaults(struct run_config *cfg)
{
	static char prefix[64];

	snprintf(prefix, sizeof(prefix), "claimbench_%ld_", (long)getpid());
	memset(cfg, 0, sizeof(*cfg));
	cfg->scenario = "classic";
	cfg->workers[0] = 10;
	cfg->n_worker_points = 1;
	cfg->jobs = 200;
	cfg->work_ms = 100;
	cfg->work_dist = WORK_FIXED;
	cfg->repeat = 1;
	cfg->producers = 1;
	cfg->format = FORMAT_TABLE;
	cfg->seed = 1;
	strcpy(cfg->queues[0], "default");
	cfg->n_queues = 1;
	cfg->table_prefix = prefix;
	cfg->empty_wait_ms = 5;
	cfg->params = (struct strategy_params){
		.tries = 5, .backoff_ms = 1000, .poll_ms = 5, .ticket_limit = 1, .stale_ms = 60000,
	};
	cfg->db_opts = (struct db_options){
		.sqlite_journal = "wal", .sqlite_synchronous = "normal", .sqlite_busy_timeout_ms = 5000,
	};
	cfg->progress = true;
}

/* parse_long for an int. */
static int parse_int(const char *option, const char *text, long min, long max, int *out, char *err, size_t errlen)
{
	long v;

	if (parse_long(option, text, min, max, &v, err, errlen) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

static const char *const mode_names[] = { "hold", "flip", NULL };

/* Chooses the driver --db names: SQLite for sqlite:PATH, else PostgreSQL. 0, or -1 with err. */
static int parse_db(const char *text, struct run_config *cfg, char *err, size_t errlen)
{
	cfg->backend = &backend_postgresql;
	cfg->target = text;
	if (strncmp(text, SQLITE_PREFIX, strlen(SQLITE_PREFIX)) != 0)
		return 0;
	cfg->backend = &backend_sqlite;
	cfg->target = text + strlen(SQLITE_PREFIX);
	if (!*cfg->target) {
		snprintf(err, errlen, "--db: expected sqlite:PATH with a file path");
		return -1;
	}
	return 0;
}

/* Parses "name,name,..." into cfg->queues. 0, or -1 with err. */
static int parse_queues(const char *text, struct run_config *cfg, char *err, size_t errlen)
{
	cfg->n_queues = 0;
	for (const char *item = text;; item += strcspn(item, ",") + 1) {
		size_t len = strcspn(item, ",");

		if (len == 0 || len >= QUEUE_NAME_MAX || cfg->n_queues == MAX_QUEUES) {
			snprintf(err, errlen, "--queue: expected 1 to %d comma-separated names of 1 to %d bytes",
				 MAX_QUEUES, QUEUE_NAME_MAX - 1);
			return -1;
		}
		snprintf(cfg->queues[cfg->n_queues++], QUEUE_NAME_MAX, "%.*s", (int)len, item);
		if (!item[len])
			return 0;
	}
}

/* Parses "w1,w2,..." into cfg->workers. 0, or -1 with err. */
static int parse_workers(const char *text, struct run_config *cfg, char *err, size_t errlen)
{
	char buf[512], *save = NULL;

	if (strlen(text) >= sizeof(buf)) {
		snprintf(err, errlen, "--workers: list too long");
		return -1;
	}
	strcpy(buf, text);
	cfg->n_worker_points = 0;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (cfg->n_worker_points == MAX_WORKER_POINTS) {
			snprintf(err, errlen, "--workers: at most %d worker counts", MAX_WORKER_POINTS);
			return -1;
		}
		if (parse_int("workers", item, 1, MAX_WORKERS, &cfg->workers[cfg->n_worker_points++], err,
			      errlen) < 0)
			return -1;
	}
	if (cfg->n_worker_points == 0) {
		snprintf(err, errlen, "--workers: expected a comma-separated list of worker counts");
		return -1;
	}
	return 0;
}

/* Appends strategy ops with an explicit mode (or -1 for "not given yet"). 0, or -1 with err. */
static int add_strategy(struct run_config *cfg, const struct strategy_ops *ops, int mode, char *err, size_t errlen)
{
	if (cfg->n_strategies == MAX_STRATEGIES) {
		snprintf(err, errlen, "--strategy: at most %d strategies", MAX_STRATEGIES);
		return -1;
	}
	cfg->strategies[cfg->n_strategies].ops = ops;
	cfg->strategies[cfg->n_strategies].mode = mode < 0 ? MODE_COUNT : (enum claim_mode)mode;
	cfg->n_strategies++;
	return 0;
}

/* Parses "all" or "name[:mode],..." into cfg->strategies (modes left MODE_COUNT when not given). */
static int parse_strategies(const char *text, struct run_config *cfg, char *err, size_t errlen)
{
	char buf[512], *save = NULL;

	cfg->n_strategies = 0;
	cfg->all_strategies = strcmp(text, "all") == 0;
	if (cfg->all_strategies) {
		for (size_t i = 0; i < strategy_registry_len; i++)
			add_strategy(cfg, strategy_registry[i], -1, err, errlen);
		return 0;
	}
	if (strlen(text) >= sizeof(buf)) {
		snprintf(err, errlen, "--strategy: list too long");
		return -1;
	}
	strcpy(buf, text);
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(item, ':');
		const struct strategy_ops *ops;
		int mode = -1;

		if (colon) {
			*colon = '\0';
			mode = parse_word("strategy", colon + 1, mode_names, err, errlen);
			if (mode < 0)
				return -1;
		}
		ops = strategy_find(item);
		if (!ops) {
			size_t used = (size_t)snprintf(err, errlen, "--strategy: unknown strategy \"%s\"; known:", item);

			for (size_t i = 0; i < strategy_registry_len && used < errlen; i++)
				used += (size_t)snprintf(err + used, errlen - used, " %s", strategy_registry[i]->name);
			return -1;
		}
		if (add_strategy(cfg, ops, mode, err, errlen) < 0)
			return -1;
	}
	if (cfg->n_strategies == 0) {
		snprintf(err, errlen, "--strategy: expected \"all\" or a comma-separated list of strategies");
		return -1;
	}
	return 0;
}

/* Gives each strategy its mode (its own, the --claim-mode one or its default) and checks it supports it. */
static int settle_modes(struct run_config *cfg, int claim_mode, char *err, size_t errlen)
{
	for (size_t i = 0; i < cfg->n_strategies; i++) {
		struct strategy_choice *c = &cfg->strategies[i];

		if (c->mode == MODE_COUNT)
			c->mode = claim_mode >= 0 ? (enum claim_mode)claim_mode : c->ops->default_mode;
		if (!(c->ops->modes & MODE_BIT(c->mode))) {
			snprintf(err, errlen, "strategy %s has no %s claim mode (it supports %s%s%s)", c->ops->name,
				 claim_mode_name(c->mode),
				 c->ops->modes & MODE_BIT(MODE_HOLD) ? "hold" : "",
				 c->ops->modes == (MODE_BIT(MODE_HOLD) | MODE_BIT(MODE_FLIP)) ? " and " : "",
				 c->ops->modes & MODE_BIT(MODE_FLIP) ? "flip" : "");
			return -1;
		}
	}
	return 0;
}

/* Applies one option to cfg. 0, or -1 with err. */
static int apply_option(int code, const char *arg, struct run_config *cfg, int *claim_mode, char *err, size_t errlen)
{
	static const char *const dist_names[] = { "fixed", "uniform", "exp", NULL };
	static const char *const format_names[] = { "table", "csv", "json", NULL };
	static const char *const journal_names[] = { "delete", "truncate", "persist", "memory", "wal", "off", NULL };
	static const char *const synchronous_names[] = { "off", "normal", "full", "extra", NULL };
	struct strategy_params *p = &cfg->params;
	long seed;
	int v;

	switch (code) {
	case OPT_DB:
		return parse_db(arg, cfg, err, errlen);
	case OPT_STRATEGY:
		return parse_strategies(arg, cfg, err, errlen);
	case OPT_WORKERS:
		return parse_workers(arg, cfg, err, errlen);
	case OPT_JOBS:
		return parse_long("jobs", arg, 1, 100000000, &cfg->jobs, err, errlen);
	case OPT_WORK_MS:
		return parse_double("work-ms", arg, 0, 3600000, &cfg->work_ms, err, errlen);
	case OPT_WORK_DIST:
		v = parse_word("work-dist", arg, dist_names, err, errlen);
		cfg->work_dist = (enum work_dist)v;
		return v < 0 ? -1 : 0;
	case OPT_CLAIM_MODE:
		*claim_mode = parse_word("claim-mode", arg, mode_names, err, errlen);
		return *claim_mode < 0 ? -1 : 0;
	case OPT_DURATION:
		if (parse_double("duration", arg, 0.001, 86400, &cfg->duration_s, err, errlen) < 0)
			return -1;
		return 0;
	case OPT_ARRIVAL_RATE:
		return parse_double("arrival-rate", arg, 0, 1000000, &cfg->arrival_rate, err, errlen);
	case OPT_ARRIVAL_S:
		return parse_double("arrival-s", arg, 0.001, 86400, &cfg->arrival_s, err, errlen);
	case OPT_PRODUCERS:
		return parse_int("producers", arg, 1, MAX_WORKERS, &cfg->producers, err, errlen);
	case OPT_REPEAT:
		return parse_int("repeat", arg, 1, 1000, &cfg->repeat, err, errlen);
	case OPT_FORMAT:
		v = parse_word("format", arg, format_names, err, errlen);
		cfg->format = (enum output_format)v;
		return v < 0 ? -1 : 0;
	case OPT_SEED:
		if (parse_long("seed", arg, 0, __LONG_MAX__, &seed, err, errlen) < 0)
			return -1;
		cfg->seed = (uint64_t)seed;
		return 0;
	case OPT_QUEUE:
		return parse_queues(arg, cfg, err, errlen);
	case OPT_FAIL_RATE:
		return parse_double("fail-rate", arg, 0, 1, &cfg->fail_rate, err, errlen);
	case OPT_RERUN_ERRORS:
		cfg->rerun_errors = strcmp(arg, "false") != 0;
		return 0;
	case OPT_EMPTY_RETRIES:
		return parse_int("empty-retries", arg, 0, 1000000, &cfg->empty_retries, err, errlen);
	case OPT_TABLE_PREFIX:
		cfg->table_prefix = arg;
		return 0;
	case OPT_EMPTY_WAIT:
		return parse_int("empty-wait-ms", arg, 0, 60000, &cfg->empty_wait_ms, err, errlen);
	case OPT_TRIES:
		return parse_int("tries", arg, 1, 1000000, &p->tries, err, errlen);
	case OPT_BACKOFF:
		return parse_int("backoff-ms", arg, 0, 3600000, &p->backoff_ms, err, errlen);
	case OPT_POLL:
		return parse_int("poll-ms", arg, 0, 60000, &p->poll_ms, err, errlen);
	case OPT_TICKET_LIMIT:
		return parse_int("ticket-limit", arg, 1, MAX_WORKERS, &p->ticket_limit, err, errlen);
	case OPT_STALE:
		return parse_int("stale-ms", arg, 1, 86400000, &p->stale_ms, err, errlen);
	case OPT_SQLITE_JOURNAL:
		v = parse_word("sqlite-journal", arg, journal_names, err, errlen);
		if (v < 0)
			return -1;
		cfg->db_opts.sqlite_journal = journal_names[v];
		return 0;
	case OPT_SQLITE_SYNCHRONOUS:
		v = parse_word("sqlite-synchronous", arg, synchronous_names, err, errlen);
		if (v < 0)
			return -1;
		cfg->db_opts.sqlite_synchronous = synchronous_names[v];
		return 0;
	case OPT_SQLITE_BUSY_TIMEOUT:
		return parse_int("sqlite-busy-timeout-ms", arg, 0, 3600000, &cfg->db_opts.sqlite_busy_timeout_ms,
				 err, errlen);
	case OPT_NO_PROGRESS:
		cfg->progress = false;
		return 0;
	}
	snprintf(err, errlen, "internal error: option %d not handled", code);
	return -1;
}

/* Checks what needs several options together. 0, or -1 with err. */
static int check_combination(const struct run_config *cfg, char *err, size_t errlen)
{
	if (cfg->rerun_errors && cfg->duration_s > 0) {
		snprintf(err, errlen, "--rerun-errors: only a drain run can be re-run (drop --duration)");
		return -1;
	}
	if (strlen(cfg->table_prefix) == 0 || strlen(cfg->table_prefix) > 48 ||
	    strspn(cfg->table_prefix, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") !=
		    strlen(cfg->table_prefix)) {
		snprintf(err, errlen, "--table-prefix: expected 1 to 48 letters, digits, _ - or .");
		return -1;
	}
	if (cfg->arrival_rate > 0 && run_config_arrival_s(cfg) <= 0) {
		snprintf(err, errlen, "--arrival-rate in a drain run needs --arrival-s: how long the producers "
			 "insert (a timed run's default is its --duration)");
		return -1;
	}
	if (cfg->arrival_rate * run_config_arrival_s(cfg) > 100000000 - (double)cfg->jobs) {
		snprintf(err, errlen, "--arrival-rate x --arrival-s: at most %ld jobs with the backlog of %ld",
			 100000000L, cfg->jobs);
		return -1;
	}
	return 0;
}

/* Settings one run group is built from; no more than this many. */
#define MAX_SETTINGS 64

/* One option's value, from the scenario file or the command line. */
struct setting {
	int code;		/* the option */
	const char *name;	/* its long name */
	const char *value;	/* its value; "true" for a flag */
	const char *file;	/* the scenario file it came from, or NULL for the command line */
	int line;		/* its line in that file */
};

/* The ordered settings of one group: later ones replace earlier ones of the same option. */
struct setting_list {
	struct setting items[MAX_SETTINGS];	/* the settings */
	size_t n;				/* items used */
};

/* Options whose comma-separated value is a sweep (the others take one value, or a list of their own). */
static bool sweepable(int code)
{
	switch (code) {
	case OPT_JOBS: case OPT_WORK_MS: case OPT_WORK_DIST: case OPT_DURATION: case OPT_SEED: case OPT_EMPTY_WAIT:
	case OPT_FAIL_RATE: case OPT_EMPTY_RETRIES:
	case OPT_ARRIVAL_RATE: case OPT_ARRIVAL_S: case OPT_PRODUCERS:
	case OPT_TRIES: case OPT_BACKOFF: case OPT_POLL: case OPT_TICKET_LIMIT: case OPT_STALE:
	case OPT_SQLITE_JOURNAL: case OPT_SQLITE_SYNCHRONOUS: case OPT_SQLITE_BUSY_TIMEOUT:
		return true;
	}
	return false;
}

/* Sets (or replaces) one setting in list. 0, or -1 with err when the list is full. */
static int put_setting(struct setting_list *list, const struct setting *st, char *err, size_t errlen)
{
	for (size_t i = 0; i < list->n; i++) {
		if (list->items[i].code == st->code) {
			list->items[i] = *st;
			return 0;
		}
	}
	if (list->n == MAX_SETTINGS) {
		snprintf(err, errlen, "more than %d settings", MAX_SETTINGS);
		return -1;
	}
	list->items[list->n++] = *st;
	return 0;
}

/* Prefixes err with where st came from ("file:line: key: " or nothing for the command line). */
static void locate_error(const struct setting *st, char *err, size_t errlen)
{
	char what[1024];

	if (!st->file)
		return;
	snprintf(what, sizeof(what), "%s", err);
	snprintf(err, errlen, "%s:%d: %s = %s: %s", st->file, st->line, st->name, st->value, what);
}

/* Adds a scenario section's keys to list, refusing unknown keys. 0, or -1 with err. */
static int add_section(struct setting_list *list, const struct scenario *sc, const struct scenario_section *sec,
		       char *err, size_t errlen)
{
	for (size_t i = 0; sec && i < sec->n_entries; i++) {
		const struct scenario_entry *e = &sec->entries[i];
		const struct option *o = run_options;
		struct setting st = { .name = e->key, .value = e->value, .file = sc->path, .line = e->line };

		while (o->name && strcmp(o->name, e->key) != 0)
			o++;
		if (!o->name || o->val == OPT_HELP || o->val == OPT_SCENARIO || o->val == OPT_RESULTS) {
			snprintf(err, errlen, "%s:%d: unknown key \"%s\" in [%s]; the keys are run's long options "
				 "(see claimbench run --help)", sc->path, e->line, e->key, sec->name);
			return -1;
		}
		if (o->has_arg == no_argument && strcmp(e->value, "true") != 0 && strcmp(e->value, "false") != 0) {
			snprintf(err, errlen, "%s:%d: %s: expected true or false, got \"%s\"", sc->path, e->line, e->key,
				 e->value);
			return -1;
		}
		st.code = o->val;
		if (put_setting(list, &st, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* Copies the index-th comma-separated item of list into buf; returns its full length (>= len: cut). */
static size_t list_item(const char *list, size_t index, char *buf, size_t len)
{
	const char *start = list;
	size_t item_len;

	while (index--)
		start = strchr(start, ',') + 1;
	item_len = strcspn(start, ",");
	snprintf(buf, len, "%.*s", (int)item_len, start);
	return item_len;
}

/* The number of comma-separated items in value. */
static size_t list_length(const char *value)
{
	size_t n = 1;

	for (; *value; value++)
		n += *value == ',';
	return n;
}

/*
 * Builds one group from list at sweep point `point` (a mixed-radix index over the swept
 * settings) into cfg. 0, or -1 with err located at the setting at fault.
 */
static int build_group(const struct setting_list *list, size_t point, const char *group, struct run_config *cfg,
		       char values[][64], char *err, size_t errlen)
{
	int claim_mode = -1;
	size_t used = 0;

	cli_defaults(cfg);
	parse_strategies("all", cfg, err, errlen);
	snprintf(cfg->group, sizeof(cfg->group), "%s", group);
	for (size_t i = 0; i < list->n; i++) {
		const struct setting *st = &list->items[i];
		const char *value = st->value;

		if (sweepable(st->code) && strchr(value, ',')) {
			size_t n = list_length(value);
			int wrote;

			if (list_item(value, point % n, values[i], 64) >= 64) {
				snprintf(err, errlen, "a swept value is longer than 63 bytes");
				locate_error(st, err, errlen);
				return -1;
			}
			point /= n;
			value = values[i];
			wrote = snprintf(cfg->sweep + used, sizeof(cfg->sweep) - used, "%s%s=%s", used ? "," : "",
					 st->name, value);
			if (wrote < 0 || (size_t)wrote >= sizeof(cfg->sweep) - used) {
				snprintf(err, errlen, "the swept keys' values are longer than %zu bytes together",
					 sizeof(cfg->sweep) - 1);
				locate_error(st, err, errlen);
				return -1;
			}
			used += (size_t)wrote;
		}
		if (st->code == OPT_NO_PROGRESS) {
			cfg->progress = strcmp(value, "true") != 0;
			continue;
		}
		if (apply_option(st->code, value, cfg, &claim_mode, err, errlen) < 0) {
			locate_error(st, err, errlen);
			return -1;
		}
	}
	if (settle_modes(cfg, claim_mode, err, errlen) < 0 || check_combination(cfg, err, errlen) < 0)
		return -1;
	return 0;
}

/* Expands list into inv's groups: one per sweep point. 0, or -1 with err. */
static int expand_group(struct run_invocation *inv, const struct setting_list *list, const char *group,
			char *err, size_t errlen)
{
	static char values[MAX_SETTINGS][64];
	size_t points = 1;

	for (size_t i = 0; i < list->n; i++)
		if (sweepable(list->items[i].code))
			points *= list_length(list->items[i].value);
	for (size_t p = 0; p < points; p++) {
		if (inv->n_groups == MAX_RUN_GROUPS) {
			snprintf(err, errlen, "more than %d groups and sweep points", MAX_RUN_GROUPS);
			return -1;
		}
		if (build_group(list, p, group, &inv->groups[inv->n_groups], values, err, errlen) < 0)
			return -1;
		inv->n_groups++;
	}
	return 0;
}

/* Parses the scenario's [expect] section and checks it against the strategies inv runs. 0, or -1 with err. */
static int load_expectations(struct run_invocation *inv, char *err, size_t errlen)
{
	const struct scenario_section *sec = scenario_section(&inv->scenario, "expect");
	const char *names[MAX_STRATEGIES * MAX_RUN_GROUPS];
	size_t n_names = 0;
	char why[768];

	if (!sec)
		return 0;
	for (size_t g = 0; g < inv->n_groups; g++)
		for (size_t i = 0; i < inv->groups[g].n_strategies; i++)
			names[n_names++] = inv->groups[g].strategies[i].ops->name;
	inv->expects = calloc(sec->n_entries, sizeof(*inv->expects));
	if (!inv->expects) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < sec->n_entries; i++) {
		const struct scenario_entry *e = &sec->entries[i];

		if (expect_parse(e->key, e->value, &inv->expects[i], why, sizeof(why)) < 0 ||
		    (inv->n_expects++, expect_check(&inv->expects[i], names, n_names, why, sizeof(why)) < 0)) {
			snprintf(err, errlen, "%s:%d: expectation \"%s\": %s", inv->scenario.path, e->line, e->key, why);
			return -1;
		}
	}
	return 0;
}

/* Builds every group of inv from the scenario (if any) and the command-line settings. 0, or -1 with err. */
static int build_groups(struct run_invocation *inv, const struct setting_list *command_line, char *err,
			size_t errlen)
{
	const struct scenario *sc = &inv->scenario;
	const struct scenario_section *global = inv->has_scenario ? scenario_section(sc, "global") : NULL;
	size_t groups = 0;

	for (size_t i = 0; inv->has_scenario && i < sc->n_sections; i++) {
		const struct scenario_section *sec = &sc->sections[i];
		struct setting_list list = { .n = 0 };

		if (sec == global || strcmp(sec->name, "expect") == 0)
			continue;
		groups++;
		if (add_section(&list, sc, global, err, errlen) < 0 || add_section(&list, sc, sec, err, errlen) < 0)
			return -1;
		for (size_t j = 0; j < command_line->n; j++)
			if (put_setting(&list, &command_line->items[j], err, errlen) < 0)
				return -1;
		if (expand_group(inv, &list, sec->name, err, errlen) < 0)
			return -1;
	}
	if (groups == 0) {
		struct setting_list list = { .n = 0 };

		if (add_section(&list, sc, global, err, errlen) < 0)
			return -1;
		for (size_t j = 0; j < command_line->n; j++)
			if (put_setting(&list, &command_line->items[j], err, errlen) < 0)
				return -1;
		if (expand_group(inv, &list, "", err, errlen) < 0)
			return -1;
	}
	for (size_t g = 1; g < inv->n_groups; g++) {
		const struct run_config *a = &inv->groups[0], *b = &inv->groups[g];

		if (a->backend != b->backend || (a->target == NULL) != (b->target == NULL) ||
		    (a->target && strcmp(a->target, b->target) != 0)) {
			snprintf(err, errlen, "every group must use the same database (db differs in [%s])", b->group);
			return -1;
		}
	}
	return 0;
}

/* Names the invocation's scenario: the file's, "classic" for the untouched defaults, else "command line". */
static void name_scenario(struct run_invocation *inv)
{
	const struct run_config *cfg = &inv->groups[0];
	const char *name = "command line";

	if (inv->has_scenario)
		name = inv->scenario.name;
	else if (inv->n_groups == 1 && cfg->n_strategies == strategy_registry_len && cfg->n_worker_points == 1 &&
		 cfg->workers[0] == 10 && cfg->jobs == 200 && cfg->work_ms == 100 && cfg->work_dist == WORK_FIXED &&
		 cfg->duration_s <= 0 && cfg->arrival_rate <= 0)
		name = "classic";
	for (size_t g = 0; g < inv->n_groups; g++)
		inv->groups[g].scenario = name;
}

/* Keeps the options as typed in inv->command_line. */
static void keep_command_line(struct run_invocation *inv, int argc, char **argv)
{
	size_t used = (size_t)snprintf(inv->command_line, sizeof(inv->command_line), "claimbench run");

	for (int i = 1; i < argc && used < sizeof(inv->command_line); i++)
		used += (size_t)snprintf(inv->command_line + used, sizeof(inv->command_line) - used, " %s", argv[i]);
	conninfo_redact(inv->command_line);
}

/* What the command line's options go into while they are read. */
struct command_line {
	struct run_invocation *inv;	/* takes --results */
	struct setting_list settings;	/* every option that configures a run */
	const char *scenario_path;	/* --scenario, or NULL */
};

/* Notes one option of the command line in the struct command_line at ctx. 0, or -1 with err. */
static int collect_option(int code, const char *value, void *ctx, char *err, size_t errlen)
{
	struct command_line *cl = ctx;
	struct setting st = { .code = code, .value = value ? value : "true" };
	const struct option *o = run_options;

	if (code == OPT_SCENARIO) {
		cl->scenario_path = value;
		return 0;
	}
	if (code == OPT_RESULTS) {
		cl->inv->results_path = value;
		return 0;
	}
	while (o->name && o->val != code)
		o++;
	st.name = o->name;
	return put_setting(&cl->settings, &st, err, errlen);
}

enum cli_outcome cli_parse_run(int argc, char **argv, struct run_invocation *inv, char *err, size_t errlen)
{
	struct command_line cl = { .inv = inv };

	memset(inv, 0, sizeof(*inv));
	inv->results_path = "results/claimbench.db";
	keep_command_line(inv, argc, argv);
	switch (args_options(argc, argv, run_options, OPT_HELP, run_usage, collect_option, &cl, err, errlen)) {
	case ARGS_HELP:
		return CLI_HELP;
	case ARGS_ERROR:
		return CLI_ERROR;
	case ARGS_OK:
		break;
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument \"%s\"", argv[optind]);
		return CLI_ERROR;
	}
	if (cl.scenario_path) {
		if (scenario_load(cl.scenario_path, &inv->scenario, err, errlen) < 0)
			return CLI_ERROR;
		conninfo_redact(inv->scenario.text);
		inv->has_scenario = true;
	}
	if (build_groups(inv, &cl.settings, err, errlen) < 0 || load_expectations(inv, err, errlen) < 0)
		return CLI_ERROR;
	name_scenario(inv);
	return CLI_RUN;
}

void cli_invocation_free(struct run_invocation *inv)
{
	for (size_t i = 0; i < inv->n_expects; i++)
		expect_free(&inv->expects[i]);
	free(inv->expects);
	if (inv->has_scenario)
		scenario_free(&inv->scenario);
	inv->expects = NULL;
	inv->n_expects = 0;
	inv->has_scenario = false;
}
