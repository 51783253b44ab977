/*
 * The parsers and printers (option_parse_fn, option_format_fn) of the commands' rows whose
 * values are more than one number or word (--db, --strategy, --guard, --workers, --queue,
 * --claim-mode, --table-prefix, the fault lists) or one number with a gap in its range
 * (--progress-interval). option_table.c's rows name them.
 */
#ifndef CLAIMBENCH_OPTION_VALUES_H
#define CLAIMBENCH_OPTION_VALUES_H

#include <stddef.h>

#include "model/option.h"

/*
 * --db: the driver and target, as backend_of_target reads them (sqlite:PATH, mariadb:...,
 * else a conninfo); a target NULL for a prefix alone that asks for its backend's throwaway,
 * and driver and target NULL without --db (invocation_backend chooses).
 */
int parse_db(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --db as text, its passwords masked. */
void format_db(const struct option_def *o, const void *base, char *buf, size_t len);

/*
 * --progress-interval: 0 (no lines), or from PROGRESS_MIN_INTERVAL_S to 3600 seconds; a
 * shorter interval would round to no interval at all and print nothing.
 */
int parse_progress_interval(const struct option_def *o, const char *text, void *base, char *err,
			    size_t errlen);

/* --progress-interval as text. */
void format_progress_interval(const struct option_def *o, const void *base, char *buf, size_t len);

/* --strategy: "all" (NULL too) or "name[:mode],..."; modes not given are left MODE_COUNT. */
int parse_strategies(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --strategy as text: "all", or each strategy with the claim mode given for it. */
void format_strategies(const struct option_def *o, const void *base, char *buf, size_t len);

/* --guard: "all" (NULL too) or "name,..."; whether each guards the workload is checked once all is parsed. */
int parse_guards(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --guard as text: "all", or the guards given. */
void format_guards(const struct option_def *o, const void *base, char *buf, size_t len);

/*
 * --work-dist: a distribution's name (work_dist_names), or uniform:MIN-MAX, a range of work
 * times in ms, 0 <= MIN < MAX <= 3600000, whose mean it sets as --work-ms; only uniform takes
 * a range (the others are given by their mean and shape).
 */
int parse_work_dist(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --work-dist as text: the name, or uniform:MIN-MAX. */
void format_work_dist(const struct option_def *o, const void *base, char *buf, size_t len);

/* --workers: "w1,w2,...", each from 1 to MAX_WORKERS. */
int parse_workers(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --workers as text. */
void format_workers(const struct option_def *o, const void *base, char *buf, size_t len);

/* --queue: "name,name,...", 1 to MAX_QUEUES names of 1 to QUEUE_NAME_MAX - 1 bytes. */
int parse_queues(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --repeat: N (1 to 1000) or auto (repeat 0). */
int parse_repeat(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --repeat as text. */
void format_repeat(const struct option_def *o, const void *base, char *buf, size_t len);

/* --queue as text. */
void format_queues(const struct option_def *o, const void *base, char *buf, size_t len);

/* --claim-mode: hold or flip; NULL: each strategy's own. */
int parse_claim_mode(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --claim-mode as text, "" when not given. */
void format_claim_mode(const struct option_def *o, const void *base, char *buf, size_t len);

/* --table-prefix: 1 to 48 letters, digits, _ - or .; NULL: the run's own. */
int parse_table_prefix(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --table-prefix as text, "" for the run's own. */
void format_table_prefix(const struct option_def *o, const void *base, char *buf, size_t len);

/* --KIND-at: instants in seconds after the start, comma-separated; NULL: none. */
int parse_instants(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --KIND-at as text. */
void format_instants(const struct option_def *o, const void *base, char *buf, size_t len);

/* --KIND-exec: the N-th executions of the run (from 1), comma-separated; NULL: none. */
int parse_exec_numbers(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --KIND-exec as text. */
void format_exec_numbers(const struct option_def *o, const void *base, char *buf, size_t len);

/* --phase: the run's timeline (model/timeline.h), comma-separated phases; NULL: none. */
int parse_phases(const struct option_def *o, const char *text, void *base, char *err, size_t errlen);

/* --phase as text. */
void format_phases(const struct option_def *o, const void *base, char *buf, size_t len);

#endif
