#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine/sql_template.h"

/* Appends n bytes of s at *pos in buf. 0, or -1 when they do not fit with the final NUL. */
static int append(char *buf, size_t len, size_t *pos, const char *s, size_t n)
{
	if (*pos + n + 1 > len)
		return -1;
	memcpy(buf + *pos, s, n);
	*pos += n;
	return 0;
}

/*
 * Appends the quoted name for the placeholder at *tmpl ("{key}" or "{key:suffix}") and moves
 * *tmpl past it. 0, or -1 when it does not fit, name is NULL or cannot take a suffix.
 */
static int append_name(char *buf, size_t len, size_t *pos, const char **tmpl, size_t keylen, const char *name)
{
	const char *suffix = *tmpl + keylen, *end;
	size_t n;

	if (!name)
		return -1;
	n = strlen(name);
	if (*suffix == '}') {
		*tmpl = suffix + 1;
		return append(buf, len, pos, name, n);
	}
	suffix++;
	end = strchr(suffix, '}');
	if (!end || n < 2 || name[n - 1] != '"')
		return -1;
	*tmpl = end + 1;
	if (append(buf, len, pos, name, n - 1) < 0 || append(buf, len, pos, "_", 1) < 0 ||
	    append(buf, len, pos, suffix, (size_t)(end - suffix)) < 0)
		return -1;
	return append(buf, len, pos, "\"", 1);
}

/*
 * Appends the quoted name as an SQL string literal ('name' for "name": what LISTEN of the
 * quoted name listens on) and moves *tmpl past the placeholder {word}. 0, or -1 when it
 * does not fit or the name holds a quote of either kind.
 */
static int append_literal(char *buf, size_t len, size_t *pos, const char **tmpl, const char *word,
			  const char *name)
{
	size_t n = strlen(name);

	*tmpl += strlen(word) + 2;
	if (n < 2 || name[0] != '"' || name[n - 1] != '"' || strpbrk(name + 1, "'\"") != name + n - 1)
		return -1;
	if (append(buf, len, pos, "'", 1) < 0 || append(buf, len, pos, name + 1, n - 2) < 0)
		return -1;
	return append(buf, len, pos, "'", 1);
}

/* Whether the template at tmpl holds the placeholder word ("{word}" or, with suffix, "{word:"). */
static bool at(const char *tmpl, const char *word, bool suffix)
{
	size_t n = strlen(word);

	return tmpl[0] == '{' && strncmp(tmpl + 1, word, n) == 0 && (tmpl[n + 1] == '}' || (suffix && tmpl[n + 1] == ':'));
}

/* Appends text for the placeholder {word} at *tmpl and moves *tmpl past it. 0, or -1 when it does not fit. */
static int append_text(char *buf, size_t len, size_t *pos, const char **tmpl, const char *word, const char *text)
{
	*tmpl += strlen(word) + 2;
	return append(buf, len, pos, text, strlen(text));
}

/* The quoted name of the table the placeholder {mark:KEY} at tmpl names, or NULL; *end the placeholder's '}'. */
static const char *marked_name(const char *tmpl, const struct sql_names *names, const char **end)
{
	const struct {
		const char *key;	/* the word after "mark:" */
		const char *name;	/* the table's quoted name */
	} tables[] = {
		{ "jobs", names->jobs }, { "tickets", names->tickets },
		{ "cache", names->cache }, { "control", names->control }, { "audit", names->audit },
		{ "writer", names->writer },
	};
	const char *key = tmpl + strlen("{mark:");

	*end = strchr(key, '}');
	for (size_t i = 0; *end && i < sizeof(tables) / sizeof(tables[0]); i++)
		if ((size_t)(*end - key) == strlen(tables[i].key) && strncmp(key, tables[i].key, (size_t)(*end - key)) == 0)
			return tables[i].name;
	return NULL;
}

/*
 * Appends what marks the table of the placeholder {mark:KEY} at *tmpl as names' owner's
 * (see sql_expand) and moves *tmpl past it. 0, or -1 when it does not fit, there is no
 * such table or owner, or the name holds a character a note may not.
 */
static int append_mark(char *buf, size_t len, size_t *pos, const char **tmpl, const struct sql_names *names)
{
	const char *end, *quoted = marked_name(*tmpl, names, &end);
	char note[512], mark[1536];
	struct owner o;
	size_t n;

	if (!quoted || !names->owner || !names->sql)
		return -1;
	*tmpl = end + 1;
	n = strlen(quoted);
	if (n < 3 || n - 2 >= sizeof(o.table) || quoted[0] != '"' || quoted[n - 1] != '"' ||
	    strspn(quoted + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != n - 2)
		return -1;
	o = *names->owner;
	memcpy(o.table, quoted + 1, n - 2);
	o.table[n - 2] = '\0';
	o.oid = 0;
	owner_format(&o, note, sizeof(note));
	n = (size_t)snprintf(mark, sizeof(mark), names->sql->mark, note, quoted);
	return n < sizeof(mark) ? append(buf, len, pos, mark, n) : -1;
}

/* What the recovery placeholders stand for without leases. */
#define NEW_ROWS "status = 'new'"

int sql_expand(const char *tmpl, const struct sql_names *names, char *buf, size_t len)
{
	const struct {
		const char *word;	/* the placeholder's word */
		const char *text;	/* what it stands for */
	} plain[] = {
		{ "now", names->sql ? names->sql->now : NULL },
		{ "claimable", names->claimable ? names->claimable : NEW_ROWS },
		{ "unfinished", names->unfinished ? names->unfinished : NEW_ROWS },
		{ "lease_until", names->lease_until ? names->lease_until : "NULL" },
	};
	size_t pos = 0;

	while (*tmpl) {
		size_t i = 0;
		int rc;

		while (i < sizeof(plain) / sizeof(plain[0]) && !at(tmpl, plain[i].word, false))
			i++;
		if (strncmp(tmpl, "{mark:", 6) == 0)
			rc = append_mark(buf, len, &pos, &tmpl, names);
		else if (at(tmpl, "jobs", true))
			rc = append_name(buf, len, &pos, &tmpl, 5, names->jobs);
		else if (at(tmpl, "channel", false))
			rc = append_literal(buf, len, &pos, &tmpl, "channel", names->jobs);
		else if (at(tmpl, "tickets", true))
			rc = append_name(buf, len, &pos, &tmpl, 8, names->tickets);
		else if (at(tmpl, "cache", true))
			rc = append_name(buf, len, &pos, &tmpl, 6, names->cache);
		else if (at(tmpl, "control", true))
			rc = append_name(buf, len, &pos, &tmpl, 8, names->control);
		else if (at(tmpl, "audit", false))
			rc = append_name(buf, len, &pos, &tmpl, 6, names->audit);
		else if (at(tmpl, "writer", false))
			rc = append_name(buf, len, &pos, &tmpl, 7, names->writer);
		else if (at(tmpl, "wait_limit_s", false))
			rc = names->wait_limit_s ? append_text(buf, len, &pos, &tmpl, "wait_limit_s", names->wait_limit_s) : -1;
		else if (i < sizeof(plain) / sizeof(plain[0]))
			rc = plain[i].text ? append_text(buf, len, &pos, &tmpl, plain[i].word, plain[i].text) : -1;
		else
			rc = append(buf, len, &pos, tmpl++, 1);
		if (rc < 0)
			return -1;
	}
	if (len == 0)
		return -1;
	buf[pos] = '\0';
	return 0;
}

void sql_names_lease(struct sql_names *names, struct sql_recovery_text *text, int lease_ms, bool reaped)
{
	names->claimable = NULL;
	names->unfinished = NULL;
	names->lease_until = NULL;
	if (lease_ms <= 0)
		return;
	snprintf(text->claimable, sizeof(text->claimable),
		 "(status = 'new' OR (status = 'active' AND lease_until < %s))", names->sql->now);
	snprintf(text->unfinished, sizeof(text->unfinished), "status IN ('new', 'active')");
	snprintf(text->lease_until, sizeof(text->lease_until), names->sql->lease_until, lease_ms);
	names->claimable = reaped ? NULL : text->claimable;
	names->unfinished = text->unfinished;
	names->lease_until = text->lease_until;
}
