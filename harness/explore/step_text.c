/* The words of a counterexample's step (step_text.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "explore/step_text.h"

/* Room for one column's name, NUL included. */
#define COLUMN_NAME 48

void step_text_bound(char *text, size_t len, int nparams, const char *const *params)
{
	size_t used = strlen(text);

	for (int i = 0; i < nparams && used + 1 < len; i++) {
		snprintf(text + used, len - used, "%s$%d = '%s'", i ? ", " : " with ", i + 1,
			 params && params[i] ? params[i] : "NULL");
		used = strlen(text);
	}
}

/* The last occurrence in sql of the keyword word (a whole word, any case), or NULL. */
static const char *last_keyword(const char *sql, const char *word)
{
	const size_t n = strlen(word);
	const char *found = NULL;

	for (const char *p = sql; *p; p++)
		if (strncasecmp(p, word, n) == 0 && (p == sql || (!isalnum((unsigned char)p[-1]) && p[-1] != '_')) &&
		    !isalnum((unsigned char)p[n]) && p[n] != '_')
			found = p;
	return found;
}

/*
 * Copies the name of the k-th (from 0) item of the list at list into name: the item's
 * last word (its alias, or its column without a table's prefix). The list ends at a FROM,
 * a ';' or the text's end outside parentheses. Whether it had a k-th item with a name.
 */
static bool list_name(const char *list, int k, char *name)
{
	int depth = 0, item = 0;
	const char *start = list, *p, *end;

	for (p = list; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		if (depth)
			continue;
		if (*p == ',' || *p == ';' || (strncasecmp(p, " FROM ", 6) == 0)) {
			if (item == k)
				break;
			if (*p != ',')
				return false;
			item++;
			start = p + 1;
		}
	}
	if (item != k)
		return false;
	while (p > start && isspace((unsigned char)p[-1]))
		p--;
	end = p;
	while (p > start && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
		p--;
	if (p == end || isdigit((unsigned char)*p))
		return false;
	snprintf(name, COLUMN_NAME, "%.*s", (int)(end - p), p);
	return true;
}

/* The name of sql's k-th result column into name (COLUMN_NAME bytes), "column K+1" when it cannot be read. */
static void column_name(const char *sql, int k, char *name)
{
	const char *list = last_keyword(sql, "RETURNING");

	if (list)
		list += strlen("RETURNING");
	else if ((list = strstr(sql, "SELECT")) || (list = strstr(sql, "select")))
		list += strlen("SELECT");
	if (!list || !list_name(list, k, name))
		snprintf(name, COLUMN_NAME, "column %d", k + 1);
}

void step_text_result(char *out, size_t len, const char *sql, int rc, const int64_t *values, int ncols)
{
	size_t used;

	used = (size_t)snprintf(out, len, "%d row%s", rc, rc == 1 ? "" : "s");
	if (rc <= 0 || !values || ncols <= 0)
		return;
	for (int c = 0; c < ncols && used + 1 < len; c++) {
		char name[COLUMN_NAME];

		column_name(sql, c, name);
		snprintf(out + used, len - used, "%s%s=%lld", c ? ", " : ": ", name, (long long)values[c]);
		used = strlen(out);
	}
	if (rc > 1 && used + 1 < len)
		snprintf(out + used, len - used, " (the first)");
}
