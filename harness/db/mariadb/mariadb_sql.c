#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db/mariadb/mariadb_sql.h"

/* The session variables an UPDATE's RETURNING is captured in: this prefix and the column's place. */
#define CAPTURE_VARIABLE "@claimbench_returning_"

/*
 * The end of the quoted text or comment that starts at s[i] ('...', "...", `...`, -- to
 * the line's end, a block comment), or i when none starts there.
 */
static size_t skip_quoted(const char *s, size_t i)
{
	char q = s[i];

	if (q == '\'' || q == '"' || q == '`') {
		for (i++; s[i]; i++) {
			if (s[i] == '\\' && q == '\'' && s[i + 1])
				i++;
			else if (s[i] == q && s[i + 1] == q)
				i++;
			else if (s[i] == q)
				return i + 1;
		}
		return i;
	}
	if (q == '-' && s[i + 1] == '-')
		return i + strcspn(s + i, "\n");
	if (q == '/' && s[i + 1] == '*') {
		const char *end = strstr(s + i + 2, "*/");

		return end ? (size_t)(end - s) + 2 : strlen(s);
	}
	return i;
}

/* Whether the keyword word stands at s[i], a word of its own. */
static bool keyword_at(const char *s, size_t i, const char *word)
{
	size_t n = strlen(word);

	return (i == 0 || !(isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_')) && strncasecmp(s + i, word, n) == 0 &&
	       !(isalnum((unsigned char)s[i + n]) || s[i + n] == '_');
}

/* Where the keyword word first stands in s outside quotes, comments and parentheses, from from on; -1 when not. */
static long find_keyword(const char *s, size_t from, const char *word)
{
	int depth = 0;

	for (size_t i = from; s[i];) {
		size_t next = skip_quoted(s, i);

		if (next != i) {
			i = next;
			continue;
		}
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')')
			depth--;
		else if (depth == 0 && keyword_at(s, i, word))
			return (long)i;
		i++;
	}
	return -1;
}

/* A new string of s's n bytes with the blanks at either end left out; NULL when out of memory. */
static char *trimmed(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return strndup(s, n);
}

/* Whether the first n bytes of text end with the keyword word, blanks after it allowed. */
static bool ends_with_keyword(const char *text, size_t n, const char *word)
{
	size_t len = strlen(word);

	while (n && isspace((unsigned char)text[n - 1]))
		n--;
	return n >= len && strncasecmp(text + n - len, word, len) == 0 &&
	       (n == len || !(isalnum((unsigned char)text[n - len - 1]) || text[n - len - 1] == '_'));
}

/*
 * Adds part text (owned from here on, freed on failure) to out, its $N turned into '?'
 * with their bindings noted. 0, or -1 with err.
 */
static int add_part(struct mariadb_translation *out, char *text, int nparams, bool captured, char *err,
		    size_t errlen)
{
	struct mariadb_part *p;
	size_t w = 0;

	if (!text) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (out->nparts == MARIADB_MAX_PARTS) {
		snprintf(err, errlen, "more than %d statements in one template", MARIADB_MAX_PARTS);
		free(text);
		return -1;
	}
	p = &out->parts[out->nparts++];
	*p = (struct mariadb_part){ .sql = text, .captured = captured };
	for (size_t i = 0; text[i];) {
		size_t next = skip_quoted(text, i);
		char *end;
		long n;

		if (next != i) {
			memmove(text + w, text + i, next - i);
			w += next - i;
			i = next;
			continue;
		}
		if (text[i] != '$' || !isdigit((unsigned char)text[i + 1])) {
			text[w++] = text[i++];
			continue;
		}
		n = strtol(text + i + 1, &end, 10);
		if (n < 1 || n > nparams) {
			snprintf(err, errlen, "parameter $%ld: the statement has $1..$%d", n, nparams);
			return -1;
		}
		if (p->nbinds == MARIADB_MAX_BINDS) {
			snprintf(err, errlen, "more than %d parameters in one statement", MARIADB_MAX_BINDS);
			return -1;
		}
		p->bind_integer[p->nbinds] = ends_with_keyword(text, w, "LIMIT") || ends_with_keyword(text, w, "OFFSET");
		p->bind_param[p->nbinds++] = (int)n - 1;
		text[w++] = '?';
		i = (size_t)(end - text);
	}
	text[w] = '\0';
	return 0;
}

/* Whether item is a column, maybe qualified: letters, digits, '_' and '.', not starting with a digit. */
static bool is_column(const char *item)
{
	return *item && !isdigit((unsigned char)*item) &&
	       strspn(item, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.") == strlen(item);
}

/* Whether the n bytes of name, a column maybe qualified and quoted ("..." or `...`), name column, maybe qualified. */
static bool names_column(const char *name, size_t n, const char *column)
{
	const char *dot = strrchr(column, '.'), *tail = dot ? dot + 1 : column;
	size_t start = n;

	while (start && name[start - 1] != '.')
		start--;
	name += start;
	n -= start;
	if (n >= 2 && (name[0] == '"' || name[0] == '`') && name[n - 1] == name[0]) {
		name++;
		n -= 2;
	}
	return n == strlen(tail) && strncasecmp(name, tail, n) == 0;
}

/* Where an assignment's value stands in an UPDATE's text: [from, to). */
struct assigned_value {
	size_t from;	/* its first byte, blanks before it left out */
	size_t to;	/* past its last byte, blanks after it left out */
};

/*
 * Where the value of the last assignment to column stands in the SET list of stmt, which
 * runs from set (past the keyword SET) to end, into *value; false when none assigns it.
 */
static bool find_assignment(const char *stmt, size_t set, size_t end, const char *column,
			    struct assigned_value *value)
{
	size_t item = set, eq = 0;
	bool found = false;
	int depth = 0;

	for (size_t i = set; i <= end;) {
		size_t next = i < end ? skip_quoted(stmt, i) : i;

		if (next != i) {
			i = next;
			continue;
		}
		if (i == end || (depth == 0 && stmt[i] == ',')) {
			size_t name = item, name_end = eq;

			while (name < name_end && isspace((unsigned char)stmt[name]))
				name++;
			while (name_end > name && isspace((unsigned char)stmt[name_end - 1]))
				name_end--;
			if (eq > item && names_column(stmt + name, name_end - name, column)) {
				value->from = eq + 1 + strspn(stmt + eq + 1, " \t\r\n");
				value->to = i;
				while (value->to > value->from && isspace((unsigned char)stmt[value->to - 1]))
					value->to--;
				found = value->to > value->from;
			}
			item = i + 1;
			eq = 0;
		} else if (stmt[i] == '(') {
			depth++;
		} else if (stmt[i] == ')') {
			depth--;
		} else if (depth == 0 && stmt[i] == '=' && eq <= item) {
			eq = i;
		}
		i++;
	}
	return found;
}

/*
 * Writes into update (room bytes) the first split bytes of UPDATE statement stmt, the value
 * of each assignment to a column of columns (ncolumns, in RETURNING's order) captured in
 * its session variable as it is assigned: "c = (@v := value)". variable[k]: the variable
 * (from 0) column k is read from then (another's when two name one assignment), or -1 when
 * none of its assignments was captured. Capturing the value assigned, not reading the
 * column after, holds whether MariaDB assigns in order or all at once (an UPDATE whose
 * WHERE reads its own table is run as a multi-table UPDATE, whose assignments all read the
 * row as it was). The bytes written.
 */
static size_t write_captured_assignments(char *update, size_t room, const char *stmt, size_t split,
					 char *const *columns, int ncolumns, int *variable)
{
	struct assigned_value at[MARIADB_MAX_RETURNING];
	long set = find_keyword(stmt, 0, "SET");
	size_t used = 0, copied = 0;

	for (int k = 0; k < ncolumns; k++)
		variable[k] = set >= 0 && (size_t)set < split &&
			      find_assignment(stmt, (size_t)set + 3, split, columns[k], &at[k]) ? k : -1;
	for (;;) {
		int first = -1;

		for (int k = 0; k < ncolumns; k++)
			if (variable[k] == k && at[k].from >= copied && (first < 0 || at[k].from < at[first].from))
				first = k;
		if (first < 0)
			break;
		used += (size_t)snprintf(update + used, room - used, "%.*s(" CAPTURE_VARIABLE "%d := %.*s)",
					 (int)(at[first].from - copied), stmt + copied, first + 1,
					 (int)(at[first].to - at[first].from), stmt + at[first].from);
		copied = at[first].to;
		for (int k = first + 1; k < ncolumns; k++)
			if (variable[k] == k && at[k].from == at[first].from)
				variable[k] = first;
	}
	used += (size_t)snprintf(update + used, room - used, "%.*s", (int)(split - copied), stmt + copied);
	return used;
}

/*
 * Whether the n bytes of name are a column's name alone, maybe qualified and quoted (no
 * expression: NOT j.id, a - j.id), with the qualifier column has, if both have one.
 */
static bool plain_name(const char *name, size_t n, const char *column)
{
	const char *dot = memrchr(name, '.', n), *column_dot = strrchr(column, '.');

	if (!n || strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.`\"") < n)
		return false;
	if (!dot || !column_dot)
		return true;
	return (size_t)(dot - name) == (size_t)(column_dot - column) && strncasecmp(name, column, (size_t)(dot - name)) == 0;
}

/*
 * Whether the n bytes of conjunct (blanks trimmed) are "NAME = $N" or "$N = NAME" with NAME
 * a plain name of column (plain_name): *param is then N - 1.
 */
static bool pins_to_param(const char *conjunct, size_t n, const char *column, int *param)
{
	const char *eq = memchr(conjunct, '=', n), *name, *value;
	size_t name_n, value_n;
	char *end;
	long k;

	if (!eq || memchr(eq + 1, '=', n - (size_t)(eq + 1 - conjunct)) || eq == conjunct || eq[-1] == '<' ||
	    eq[-1] == '>' || eq[-1] == '!')
		return false;
	for (int side = 0; side < 2; side++) {
		name = side ? eq + 1 : conjunct;
		name_n = side ? n - (size_t)(eq + 1 - conjunct) : (size_t)(eq - conjunct);
		value = side ? conjunct : eq + 1;
		value_n = side ? (size_t)(eq - conjunct) : n - (size_t)(eq + 1 - conjunct);
		while (name_n && isspace((unsigned char)*name))
			name++, name_n--;
		while (name_n && isspace((unsigned char)name[name_n - 1]))
			name_n--;
		while (value_n && isspace((unsigned char)*value))
			value++, value_n--;
		while (value_n && isspace((unsigned char)value[value_n - 1]))
			value_n--;
		if (value_n < 2 || value[0] != '$' || !isdigit((unsigned char)value[1]) || !plain_name(name, name_n, column))
			continue;
		k = strtol(value + 1, &end, 10);
		if ((size_t)(end - value) == value_n && k >= 1 && names_column(name, name_n, column)) {
			*param = (int)k - 1;
			return true;
		}
	}
	return false;
}

/* Whether UPDATE stmt, whose SET stands at set, names more than one table (a comma or a JOIN before SET). */
static bool multi_table(const char *stmt, size_t set)
{
	char *tables = strndup(stmt, set);
	bool many = !tables || find_keyword(tables, 0, "JOIN") >= 0;

	for (size_t i = 0; tables && !many && tables[i];) {
		size_t next = skip_quoted(tables, i);

		many = next == i && tables[i] == ',';
		i = next != i ? next : i + 1;
	}
	free(tables);
	return many;
}

/*
 * Whether the WHERE clause of UPDATE stmt, from where (past the keyword) to returning, pins
 * column to a parameter: a conjunct "column = $N" at its top level, only AND between its
 * conjuncts (no OR, no BETWEEN, whose AND is no conjunction), column assigned nowhere in the
 * SET list before where, and one table updated; *param is N - 1.
 */
static bool where_pins(const char *stmt, size_t where, size_t returning, const char *column, int *param)
{
	char *clause = trimmed(stmt + where, returning - where);
	struct assigned_value assigned;
	long set = find_keyword(stmt, 0, "SET");
	bool pinned = false;
	size_t from = 0;

	if (!clause || set < 0 || find_keyword(clause, 0, "OR") >= 0 || find_keyword(clause, 0, "BETWEEN") >= 0 ||
	    multi_table(stmt, (size_t)set) ||
	    find_assignment(stmt, (size_t)set + 3, where - strlen("WHERE"), column, &assigned)) {
		free(clause);
		return false;
	}
	for (;;) {
		long and = find_keyword(clause, from, "AND");
		size_t to = and >= 0 ? (size_t)and : strlen(clause);

		if (pins_to_param(clause + from, to - from, column, param)) {
			pinned = true;
			break;
		}
		if (and < 0)
			break;
		from = (size_t)and + strlen("AND");
	}
	free(clause);
	return pinned;
}

/*
 * Adds UPDATE statement stmt whose RETURNING stands at returning, every returned column of
 * it (columns, k of them) pinned by its WHERE to a parameter (where_pins): the UPDATE alone,
 * then a part without a statement whose row is those parameters. 0, 1 when a column is not
 * pinned (nothing added), or -1 with err.
 */
static int add_pinned_returning(struct mariadb_translation *out, const char *stmt, size_t returning, int nparams,
				char *const *columns, int k, char *err, size_t errlen)
{
	long where = find_keyword(stmt, 0, "WHERE");
	struct mariadb_part *p;
	int param[MARIADB_MAX_RETURNING];

	if (where < 0 || (size_t)where > returning || out->nparts + 2 > MARIADB_MAX_PARTS)
		return 1;
	for (int c = 0; c < k; c++)
		if (!where_pins(stmt, (size_t)where + strlen("WHERE"), returning, columns[c], &param[c]) ||
		    param[c] >= nparams)
			return 1;
	if (add_part(out, trimmed(stmt, returning), nparams, false, err, errlen) < 0)
		return -1;
	p = &out->parts[out->nparts++];
	*p = (struct mariadb_part){ .captured = true, .nreturn = k };
	memcpy(p->return_param, param, sizeof(int) * (size_t)k);
	return 0;
}

/*
 * Adds UPDATE statement stmt whose RETURNING stands at returning: with one row's values and
 * every returned column pinned by the WHERE, the UPDATE alone (add_pinned_returning); else
 * the UPDATE capturing each returned column's new value in a session variable (write_captured_assignments; a column it
 * does not assign set to itself through the variable after its own assignments), and a
 * SELECT of those variables; many: each variable gathers a list of every matched row's
 * value (V and the hex of its text, or N for NULL, ',' between), emptied by a SET before
 * the UPDATE, each column read after the UPDATE's own assignments (the query path's
 * statements, the harness's own, read no table but their own).
 * 0, or -1 with err.
 */
static int add_update_returning(struct mariadb_translation *out, const char *stmt, size_t returning, int nparams,
				bool many, char *err, size_t errlen)
{
	long where = find_keyword(stmt, 0, "WHERE");
	size_t split = where >= 0 && (size_t)where < returning ? (size_t)where : returning;
	/*
	 * The statement, up to four more copies of each returned column's name (many's list
	 * capture; the names together are shorter than the statement) and each one's own text
	 * around them (many's, the longest, is 140 bytes).
	 */
	size_t room = strlen(stmt) * 5 + 256 + MARIADB_MAX_RETURNING * 160, used = 0, sel, reset_used;
	char *list = trimmed(stmt + returning + strlen("RETURNING"), strlen(stmt + returning + strlen("RETURNING")));
	char *update = malloc(room), *select = malloc(room), *reset = malloc(room), *item, *save = NULL;
	char *columns[MARIADB_MAX_RETURNING];
	int variable[MARIADB_MAX_RETURNING];
	int k = 0;

	if (!list || !update || !select || !reset) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *column = trimmed(item, strlen(item));

		if (!column || !is_column(column)) {
			snprintf(err, errlen, "UPDATE ... RETURNING %.60s: MariaDB has no UPDATE ... RETURNING, and "
				 "claimbench stands in for it with columns only", column ? column : item);
			free(column);
			goto fail;
		}
		if (k == MARIADB_MAX_RETURNING) {
			snprintf(err, errlen, "UPDATE ... RETURNING of more than %d columns", MARIADB_MAX_RETURNING);
			free(column);
			goto fail;
		}
		columns[k++] = column;
	}
	if (k == 0) {
		snprintf(err, errlen, "UPDATE ... RETURNING with nothing after RETURNING");
		goto fail;
	}
	if (!many) {
		int pinned = add_pinned_returning(out, stmt, returning, nparams, columns, k, err, errlen);

		if (pinned <= 0) {
			free(update);
			free(select);
			free(reset);
			for (int c = 0; c < k; c++)
				free(columns[c]);
			free(list);
			return pinned;
		}
	}
	if (many)
		used = (size_t)snprintf(update, room, "%.*s", (int)split, stmt);
	else
		used = write_captured_assignments(update, room, stmt, split, columns, k, variable);
	while (used && isspace((unsigned char)update[used - 1]))
		used--;
	sel = (size_t)snprintf(select, room, "SELECT ");
	reset_used = (size_t)snprintf(reset, room, "SET ");
	for (int c = 0; c < k; c++) {
		const char *column = columns[c];

		if (many)
			used += (size_t)snprintf(update + used, room - used,
						 ", %s = IF((" CAPTURE_VARIABLE "%d := CONCAT_WS(',', " CAPTURE_VARIABLE
						 "%d, IFNULL(CONCAT('V', HEX(CAST(%s AS CHAR))), 'N'))) IS NULL, %s, %s)",
						 column, c + 1, c + 1, column, column, column);
		else if (variable[c] < 0)
			used += (size_t)snprintf(update + used, room - used, ", %s = (" CAPTURE_VARIABLE "%d := %s)",
						 column, c + 1, column);
		reset_used += (size_t)snprintf(reset + reset_used, room - reset_used, "%s" CAPTURE_VARIABLE "%d = NULL",
					       c > 0 ? ", " : "", c + 1);
		sel += (size_t)snprintf(select + sel, room - sel, "%s" CAPTURE_VARIABLE "%d", c > 0 ? ", " : "",
					(!many && variable[c] >= 0 ? variable[c] : c) + 1);
	}
	used += (size_t)snprintf(update + used, room - used, " %.*s", (int)(returning - split), stmt + split);
	while (used && isspace((unsigned char)update[used - 1]))
		update[--used] = '\0';
	for (int c = 0; c < k; c++)
		free(columns[c]);
	free(list);
	if (many && add_part(out, reset, nparams, false, err, errlen) < 0) {
		free(update);
		free(select);
		return -1;
	}
	if (!many)
		free(reset);
	if (add_part(out, update, nparams, false, err, errlen) < 0) {
		free(select);
		return -1;
	}
	if (add_part(out, select, nparams, true, err, errlen) < 0)
		return -1;
	out->parts[out->nparts - 1].list = many;
	return 0;
fail:
	for (int c = 0; c < k; c++)
		free(columns[c]);
	free(list);
	free(update);
	free(select);
	free(reset);
	return -1;
}

/*
 * Adds one statement of a template, stmt (its text alone, owned from here on); many as for
 * mariadb_translate. 0, or -1 with err.
 */
static int add_statement(struct mariadb_translation *out, char *stmt, int nparams, bool many, char *err,
			 size_t errlen)
{
	long returning = keyword_at(stmt, 0, "UPDATE") ? find_keyword(stmt, 0, "RETURNING") : -1;
	int rc;

	if (find_keyword(stmt, 0, "NOWAIT") >= 0)
		out->nowait = true;
	if (out->nparts == 0 && (keyword_at(stmt, 0, "BEGIN") || keyword_at(stmt, 0, "START")))
		out->transaction = true;
	if (returning < 0)
		return add_part(out, stmt, nparams, false, err, errlen);
	rc = add_update_returning(out, stmt, (size_t)returning, nparams, many, err, errlen);
	free(stmt);
	return rc;
}

int mariadb_translate(const char *sql, int nparams, bool many, struct mariadb_translation *out, char *err,
		      size_t errlen)
{
	size_t start = 0, i = 0;

	memset(out, 0, sizeof(*out));
	for (;;) {
		size_t next = skip_quoted(sql, i);

		if (next != i) {
			i = next;
			continue;
		}
		if (sql[i] == ';' || !sql[i]) {
			char *stmt = trimmed(sql + start, i - start);

			if (!stmt) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			if (!*stmt)
				free(stmt);
			else if (add_statement(out, stmt, nparams, many, err, errlen) < 0)
				goto fail;
			if (!sql[i])
				break;
			start = i + 1;
		}
		i++;
	}
	if (out->nparts == 0) {
		snprintf(err, errlen, "an empty statement");
		goto fail;
	}
	return 0;
fail:
	mariadb_translation_free(out);
	return -1;
}

void mariadb_translation_free(struct mariadb_translation *out)
{
	for (int i = 0; i < out->nparts; i++)
		free(out->parts[i].sql);
	memset(out, 0, sizeof(*out));
}

/* The value of hex digit c, or -1 when it is none. */
static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int mariadb_list_next(char **cursor, char **value)
{
	char *s = *cursor, *w = s;
	size_t n = strcspn(s, ",");

	if (!*s)
		return 0;
	*cursor = s[n] ? s + n + 1 : s + n;
	if (n == 1 && *s == 'N') {
		*value = NULL;
		return 1;
	}
	if (*s != 'V' || n % 2 == 0)
		return -1;
	for (size_t i = 1; i < n; i += 2) {
		int hi = hex_value(s[i]), lo = hex_value(s[i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		*w++ = (char)(hi * 16 + lo);
	}
	*w = '\0';
	*value = s;
	return 1;
}
