/*
 * The verdicts of `claimbench compare` and `claimbench ab` as one list, and one printer per
 * format that both commands use: a table for a person (verdict_table.c), one JSON object
 * (verdict_json.c), a pull request's comment in markdown (verdict_markdown.c) or a JUnit XML
 * document for a CI system (verdict_junit.c). Each command fills the list from what it found
 * (compare_verdicts.c, ab_verdicts.c): a verdict per group and metric with its cells, its
 * JSON row and, when it regressed or is undecided, the figures that say why; and the text
 * of its own around them (its sides, its tolerances, its notes). The JUnit printer's XML
 * text is escaped by xml_print_text.
 */
#ifndef CLAIMBENCH_VERDICT_PRINT_H
#define CLAIMBENCH_VERDICT_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "analysis/ab.h"
#include "analysis/compare.h"

/* The columns a verdict's table or markdown row has at most. */
#define VERDICT_COLUMNS_MAX 11

/* The longest text of one cell, of a group in words in a cell or an attribute, of one verdict's figures, with their NULs. */
#define VERDICT_CELL_SIZE 256
#define VERDICT_GROUP_SIZE 192
#define VERDICT_FIGURES_SIZE 512

/* What a verdict means to the gate. */
enum verdict_gate {
	VERDICT_GATE_NONE,		/* not gated: shown, never fails */
	VERDICT_GATE_PASS,		/* gated and no regression */
	VERDICT_GATE_REGRESSION,	/* gated and a regression */
	VERDICT_GATE_UNDECIDED,		/* gated and undecided (ab's: its interval holds the tolerance) */
};

/* One column of the table or of the markdown table. */
struct verdict_column {
	const char *title;	/* its heading */
	int width;		/* the table's printf width: negative left-aligns; 0 none (the markdown's ignores it) */
	const char *gap;	/* what the table prints before it ("" for the first column) */
	bool right;		/* the markdown's alignment: right (numbers) or left */
};

/* One group and metric compared. */
struct verdict {
	const struct compare_group *group;		/* its group (points into the command's result) */
	const char *metric;				/* the metric's path */
	enum verdict_gate gate;				/* what it means to the gate */
	char heading[VERDICT_CELL_SIZE];		/* the table's lines opening its group, when it is the first */
	char cells[VERDICT_COLUMNS_MAX][VERDICT_CELL_SIZE];	/* the table's cells, as the list's columns */
	char md_cells[VERDICT_COLUMNS_MAX][VERDICT_CELL_SIZE];	/* the markdown table's cells, as its md_columns */
	char figures[VERDICT_FIGURES_SIZE];		/* a regression's or undecided one's figures, after its group's
							 * words: "metric base -> cand: why"; "" otherwise */
	json_object *json;				/* its JSON row (owned) */
};

/* Everything a printer shows of one comparison; release with verdict_list_free. */
struct verdict_list {
	const char *command;			/* "compare" or "ab", as the JUnit document names it */
	const char *baseline;			/* the baseline's argument as given */
	const char *candidate;			/* the candidate's argument as given */
	struct verdict *verdicts;		/* the verdicts, in the command's order (owned) */
	size_t n;				/* entries in verdicts */
	const struct verdict_column *columns;	/* the table's columns */
	size_t n_columns;			/* entries in columns and in each verdict's cells */
	const struct verdict_column *md_columns;	/* the markdown table's columns */
	size_t n_md_columns;			/* entries in md_columns and in each verdict's md_cells */
	bool decides_undecided;			/* the command has undecided verdicts (JUnit's skipped counts) */
	bool fail_on_undecided;			/* an undecided verdict fails as a regression does */
	bool junit_names_group;			/* a JUnit failure's message opens with its group's words */
	const struct compare_param_diff *diffs;	/* the parameters that differ, whose changed SQL markdown shows */
	size_t n_diffs;				/* entries in diffs */
	char *table_head;			/* the table's lines before the groups (owned) */
	char *table_notes;			/* the table's lines after the groups, before the regressions (owned) */
	char *table_summary;			/* the table's last lines (owned) */
	char *md_outcome;			/* markdown's first line: the outcome and the counts (owned) */
	char *md_context;			/* markdown's lines after the bullets: what ran, the tolerances (owned) */
	char *md_notes;				/* markdown's lines after the changed SQL, before the table (owned); NULL: none */
	json_object *json_head;			/* the JSON object's members before "comparisons" (owned) */
	json_object *json_tail;			/* its members after "comparisons" (owned) */
};

/* An A/B comparison as ab_verdicts takes it. */
struct ab_report {
	const char *baseline;			/* the baseline's scenario file, as given */
	const char *candidate;			/* the candidate's scenario file, as given */
	size_t rounds;				/* rounds run: AB, BA, AB, ... */
	const char *backend;			/* the backend both ran on, by its name */
	long long invocations[2];		/* the baseline's and the candidate's invocation in the store; 0: not stored */
	const struct ab_tolerance *tol;		/* the tolerances applied */
	bool fail_on_undecided;			/* --fail-on-undecided: an undecided metric fails the gate */
	const struct ab_result *res;		/* what ab_compare found */
	const struct compare_param_diff *diffs;	/* the parameters that differ between the sides (compare_runs'),
						 * of which the markdown shows the changed SQL; NULL: none */
	size_t n_diffs;				/* entries in diffs */
};

/* A comparison as compare_verdicts takes it: the two sides as given, the tolerances, the verdicts. */
struct compare_report {
	const char *baseline;			/* the baseline's argument as given */
	size_t baseline_runs;			/* runs loaded for it */
	const char *candidate;			/* the candidate's argument as given */
	size_t candidate_runs;			/* runs loaded for it */
	const struct compare_tolerance *tol;	/* the tolerances applied */
	const struct compare_result *res;	/* what compare_runs found */
};

/* Fills list (zeroed first) from ab's comparison r, which must outlive it. 0, or -1 when out of memory (list empty). */
int ab_verdicts(const struct ab_report *r, struct verdict_list *list);

/* Fills list (zeroed first) from compare's comparison c, which must outlive it. 0, or -1 when out of memory (list empty). */
int compare_verdicts(const struct compare_report *c, struct verdict_list *list);

/* Releases what list owns and zeroes it. */
void verdict_list_free(struct verdict_list *list);

/*
 * Prints the table: the command's head, a block per group (its heading, the columns'
 * titles, a line per metric), the command's notes, a line per regression and per undecided
 * verdict, the command's summary.
 */
void verdict_print_table(FILE *out, const struct verdict_list *list);

/* Prints the verdicts as one JSON object: the command's members, "comparisons" (the rows), its others. 0, or -1. */
int verdict_print_json(FILE *out, const struct verdict_list *list);

/*
 * Prints the verdicts as markdown for a pull request's comment: the outcome and counts, a
 * bullet per regression and per undecided verdict, what ran, the changed SQL of each
 * strategy defined in SQL as a ```diff block (output/sql_diff.h), the command's notes, then
 * the whole table folded in <details>.
 */
void verdict_print_markdown(FILE *out, const struct verdict_list *list);

/*
 * Prints the verdicts as a JUnit XML document: a <testcase> per gated verdict (classname
 * its group in words, name the metric); a regression a <failure> with its figures, an
 * undecided one a <skipped> with why (a <failure> with fail_on_undecided).
 */
void verdict_print_junit(FILE *out, const struct verdict_list *list);

/*
 * Formats v at the precision of the verdicts' tables: whole numbers from 1000, then one,
 * two or three decimals as it gets smaller; sign when signed; "-" when not finite.
 */
void verdict_number_text(char *buf, size_t size, double v, bool sign);

/* Prints group g in words: "strategy mode N workers", then its section and sweep point when it has them. */
void verdict_print_group_words(FILE *out, const struct compare_group *g);

/* Writes into out (len bytes, cleaned) g's strategy as printed: an adapter's with its system and version ("adapter:pgq (PgQ 3.5)"). */
void verdict_group_label(const struct compare_group *g, char *out, size_t len);

/* Writes group g in words (verdict_print_group_words) into buf (size bytes, cut to fit); "" when it cannot. */
void verdict_group_text(char *buf, size_t size, const struct compare_group *g);

/* True when rows' groups a and b are the same one: compare_runs and ab_compare point both at one run's names. */
bool verdict_same_group(const struct compare_group *a, const struct compare_group *b);

/* Adds the members of group g to obj: strategy, claim_mode, group, sweep, engine, workers. 0, or -1 when out of memory. */
int verdict_json_put_group(json_object *obj, const struct compare_group *g);

/* Returns what print writes into a new string the caller frees (print's ctx passed on); NULL when out of memory. */
char *verdict_text(void (*print)(FILE *, const void *), const void *ctx);

/* Text put into an XML document (the JUnit files of ab and compare): escaped, well-formed. */

/*
 * Prints s (NULL: nothing) as XML character data or an attribute's value: & < > " '
 * as entities, control characters but tab and newline (which XML 1.0 does not allow) as '?'.
 */
void xml_print_text(FILE *out, const char *s);

#endif
