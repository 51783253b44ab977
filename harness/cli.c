#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "strategy.h"

/* Long-only options get codes past the ASCII range. */
enum option_code {
	OPT_DB = 256, OPT_STRATEGY, OPT_WORKERS, OPT_JOBS, OPT_WORK_MS, OPT_WORK_DIST, OPT_CLAIM_MODE,
	OPT_DURATION, OPT_REPEAT, OPT_FORMAT, OPT_SEED, OPT_QUEUE, OPT_TABLE_PREFIX, OPT_EMPTY_WAIT,
	OPT_TRIES, OPT_BACKOFF, OPT_POLL, OPT_TICKET_LIMIT, OPT_STALE, OPT_NO_PROGRESS, OPT_HELP,
};

static const struct option run_options[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "strategy", required_argument, NULL, OPT_STRATEGY },
	{ "workers", required_argument, NULL, OPT_WORKERS },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "work-ms", required_argument, NULL, OPT_WORK_MS },
	{ "work-dist", required_argument, NULL, OPT_WORK_DIST },
	{ "claim-mode", required_argument, NULL, OPT_CLAIM_MODE },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "queue", required_argument, NULL, OPT_QUEUE },
	{ "table-prefix", required_argument, NULL, OPT_TABLE_PREFIX },
	{ "empty-wait-ms", required_argument, NULL, OPT_EMPTY_WAIT },
	{ "tries", required_argument, NULL, OPT_TRIES },
	{ "backoff-ms", required_argument, NULL, OPT_BACKOFF },
	{ "poll-ms", required_argument, NULL, OPT_POLL },
	{ "ticket-limit", required_argument, NULL, OPT_TICKET_LIMIT },
	{ "stale-ms", required_argument, NULL, OPT_STALE },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

void cli_print_run_usage(FILE *out)
{
	fputs("usage: claimbench run [options]\n"
	      "Runs each strategy at each worker count on a fresh queue table and prints the measurements.\n"
	      "With no option it runs the classic scenario (seed 001): every strategy, 200 jobs,\n"
	      "10 workers, 100 ms of work each, on a throwaway PostgreSQL.\n"
	      "\n"
	      "  --db CONNINFO          libpq conninfo or URI; default: a throwaway server in a temporary directory\n"
	      "  --strategy LIST|all    strategies, comma-separated, each NAME or NAME:MODE (default all)\n"
	      "  --claim-mode hold|flip claim mode for strategies given without one (default: each one's own)\n"
	      "  --workers LIST         worker counts, comma-separated (default 10)\n"
	      "  --jobs N               jobs in the backlog (default 200)\n"
	      "  --work-ms MS           mean work time per job (default 100)\n"
	      "  --work-dist D          fixed, uniform (0..2x mean) or exp (default fixed)\n"
	      "  --duration S           timed run of S seconds instead of draining the backlog\n"
	      "  --repeat N             repetitions of each strategy x worker count (default 1)\n"
	      "  --format F             table, csv or json (default table)\n"
	      "  --seed N               seed of the work-time draw (default 1)\n"
	      "  --queue NAME           task class of the jobs (default \"default\")\n"
	      "  --table-prefix P       prefix of the run's table names (default claimbench_<pid>_)\n"
	      "  --empty-wait-ms MS     pause after an empty claim while jobs remain (default 5)\n"
	      "  --tries N              nowait-backoff: lock attempts before giving up (default 5)\n"
	      "  --backoff-ms MS        nowait-backoff: sleep between attempts (default 1000)\n"
	      "  --poll-ms MS           ticket: sleep between polls of the line (default 5)\n"
	      "  --ticket-limit X       ticket: tickets at the head of the line that may claim (default 1)\n"
	      "  --stale-ms MS          ticket: age at which a ticket counts as abandoned (default 60000)\n"
	      "  --no-progress          no progress line on stderr (it is drawn only on a terminal anyway)\n"
	      "  --help                 this text\n"
	      "\n"
	      "Exit status: 0 done, 2 usage error, 3 database or environment error, 4 run incomplete.\n",
	      out);
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
	cfg->format = FORMAT_TABLE;
	cfg->seed = 1;
	cfg->queue = "default";
	cfg->table_prefix = prefix;
	cfg->empty_wait_ms = 5;
	cfg->params = (struct strategy_params){
		.tries = 5, .backoff_ms = 1000, .poll_ms = 5, .ticket_limit = 1, .stale_ms = 60000,
	};
	cfg->progress = true;
}

/* Parses a whole decimal integer in [min, max]. 0, or -1 with err naming option. */
static int parse_long(const char *option, const char *text, long min, long max, long *out, char *err, size_t errlen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < min || v > max) {
		snprintf(err, errlen, "--%s: expected a whole number from %ld to %ld, got \"%s\"", option, min, max,
			 text);
		return -1;
	}
	*out = v;
	return 0;
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

/* Parses a finite decimal number in [min, max]. 0, or -1 with err. */
static int parse_double(const char *option, const char *text, double min, double max, double *out, char *err,
			size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(v) || v < min || v > max) {
		snprintf(err, errlen, "--%s: expected a number from %g to %g, got \"%s\"", option, min, max, text);
		return -1;
	}
	*out = v;
	return 0;
}

/* Finds word in the NULL-terminated names; its index, or -1 with err listing them. */
static int parse_word(const char *option, const char *text, const char *const *names, char *err, size_t errlen)
{
	size_t used;

	for (int i = 0; names[i]; i++)
		if (strcmp(text, names[i]) == 0)
			return i;
	used = (size_t)snprintf(err, errlen, "--%s: expected one of", option);
	for (int i = 0; names[i] && used < errlen; i++)
		used += (size_t)snprintf(err + used, errlen - used, "%s %s", i ? "," : "", names[i]);
	if (used < errlen)
		snprintf(err + used, errlen - used, "; got \"%s\"", text);
	return -1;
}

static const char *const mode_names[] = { "hold", "flip", NULL };

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
	if (strcmp(text, "all") == 0) {
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
	struct strategy_params *p = &cfg->params;
	long seed;
	int v;

	switch (code) {
	case OPT_DB:
		cfg->db = arg;
		return 0;
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
		cfg->queue = arg;
		return 0;
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
	if (strlen(cfg->queue) == 0 || strlen(cfg->queue) > 256) {
		snprintf(err, errlen, "--queue: expected a name of 1 to 256 bytes");
		return -1;
	}
	if (strlen(cfg->table_prefix) == 0 || strlen(cfg->table_prefix) > 48) {
		snprintf(err, errlen, "--table-prefix: expected a prefix of 1 to 48 bytes");
		return -1;
	}
	return 0;
}

enum cli_outcome cli_parse_run(int argc, char **argv, struct run_config *cfg, char *err, size_t errlen)
{
	int code, claim_mode = -1;

	cli_defaults(cfg);
	parse_strategies("all", cfg, err, errlen);
	opterr = 0;
	optind = 1;
	while ((code = getopt_long(argc, argv, ":", run_options, NULL)) != -1) {
		if (code == OPT_HELP) {
			cli_print_run_usage(stdout);
			return CLI_HELP;
		}
		if (code == '?' || code == ':') {
			if (code == ':')
				snprintf(err, errlen, "option %s needs a value", argv[optind - 1]);
			else
				snprintf(err, errlen, "unknown option %s", argv[optind - 1]);
			return CLI_ERROR;
		}
		if (apply_option(code, optarg, cfg, &claim_mode, err, errlen) < 0)
			return CLI_ERROR;
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument \"%s\"", argv[optind]);
		return CLI_ERROR;
	}
	if (settle_modes(cfg, claim_mode, err, errlen) < 0 || check_combination(cfg, err, errlen) < 0)
		return CLI_ERROR;
	if (cfg->n_strategies != strategy_registry_len || cfg->n_worker_points != 1 || cfg->workers[0] != 10 ||
	    cfg->jobs != 200 || cfg->work_ms != 100 || cfg->work_dist != WORK_FIXED || cfg->duration_s > 0)
		cfg->scenario = "command line";
	return CLI_RUN;
}
