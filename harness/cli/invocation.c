/*
 * `claimbench run`'s command line and scenario file into run groups. Every option is a
 * row of the option table (cli/option_table.c, and each strategy's own): the file's [global]
 * keys, then a group section's, then the command line set the rows of a group, and a
 * comma-separated value of a row that sweeps makes one group per value.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/exit_status.h"
#include "cli/options.h"
#include "cli/commands.h"
#include "explore/explore_options.h"
#include "cli/group_checks.h"
#include "cli/invocation.h"
#include "cli/secrets.h"
#include "generated/version.h"
#include "plugin/guard.h"
#include "plugin/strategy.h"

/* Settings one run group is built from; no more than this many. */
#define MAX_SETTINGS 64

/* One option's value, from the scenario file or the command line. */
struct setting {
	const struct option_def *opt;	/* the option's row */
	const char *value;		/* its value; "true" for a flag given on the command line */
	const char *file;		/* the scenario file it came from, or NULL for the command line */
	int line;			/* its line in that file */
};

/* The ordered settings of one group: later ones replace earlier ones of the same option. */
struct setting_list {
	struct setting items[MAX_SETTINGS];	/* the settings */
	size_t n;				/* items used */
};

/* Sets (or replaces) one setting in list. 0, or -1 with err when the list is full. */
static int put_setting(struct setting_list *list, const struct setting *st, char *err, size_t errlen)
{
	for (size_t i = 0; i < list->n; i++) {
		if (strcmp(list->items[i].opt->name, st->opt->name) == 0) {
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

/* Prefixes err with where st came from ("file:line: key = value: " or nothing for the command line). */
static void locate_error(const struct setting *st, char *err, size_t errlen)
{
	char what[1024];

	if (!st->file)
		return;
	snprintf(what, sizeof(what), "%s", err);
	snprintf(err, errlen, "%s:%d: %s = %s: %s", st->file, st->line, st->opt->name, st->value, what);
}

/* What building the groups reads besides the settings. */
struct build {
	struct run_invocation *inv;		/* the invocation being built */
	const struct option_def *table;		/* the commands' option table */
	const struct option_set *set;		/* the command's rows: the scenario keys among them */
	const struct invocation_default *defaults;	/* the command's own starting values of run's rows, or NULL */
};

/* Adds a scenario section's keys to list, refusing keys that are not run options. 0, or -1 with err. */
static int add_section(const struct build *b, struct setting_list *list, const struct scenario_section *sec,
		       char *err, size_t errlen)
{
	const struct scenario *sc = &b->inv->scenario;

	for (size_t i = 0; sec && i < sec->n_entries; i++) {
		const struct scenario_entry *e = &sec->entries[i];
		const struct option_def *o = option_set_find(b->set, e->key);
		const struct option_def *refused = o ? NULL : option_set_refuses(b->set, e->key);
		struct setting st = { .opt = o, .value = e->value, .file = sc->path, .line = e->line };

		if (o && o->place == OPTION_IN_COMMAND) {
			snprintf(err, errlen, "%s:%d: \"%s\" in [%s]: --%s is the command line's to give, never a scenario "
				 "file's", sc->path, e->line, e->key, sec->name, o->name);
			return -1;
		}
		if (refused) {
			char why[256];

			option_set_refusal(refused, why, sizeof(why));
			snprintf(err, errlen, "%s:%d: \"%s\" in [%s]: %s", sc->path, e->line, e->key, sec->name, why);
			return -1;
		}
		if (!o) {
			snprintf(err, errlen, "%s:%d: unknown key \"%s\" in [%s]; the keys are run's long options "
				 "(see claimbench run --help)", sc->path, e->line, e->key, sec->name);
			return -1;
		}
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

/* Whether setting st sweeps: its row sweeps and its value is a list. */
static bool sweeps(const struct setting *st)
{
	return (st->opt->flags & OPTION_SWEEP) && strchr(st->value, ',');
}

/* Appends "name=value" of a swept setting to cfg->sweep. 0, or -1 with err when it does not fit. */
static int note_sweep(struct run_config *cfg, const struct setting *st, const char *value, char *err, size_t errlen)
{
	size_t used = strlen(cfg->sweep);
	int wrote = snprintf(cfg->sweep + used, sizeof(cfg->sweep) - used, "%s%s=%s", used ? "," : "", st->opt->name,
			     value);

	if (wrote < 0 || (size_t)wrote >= sizeof(cfg->sweep) - used) {
		snprintf(err, errlen, "the swept keys' values are longer than %zu bytes together", sizeof(cfg->sweep) - 1);
		return -1;
	}
	return 0;
}

/*
 * Builds one group from list at sweep point `point` (a mixed-radix index over the swept
 * settings) into cfg. 0, or -1 with err located at the setting at fault.
 */
static int build_group(const struct build *b, const struct setting_list *list, size_t point, const char *group,
		       struct run_config *cfg, char values[][64], char *err, size_t errlen)
{
	memset(cfg, 0, sizeof(*cfg));
	if (run_config_defaults(cfg, b->table, err, errlen) < 0)
		return -1;
	snprintf(cfg->group, sizeof(cfg->group), "%s", group);
	cfg->defined = b->inv->strategies.ops;
	cfg->n_defined = b->inv->strategies.n;
	for (size_t i = 0; i < list->n; i++) {
		const struct setting *st = &list->items[i];
		const char *value = st->value;

		if (sweeps(st)) {
			size_t n = list_length(value);

			if (list_item(value, point % n, values[i], 64) >= 64) {
				snprintf(err, errlen, "a swept value is longer than 63 bytes");
				locate_error(st, err, errlen);
				return -1;
			}
			point /= n;
			value = values[i];
			if (note_sweep(cfg, st, value, err, errlen) < 0) {
				locate_error(st, err, errlen);
				return -1;
			}
		}
		if (run_config_apply(cfg, st->opt, value, err, errlen) < 0) {
			locate_error(st, err, errlen);
			return -1;
		}
	}
	return group_check_alone(cfg, err, errlen);
}

/* Expands list into inv's groups: one per sweep point. 0, or -1 with err. */
static int expand_group(const struct build *b, const struct setting_list *list, const char *group, char *err,
			size_t errlen)
{
	static char values[MAX_SETTINGS][64];
	struct run_invocation *inv = b->inv;
	size_t points = 1;

	for (size_t i = 0; i < list->n; i++) {
		if (!sweeps(&list->items[i]))
			continue;
		points *= list_length(list->items[i].value);
		if (points > MAX_RUN_GROUPS - inv->n_groups) {
			snprintf(err, errlen, "more than %d groups and sweep points", MAX_RUN_GROUPS);
			locate_error(&list->items[i], err, errlen);
			return -1;
		}
	}
	for (size_t p = 0; p < points; p++) {
		if (build_group(b, list, p, group, &inv->groups[inv->n_groups], values, err, errlen) < 0)
			return -1;
		inv->n_groups++;
	}
	return 0;
}

void invocation_add_targets(const struct run_config *cfg, struct expect_target *targets, size_t *n)
{
	const struct guarded_plan *plan = &cfg->guarded;
	size_t added = 0;

	if (plan->workload == WORKLOAD_QUEUE) {
		for (size_t i = 0; i < cfg->n_strategies; i++)
			targets[(*n)++] = (struct expect_target){ .strategy = cfg->strategies[i].ops->name,
								  .group = cfg->group, .timeline = &cfg->timeline };
		return;
	}
	for (size_t i = 0; i < (plan->all_guards ? guard_registry_len : plan->n_guards) && added < MAX_STRATEGIES; i++) {
		const struct guard_ops *g = plan->all_guards ? guard_registry[i] : plan->guards[i];

		if (!(g->workloads & WORKLOAD_BIT(plan->workload)))
			continue;
		targets[(*n)++] = (struct expect_target){ .strategy = g->name, .group = cfg->group };
		added++;
	}
}

/* Parses the scenario's [expect] section and checks it against the strategies inv runs. 0, or -1 with err. */
static int load_expectations(struct run_invocation *inv, char *err, size_t errlen)
{
	const struct scenario_section *sec = scenario_section(&inv->scenario, "expect");
	static struct expect_target targets[MAX_STRATEGIES * MAX_RUN_GROUPS];
	size_t n_targets = 0;
	char why[768];

	if (!sec)
		return 0;
	for (size_t g = 0; g < inv->n_groups; g++)
		invocation_add_targets(&inv->groups[g], targets, &n_targets);
	inv->expects = calloc(sec->n_entries, sizeof(*inv->expects));
	if (!inv->expects) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < sec->n_entries; i++) {
		const struct scenario_entry *e = &sec->entries[i];

		if (expect_parse(e->key, e->value, &inv->expects[i], why, sizeof(why)) < 0 ||
		    (inv->n_expects++, expect_check(&inv->expects[i], targets, n_targets, why, sizeof(why)) < 0)) {
			snprintf(err, errlen, "%s:%d: expectation \"%s\": %s", inv->scenario.path, e->line, e->key, why);
			return -1;
		}
	}
	return 0;
}

/* Whether a scenario file may give db = text without --trust-scenario: a target its backend allows there, or its throwaway. */
static bool scenario_may_name(const char *text)
{
	const char *rest;
	const struct backend_ops *db = backend_of_target(text, &rest);

	return db && (db->scenario_may_target || (db->target_prefix && db->prefix_alone_throwaway && !*rest));
}

/* Writes into buf the db values a scenario file may give, for a refusal: "sqlite:PATH, mariadb:". */
static void scenario_db_forms(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < backend_registry_len && used < len; k++) {
		const struct backend_ops *db = backend_registry[k];
		const char *form = db->scenario_may_target ? db->target_form
				   : db->target_prefix && db->prefix_alone_throwaway ? db->target_prefix : NULL;

		if (form)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", form);
	}
}

/*
 * Refuses in list a setting from the scenario file that the user must give or allow
 * (--trust-scenario): a shell command (restart-command, failover-command), a server to
 * connect to (a db its backend lets no scenario name: scenario_may_name), since the
 * connection carries the user's credentials. 0, or -1 with err.
 */
static int check_trust(const struct build *b, const struct setting_list *list, char *err, size_t errlen)
{
	for (size_t i = 0; i < list->n && !b->inv->settings.trust_scenario; i++) {
		const struct setting *st = &list->items[i];

		if (st->file && (strcmp(st->opt->name, "restart-command") == 0 ||
				 strcmp(st->opt->name, "failover-command") == 0)) {
			snprintf(err, errlen, "%s:%d: %s: a scenario file may not run a shell command (it would "
				 "run with sh -c as you); give --trust-scenario to allow it, or --%s on the "
				 "command line", st->file, st->line, st->opt->name, st->opt->name);
			return -1;
		}
		if (st->file && strcmp(st->opt->name, "db") == 0 && !scenario_may_name(st->value)) {
			const char *rest;
			char forms[256];

			scenario_db_forms(forms, sizeof(forms));
			snprintf(err, errlen, "%s:%d: db: a scenario file may name a file or a throwaway (%s), not a %s server "
				 "to connect to as you (with your password, .pgpass or certificates); give --db on the "
				 "command line, or --trust-scenario to allow it", st->file, st->line, forms,
				 backend_of_target(st->value, &rest)->name);
			return -1;
		}
	}
	return 0;
}

/* The setting of the option called name in list, or NULL. */
static const struct setting *find_setting(const struct setting_list *list, const char *name)
{
	for (size_t i = 0; i < list->n; i++)
		if (strcmp(list->items[i].opt->name, name) == 0)
			return &list->items[i];
	return NULL;
}

/* A setting that means nothing without another one. */
struct needed_setting {
	const char *option;	/* the setting */
	const char *needs;	/* the one it means nothing without */
	const char *off;	/* a value of needs that is as good as none, or NULL */
	const char *why;	/* the refusal, after "--OPTION needs --NEEDS: " */
};

static const struct needed_setting needed_settings[] = {
	{ "arrival-s", "arrival-rate", NULL,
	  "it says how long producers insert, and without an arrival rate there are none" },
	{ "phase", "arrival-rate", "0",
	  "a timeline's producers insert at the arrival rate, which a load phase scales" },
	{ "server-connections", "pooler", "none",
	  "it sizes the pooler's pool of server connections, and without a pooler each worker has its own" },
};

/*
 * Refuses a setting that means nothing without another one, which would be ignored without
 * a word: --arrival-s without --arrival-rate, --server-connections without --pooler. 0, or
 * -1 with err located at it.
 */
static int check_needed(const struct setting_list *list, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(needed_settings) / sizeof(needed_settings[0]); i++) {
		const struct needed_setting *n = &needed_settings[i];
		const struct setting *st = find_setting(list, n->option);
		const struct setting *needed = find_setting(list, n->needs);

		if (!st || (needed && !(n->off && strcmp(needed->value, n->off) == 0)))
			continue;
		snprintf(err, errlen, "--%s needs --%s: %s", n->option, n->needs, n->why);
		locate_error(st, err, errlen);
		return -1;
	}
	return 0;
}

/* Settings a timeline (--phase) replaces: it sets the run's length and warm-up itself. */
static const char *const timeline_replaces[] = { "duration", "warmup", "arrival-s", NULL };

/*
 * Refuses a setting beside --phase that the timeline replaces (--duration: the run lasts the
 * phases' sum; --warmup: a warmup phase; --arrival-s). 0, or -1 with err located at --phase.
 */
static int check_timeline(const struct setting_list *list, char *err, size_t errlen)
{
	const struct setting *phase = find_setting(list, "phase"), *other;

	for (size_t i = 0; phase && timeline_replaces[i]; i++) {
		if (!(other = find_setting(list, timeline_replaces[i])))
			continue;
		snprintf(err, errlen, "--phase with --%s: a timeline %s (leave --%s out)", other->opt->name,
			 i == 0 ? "lasts the sum of its phases" : i == 1 ? "warms up with a warmup phase"
							  : "has its producers insert until its end",
			 other->opt->name);
		locate_error(phase, err, errlen);
		return -1;
	}
	return 0;
}

/* Builds the group of section sec (NULL: the one group of a file without sections) with the command line's settings. */
static int build_section(const struct build *b, const struct scenario_section *global,
			 const struct scenario_section *sec, const struct setting_list *command_line, char *err,
			 size_t errlen)
{
	struct setting_list list = { .n = 0 };

	for (const struct invocation_default *d = b->defaults; d && d->name; d++) {
		struct setting st = { .opt = option_set_find(b->set, d->name), .value = d->value };

		if (put_setting(&list, &st, err, errlen) < 0)
			return -1;
	}
	if (add_section(b, &list, global, err, errlen) < 0 || add_section(b, &list, sec, err, errlen) < 0)
		return -1;
	for (size_t j = 0; j < command_line->n; j++)
		if (put_setting(&list, &command_line->items[j], err, errlen) < 0)
			return -1;
	if (check_trust(b, &list, err, errlen) < 0 || check_needed(&list, err, errlen) < 0 ||
	    check_timeline(&list, err, errlen) < 0)
		return -1;
	return expand_group(b, &list, sec ? sec->name : "", err, errlen);
}

/* Builds every group of inv from the scenario (if any) and the command-line settings. 0, or -1 with err. */
static int build_groups(const struct build *b, const struct setting_list *command_line, char *err, size_t errlen)
{
	struct run_invocation *inv = b->inv;
	const struct scenario *sc = &inv->scenario;
	const struct scenario_section *global = inv->has_scenario ? scenario_section(sc, "global") : NULL;
	size_t groups = 0;

	for (size_t i = 0; inv->has_scenario && i < sc->n_sections; i++) {
		const struct scenario_section *sec = &sc->sections[i];

		if (sec == global || strcmp(sec->name, "expect") == 0 || strcmp(sec->name, EXPLORE_EXPECT_SECTION) == 0 ||
		    scenario_strategy_section(sec))
			continue;
		groups++;
		if (strlen(sec->name) >= sizeof(inv->groups[0].group)) {
			snprintf(err, errlen, "%s:%d: [%.32s...]: a section name of at most %zu bytes expected, not %zu",
				 sc->path, sec->line, sec->name, sizeof(inv->groups[0].group) - 1, strlen(sec->name));
			return -1;
		}
		if (build_section(b, global, sec, command_line, err, errlen) < 0)
			return -1;
	}
	if (groups == 0 && build_section(b, global, NULL, command_line, err, errlen) < 0)
		return -1;
	for (size_t g = 1; g < inv->n_groups; g++) {
		const struct run_config *first = &inv->groups[0], *other = &inv->groups[g];

		if (first->backend != other->backend || (first->target == NULL) != (other->target == NULL) ||
		    (first->target && strcmp(first->target, other->target) != 0)) {
			snprintf(err, errlen, "every group must use the same database (db differs in [%s])", other->group);
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

/* What the command line's options go into while they are read. */
struct command_line {
	struct run_invocation *inv;	/* takes the command's own settings */
	const struct option_set *set;	/* the rows, by getopt code */
	struct setting_list settings;	/* every option that configures a run group */
	char phases[4096];		/* every --phase given, joined by commas in their order (one setting) */
};

/*
 * Notes a --phase of the command line in cl: each is appended to those before it, so that
 * the setting is the whole timeline in order. 0, or -1 with err.
 */
static int collect_phase(struct command_line *cl, struct setting *st, char *err, size_t errlen)
{
	size_t used = strlen(cl->phases);

	if (used + strlen(st->value) + 2 > sizeof(cl->phases)) {
		snprintf(err, errlen, "--phase: the phases given come to more than %zu bytes", sizeof(cl->phases) - 1);
		return -1;
	}
	snprintf(cl->phases + used, sizeof(cl->phases) - used, "%s%s", used ? "," : "", st->value);
	st->value = cl->phases;
	return put_setting(&cl->settings, st, err, errlen);
}

/* Notes one option of the command line in the struct command_line at ctx. 0, or -1 with err. */
static int collect_option(int code, const char *value, void *ctx, char *err, size_t errlen)
{
	struct command_line *cl = ctx;
	struct setting st;

	if (code >= OPTION_REFUSED_CODE(0)) {
		option_set_refusal(cl->set->refused[OPTION_REFUSED_ROW(code)], err, errlen);
		return -1;
	}
	st = (struct setting){ .opt = cl->set->rows[OPTION_ROW(code)], .value = value ? value : "true" };
	if (st.opt->place == OPTION_IN_COMMAND)
		return option_apply(st.opt, value, &cl->inv->settings, err, errlen);
	if (strcmp(st.opt->name, "phase") == 0)
		return collect_phase(cl, &st, err, errlen);
	return put_setting(&cl->settings, &st, err, errlen);
}

/* Sets inv's command settings to their defaults. 0, or -1 with err. */
static int command_defaults(struct run_invocation *inv, const struct option_set *set, char *err, size_t errlen)
{
	for (size_t i = 0; i < set->n_rows; i++)
		if (set->rows[i]->place == OPTION_IN_COMMAND && option_apply_default(set->rows[i], &inv->settings, err,
										    errlen) < 0)
			return -1;
	return 0;
}

/* The command whose options are command's rows of the table. */
static const struct command *command_of(enum command_id command)
{
	for (const struct command *c = commands; c->name; c++)
		if (c->options == (int)command)
			return c;
	return NULL;
}

enum invocation_outcome invocation_parse(const struct option_def *table, enum command_id command,
					 const struct invocation_default *defaults, int argc, char **argv,
					 struct run_invocation *inv, char *err, size_t errlen)
{
	static struct option_set set;
	struct command_line cl = { .inv = inv, .set = &set };
	struct build b = { .inv = inv, .table = table, .set = &set, .defaults = defaults };
	const struct command *c = command_of(command);

	memset(inv, 0, sizeof(*inv));
	inv->command_line = secrets_command_line(argc, argv);
	if (!inv->command_line) {
		snprintf(err, errlen, "out of memory");
		return INVOCATION_ERROR;
	}
	if (option_set_build(&set, table, command, err, errlen) < 0 || command_defaults(inv, &set, err, errlen) < 0)
		return INVOCATION_ERROR;
	switch (args_options(argc, argv, set.longopts, OPTION_CODE(set.n_rows), NULL, collect_option, &cl, err, errlen)) {
	case ARGS_HELP:
		command_print_usage(c, &set, stdout);
		return INVOCATION_HELP;
	case ARGS_ERROR:
		return INVOCATION_ERROR;
	case ARGS_OK:
		break;
	}
	if (optind < argc && (argc - optind > 1 || inv->settings.scenario)) {
		snprintf(err, errlen, "unexpected argument \"%s\": %s takes one scenario file, as FILE or --scenario FILE",
			 argv[argc - 1], c->name);
		return INVOCATION_ERROR;
	}
	if (optind < argc)
		inv->settings.scenario = argv[optind];
	if (inv->settings.scenario) {
		if (scenario_load(inv->settings.scenario, &inv->scenario, err, errlen) < 0)
			return INVOCATION_ERROR;
		inv->has_scenario = true;
		if (secrets_mask_scenario(&inv->scenario) < 0) {
			snprintf(err, errlen, "out of memory");
			return INVOCATION_ERROR;
		}
		if (scenario_strategies_load(&inv->scenario, &inv->strategies, err, errlen) < 0)
			return INVOCATION_ERROR;
	}
	if (build_groups(&b, &cl.settings, err, errlen) < 0 || load_expectations(inv, err, errlen) < 0)
		return INVOCATION_ERROR;
	name_scenario(inv);
	return INVOCATION_RUN;
}

const struct backend_ops *invocation_backend(const struct run_invocation *inv, char *err, size_t errlen)
{
	const struct run_config *cfg = &inv->groups[0];

	if (cfg->backend)
		return cfg->backend;
	return backend_for_throwaway(err, errlen);
}

/*
 * Refuses more than one run of inv with a --failover-command: the command fails the
 * user's pair over once, and the next run's would find no standby. 0, or -1 with err.
 */
static int check_one_failover_command(const struct run_invocation *inv, char *err, size_t errlen)
{
	size_t runs = 0;

	for (size_t g = 0; g < inv->n_groups; g++) {
		const struct run_config *cfg = &inv->groups[g];

		if (cfg->faults.failover_command)
			runs += (cfg->guarded.workload == WORKLOAD_QUEUE ? cfg->n_strategies : cfg->guarded.n_guards) *
				cfg->n_worker_points * (size_t)run_config_repeat_cap(cfg);
	}
	if (runs <= 1)
		return 0;
	snprintf(err, errlen, "--failover-command with %zu runs: it fails your pair over once, and the next run's "
		 "failover would find no standby; give one run per invocation (one strategy, one --workers, --repeat 1, "
		 "one section)", runs);
	return -1;
}

int invocation_check_on(struct run_invocation *inv, const struct backend_ops *db, char *err, size_t errlen)
{
	for (size_t g = 0; g < inv->n_groups; g++)
		if (group_check_on(&inv->groups[g], db, err, errlen) < 0)
			return -1;
	return check_one_failover_command(inv, err, errlen);
}

int invocation_params_fill(struct run_result *res, const struct run_config *cfg, const struct strategy_ops *st)
{
	return run_params_fill(res, command_options, cfg, st);
}

void invocation_free(struct run_invocation *inv)
{
	free(inv->command_line);
	inv->command_line = NULL;
	for (size_t i = 0; i < inv->n_expects; i++)
		expect_free(&inv->expects[i]);
	free(inv->expects);
	if (inv->has_scenario)
		scenario_free(&inv->scenario);
	scenario_strategies_free(&inv->strategies);
	inv->expects = NULL;
	inv->n_expects = 0;
	inv->has_scenario = false;
}

struct store_context invocation_store_context(const struct run_invocation *inv, const char *command, char *host)
{
	snprintf(host, INVOCATION_HOST_MAX, "unknown");
	gethostname(host, INVOCATION_HOST_MAX - 1);
	return (struct store_context){
		.host = host,
		.version = CLAIMBENCH_VERSION,
		.git_revision = CLAIMBENCH_GIT_REVISION,
		.scenario_text = inv->has_scenario ? inv->scenario.text : inv->command_line,
		.command = command,
	};
}

int invocation_connections(const struct run_invocation *inv)
{
	int most = 0;

	for (size_t g = 0; g < inv->n_groups; g++) {
		int need = group_connections(&inv->groups[g]);

		most = need > most ? need : most;
	}
	return most;
}
