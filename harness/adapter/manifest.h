/*
 * An adapter's manifest (adapters/NAME/adapter.ini, contract version 1, docs/adapters.md):
 * what the system is, the engines it runs on, how claimbench starts it, and where its own
 * table says each job's state. Read once while the command line is parsed; each adapter
 * loaded stays for the process's life, its strategy row with it.
 */
#ifndef CLAIMBENCH_ADAPTER_MANIFEST_H
#define CLAIMBENCH_ADAPTER_MANIFEST_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "plugin/strategy.h"

/* The contract version this claimbench speaks; a manifest names the one it was written for. */
#define ADAPTER_CONTRACT_VERSION 1

/* The file name of a manifest in its adapter's folder. */
#define ADAPTER_MANIFEST_FILE "adapter.ini"

/* The prefix of a strategy that is an adapter: --strategy adapter:NAME. */
#define ADAPTER_STRATEGY_PREFIX "adapter:"

/* One adapter as its manifest describes it. */
struct adapter_manifest {
	char dir[PATH_MAX];		/* the adapter's folder */
	char path[PATH_MAX];		/* its manifest file */
	char name[64];			/* name: the folder's name */
	char system[128];		/* system: the queue system it drives ("pg-boss") */
	char version[64];		/* version: that system's version */
	unsigned engines;		/* engines: DIALECT_BIT()s of the dialects the backends it names speak */
	enum claim_mode claim_mode;	/* claim_mode: hold (a claim lives in a transaction) or flip (in a row) */
	char command[256];		/* command: the executable, in dir or the build's adapters folder */
	char args[256];			/* args: arguments after it, split at spaces ("" none) */
	char runtime[64];		/* runtime: the program that runs command, found on PATH, or the absolute
					 * path it names ("" none) */
	char needs[256];		/* needs: what it needs installed, for the refusal */
	char requires[256];		/* requires: a path in dir its install makes ("node_modules/pg-boss"; "" none) */
	char tables[256];		/* tables: its tables, comma-separated, each naming {queue}: dropped after a run
					 * ("" none: its schemas hold them) */
	char schemas[256];		/* schemas: its schemas, comma-separated, each naming {queue}: dropped (CASCADE)
					 * after its tables ("" none) */
	char cleanup[512];		/* cleanup: SQL naming {queue}, run after tables and schemas are dropped
					 * (what the library made elsewhere for the run: PgQ's queue; "" none) */
	char state_table[128];		/* state_table: the table holding each job's state ({queue} replaced) */
	char job_column[128];		/* job_column: SQL giving claimbench's job id from a row of state_table */
	char state_column[128];		/* state_column: SQL giving the row's state as text */
	char done_states[128];		/* done_states: the states of a job done, comma-separated */
	char failed_states[128];	/* failed_states: the states of a job failed ("" none) */
	char active_states[128];	/* active_states: the states of a job in hand ("" none); any other is new */
	char no_verify[256];		/* no_verify: why --verify cannot check it, which refuses it ("" it can) */
	bool absent_done;		/* absent_state = done: a job with no row in state_table is done (a library
					 * that deletes a completed job); else (missing, the default) it is lost */
	char strategy_name[80];		/* "adapter:NAME", the strategy's name in every output */
	char summary[256];		/* the strategy row's summary: system and version */
	struct strategy_ops ops;	/* the strategy row that stands for it (no statements: nothing runs in-process) */
};

/* What adapter_load found wrong; each a distinct exit status at the command line. */
enum adapter_load_error {
	ADAPTER_LOAD_OK,
	ADAPTER_LOAD_MISSING,		/* no folder NAME with a manifest in any adapters folder */
	ADAPTER_LOAD_BAD_MANIFEST,	/* the manifest does not parse: file:line and what was expected in err */
	ADAPTER_LOAD_FULL,		/* more adapters than ADAPTER_MAX in one invocation */
};

/* The most adapters one invocation loads. */
#define ADAPTER_MAX 16

/*
 * The adapter NAME, its manifest read from the first folder of the adapters path that has
 * NAME/adapter.ini (the path: $CLAIMBENCH_ADAPTERS, colon-separated, else the adapters
 * folder beside the binary's build folder and ./adapters); loaded once, the same pointer
 * after. NULL with *why and err when it cannot be.
 */
const struct adapter_manifest *adapter_load(const char *name, enum adapter_load_error *why, char *err, size_t errlen);

/*
 * Reads the manifest at path into m (dir and name set by the caller). 0, or -1 with err
 * naming path:line and what was expected there.
 */
int adapter_manifest_parse(const char *path, struct adapter_manifest *m, char *err, size_t errlen);

/* The manifest behind strategy st, or NULL when st is no adapter's. */
const struct adapter_manifest *adapter_of_strategy(const struct strategy_ops *st);

/*
 * Writes into out the executable an adapter's command names: a path with a slash relative
 * to its folder, else the file in its folder, else in the adapters folder beside the
 * binary (where the build puts the adapters it compiles). 0, or -1 when none exists.
 */
int adapter_command_path(const struct adapter_manifest *m, char *out, size_t len);

/* Whether m's requires path is in its folder (true when it names none). */
bool adapter_installed(const struct adapter_manifest *m);

/* Writes into out the runtime: its absolute path, else found on PATH. 0, or -1 when it is not there. */
int adapter_runtime_path(const struct adapter_manifest *m, char *out, size_t len);

/* Copies s into out (of len) with every "{queue}" replaced by queue. 0, or -1 when it does not fit. */
int adapter_expand(const char *s, const char *queue, char *out, size_t len);

#endif
