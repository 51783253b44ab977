#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapter/manifest.h"
#include "db/backend.h"

/* One key of a manifest: its name, where its value goes, and whether it must be there. */
struct manifest_key {
	const char *name;	/* as written in the file */
	size_t offset;		/* of its char array in struct adapter_manifest; 0 for those parsed apart */
	size_t size;		/* that array's size */
	int required;		/* 1: the manifest must give it */
};

#define TEXT_KEY(key, field, req) { key, offsetof(struct adapter_manifest, field), \
				    sizeof(((struct adapter_manifest *)0)->field), req }

/* Every key of contract version 1; contract, engines, claim_mode and absent_state are read apart. */
static const struct manifest_key manifest_keys[] = {
	{ "contract", 0, 0, 1 },
	TEXT_KEY("name", name, 1),
	TEXT_KEY("system", system, 1),
	TEXT_KEY("version", version, 1),
	{ "engines", 0, 0, 1 },
	{ "claim_mode", 0, 0, 1 },
	TEXT_KEY("command", command, 1),
	TEXT_KEY("args", args, 0),
	TEXT_KEY("runtime", runtime, 0),
	TEXT_KEY("needs", needs, 0),
	TEXT_KEY("requires", requires, 0),
	TEXT_KEY("tables", tables, 0),
	TEXT_KEY("schemas", schemas, 0),
	TEXT_KEY("cleanup", cleanup, 0),
	TEXT_KEY("state_table", state_table, 1),
	TEXT_KEY("job_column", job_column, 1),
	TEXT_KEY("state_column", state_column, 1),
	TEXT_KEY("done_states", done_states, 1),
	TEXT_KEY("failed_states", failed_states, 0),
	TEXT_KEY("active_states", active_states, 0),
	TEXT_KEY("no_verify", no_verify, 0),
	{ "absent_state", 0, 0, 0 },
};

#define N_KEYS (sizeof(manifest_keys) / sizeof(manifest_keys[0]))

/* The adapters loaded in this process, in the order first named. */
static struct adapter_manifest loaded[ADAPTER_MAX];
static size_t n_loaded;

/* s without its leading and trailing blanks, in place. */
static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* The key named name, or NULL. */
static const struct manifest_key *key_named(const char *name)
{
	for (size_t i = 0; i < N_KEYS; i++)
		if (strcmp(manifest_keys[i].name, name) == 0)
			return &manifest_keys[i];
	return NULL;
}

/* Writes the list of the keys into buf. */
static void list_keys(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_KEYS && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", manifest_keys[i].name);
}

/* engines = a comma-separated list of backend names into m->engines. 0, or -1 with what was expected in err. */
static int parse_engines(const char *value, struct adapter_manifest *m, char *err, size_t errlen)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", value);
	m->engines = 0;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *word = trim(item);
		const struct backend_ops *db = backend_named(word);

		if (!db) {
			snprintf(err, errlen, "engines: expected backends' names (%s), comma-separated; got \"%s\"",
				 backend_names(), word);
			return -1;
		}
		m->engines |= DIALECT_BIT(db->dialect);
	}
	if (!m->engines) {
		snprintf(err, errlen, "engines: expected at least one of %s", backend_names());
		return -1;
	}
	return 0;
}

/* One KEY = VALUE line into m. 0, or -1 with what was expected in err. */
static int parse_pair(const char *name, const char *value, struct adapter_manifest *m, char *err, size_t errlen)
{
	const struct manifest_key *k = key_named(name);
	char keys[512];

	if (!k) {
		list_keys(keys, sizeof(keys));
		snprintf(err, errlen, "unknown key \"%s\"; expected one of: %s", name, keys);
		return -1;
	}
	if (strcmp(name, "contract") == 0) {
		if (strcmp(value, "1") != 0) {
			snprintf(err, errlen, "contract: this claimbench speaks contract version %d; got \"%s\"",
				 ADAPTER_CONTRACT_VERSION, value);
			return -1;
		}
		return 0;
	}
	if (strcmp(name, "engines") == 0)
		return parse_engines(value, m, err, errlen);
	if (strcmp(name, "claim_mode") == 0) {
		if (strcmp(value, "hold") != 0 && strcmp(value, "flip") != 0) {
			snprintf(err, errlen, "claim_mode: expected hold or flip; got \"%s\"", value);
			return -1;
		}
		m->claim_mode = strcmp(value, "hold") == 0 ? MODE_HOLD : MODE_FLIP;
		return 0;
	}
	if (strcmp(name, "absent_state") == 0) {
		if (strcmp(value, "missing") != 0 && strcmp(value, "done") != 0) {
			snprintf(err, errlen, "absent_state: expected missing or done; got \"%s\"", value);
			return -1;
		}
		m->absent_done = strcmp(value, "done") == 0;
		return 0;
	}
	if (strlen(value) >= k->size) {
		snprintf(err, errlen, "%s: expected at most %zu characters", name, k->size - 1);
		return -1;
	}
	memcpy((char *)m + k->offset, value, strlen(value) + 1);
	return 0;
}

/* Whether each item of the list of key names {queue}. 0, or -1 with err. */
static int check_own(const char *key, const char *what, const char *list, char *err, size_t errlen)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save))
		if (!strstr(item, "{queue}")) {
			snprintf(err, errlen, "%s: expected each %s to name {queue} (the run's own), got \"%s\"", key, what,
				 trim(item));
			return -1;
		}
	return 0;
}

/*
 * Whether m names tables or schemas, each naming {queue}, so that what a run drops is its own.
 * 0, or -1 with err.
 */
static int check_tables(const struct adapter_manifest *m, char *err, size_t errlen)
{
	if (!m->tables[0] && !m->schemas[0]) {
		snprintf(err, errlen, "expected tables or schemas (or both): what a run makes, dropped after it");
		return -1;
	}
	if (check_own("tables", "table", m->tables, err, errlen) < 0 ||
	    check_own("schemas", "schema", m->schemas, err, errlen) < 0)
		return -1;
	if (m->cleanup[0] && !strstr(m->cleanup, "{queue}")) {
		snprintf(err, errlen, "cleanup: expected SQL naming {queue} (the run's own), got \"%.100s\"", m->cleanup);
		return -1;
	}
	if (!strstr(m->state_table, "{queue}")) {
		snprintf(err, errlen, "state_table: expected a table naming {queue}, got \"%s\"", m->state_table);
		return -1;
	}
	return 0;
}

int adapter_manifest_parse(const char *path, struct adapter_manifest *m, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	bool seen[N_KEYS] = { false };
	bool in_section = false;
	char line[1024], why[768];
	int lineno = 0, rc = -1;

	if (!f) {
		snprintf(err, errlen, "%s: cannot read the manifest", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *s = trim(line), *eq;

		lineno++;
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			if (strcmp(s, "[adapter]") != 0 || in_section) {
				snprintf(err, errlen, "%s:%d: expected the one section [adapter], got \"%.100s\"", path, lineno, s);
				goto out;
			}
			in_section = true;
			continue;
		}
		eq = strchr(s, '=');
		if (!in_section || !eq) {
			snprintf(err, errlen, "%s:%d: expected %s, got \"%.100s\"", path, lineno,
				 in_section ? "KEY = VALUE" : "[adapter] before any key", s);
			goto out;
		}
		*eq = '\0';
		char *name = trim(s), *value = trim(eq + 1);
		const struct manifest_key *k = key_named(name);

		if (k && seen[k - manifest_keys]) {
			snprintf(err, errlen, "%s:%d: %s: given twice", path, lineno, name);
			goto out;
		}
		if (parse_pair(name, value, m, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
			goto out;
		}
		seen[k - manifest_keys] = true;
	}
	for (size_t i = 0; i < N_KEYS; i++)
		if (manifest_keys[i].required && !seen[i]) {
			snprintf(err, errlen, "%s:%d: expected the key %s, which every manifest gives (end of file)", path,
				 lineno, manifest_keys[i].name);
			goto out;
		}
	if (check_tables(m, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: %s", path, why);
		goto out;
	}
	rc = 0;
out:
	fclose(f);
	return rc;
}

/* The folder the running binary is in, into out. 0, or -1. */
static int binary_dir(char *out, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", out, len - 1);
	char *slash;

	if (n <= 0)
		return -1;
	out[n] = '\0';
	slash = strrchr(out, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

/* The adapters path: $CLAIMBENCH_ADAPTERS, else BINDIR/../adapters:adapters, into out. */
static void adapters_path(char *out, size_t len)
{
	const char *env = getenv("CLAIMBENCH_ADAPTERS");
	char bin[PATH_MAX];

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return;
	}
	if (binary_dir(bin, sizeof(bin)) < 0 || snprintf(out, len, "%s/../adapters:adapters", bin) >= (int)len)
		snprintf(out, len, "adapters");
}

/* Fills m's strategy row from its manifest. */
static void make_strategy(struct adapter_manifest *m)
{
	char summary[sizeof(m->summary)], name[sizeof(m->strategy_name)];

	snprintf(name, sizeof(name), "%s%s", ADAPTER_STRATEGY_PREFIX, m->name);
	memcpy(m->strategy_name, name, sizeof(name));
	snprintf(summary, sizeof(summary), "adapter: %s %s (%.100s)", m->system, m->version, m->path);
	memcpy(m->summary, summary, sizeof(summary));
	m->ops = (struct strategy_ops){
		.name = m->strategy_name,
		.order = 1000,
		.summary = m->summary,
		.dialects = m->engines,
		.modes = MODE_BIT(m->claim_mode),
		.default_mode = m->claim_mode,
	};
	for (int k = 0; k < DIALECT_COUNT; k++)
		if (!(m->engines & DIALECT_BIT(k)))
			m->ops.no_sql_reason[k] = "its adapter's manifest does not list this engine among its engines";
}

const struct adapter_manifest *adapter_load(const char *name, enum adapter_load_error *why, char *err, size_t errlen)
{
	char path[4096], *save = NULL, tried[1024] = "";
	struct adapter_manifest *m;
	size_t used = 0;

	for (size_t i = 0; i < n_loaded; i++)
		if (strcmp(loaded[i].name, name) == 0)
			return &loaded[i];
	if (n_loaded == ADAPTER_MAX) {
		*why = ADAPTER_LOAD_FULL;
		snprintf(err, errlen, "at most %d adapters in one invocation", ADAPTER_MAX);
		return NULL;
	}
	m = &loaded[n_loaded];
	memset(m, 0, sizeof(*m));
	adapters_path(path, sizeof(path));
	for (char *dir = strtok_r(path, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		if (snprintf(m->dir, sizeof(m->dir), "%s/%s", dir, name) >= (int)sizeof(m->dir) ||
		    snprintf(m->path, sizeof(m->path), "%s/%s", m->dir, ADAPTER_MANIFEST_FILE) >= (int)sizeof(m->path))
			continue;
		used += (size_t)snprintf(tried + used, used < sizeof(tried) ? sizeof(tried) - used : 0, "%s%s",
					 used ? ", " : "", m->path);
		if (access(m->path, R_OK) != 0)
			continue;
		if (adapter_manifest_parse(m->path, m, err, errlen) < 0) {
			*why = ADAPTER_LOAD_BAD_MANIFEST;
			return NULL;
		}
		if (strcmp(m->name, name) != 0) {
			*why = ADAPTER_LOAD_BAD_MANIFEST;
			snprintf(err, errlen, "%s: name: expected \"%s\", its folder's name; got \"%s\"", m->path, name, m->name);
			return NULL;
		}
		make_strategy(m);
		n_loaded++;
		*why = ADAPTER_LOAD_OK;
		return m;
	}
	*why = ADAPTER_LOAD_MISSING;
	snprintf(err, errlen, "no adapter \"%s\": none of %s exists (the adapters path is $CLAIMBENCH_ADAPTERS, "
		 "colon-separated)", name, tried);
	return NULL;
}

const struct adapter_manifest *adapter_of_strategy(const struct strategy_ops *st)
{
	for (size_t i = 0; i < n_loaded; i++)
		if (&loaded[i].ops == st)
			return &loaded[i];
	return NULL;
}

int adapter_command_path(const struct adapter_manifest *m, char *out, size_t len)
{
	char bin[PATH_MAX];

	if (strchr(m->command, '/')) {
		snprintf(out, len, "%s/%s", m->dir, m->command);
		return access(out, F_OK) == 0 ? 0 : -1;
	}
	snprintf(out, len, "%s/%s", m->dir, m->command);
	if (access(out, F_OK) == 0)
		return 0;
	if (binary_dir(bin, sizeof(bin)) < 0)
		return -1;
	snprintf(out, len, "%s/adapters/%s", bin, m->command);
	return access(out, X_OK) == 0 ? 0 : -1;
}

bool adapter_installed(const struct adapter_manifest *m)
{
	char path[PATH_MAX + 300];

	if (!*m->requires)
		return true;
	snprintf(path, sizeof(path), "%s/%s", m->dir, m->requires);
	return access(path, F_OK) == 0;
}

int adapter_runtime_path(const struct adapter_manifest *m, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char buf[4096], *save = NULL;

	if (strchr(m->runtime, '/')) {
		snprintf(out, len, "%s", m->runtime);
		return m->runtime[0] == '/' && access(out, X_OK) == 0 ? 0 : -1;
	}
	snprintf(buf, sizeof(buf), "%s", path ? path : "/usr/bin:/bin");
	for (char *dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", dir, m->runtime);
		if (access(out, X_OK) == 0)
			return 0;
	}
	return -1;
}

int adapter_expand(const char *s, const char *queue, char *out, size_t len)
{
	size_t used = 0, qlen = strlen(queue);

	while (*s) {
		if (strncmp(s, "{queue}", 7) == 0) {
			if (used + qlen >= len)
				return -1;
			memcpy(out + used, queue, qlen);
			used += qlen;
			s += 7;
			continue;
		}
		if (used + 1 >= len)
			return -1;
		out[used++] = *s++;
	}
	out[used] = '\0';
	return 0;
}
