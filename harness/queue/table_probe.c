#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/table_probe.h"

/* The plan's lines as they come, joined by line ends. */
struct plan_text {
	char *text;		/* the lines so far (owned), NULL before the first */
	size_t len;		/* its length */
	int column;		/* the column holding a line */
	bool failed;		/* out of memory */
};

/* Appends one row's line to the plan text at ctx. */
static int add_line(void *ctx, const char *const *cols, int ncols)
{
	struct plan_text *t = ctx;
	const char *line = t->column < ncols && cols[t->column] ? cols[t->column] : "";
	size_t n = strlen(line);
	char *grown = realloc(t->text, t->len + n + 2);

	if (!grown) {
		t->failed = true;
		return -1;
	}
	t->text = grown;
	memcpy(t->text + t->len, line, n);
	t->len += n;
	t->text[t->len++] = '\n';
	t->text[t->len] = '\0';
	return 0;
}

/*
 * The buffers of the first "Buffers: shared hit=H read=R" line of plan: H + R; MariaDB's
 * ANALYZE FORMAT=JSON: the pages its first table's lookup accessed; SAMPLE_UNKNOWN when
 * there is neither.
 */
static int64_t plan_buffers(const char *plan)
{
	const char *line = plan ? strstr(plan, "Buffers: shared") : NULL, *end, *at;
	const char *pages = plan ? strstr(plan, "\"pages_accessed\": ") : NULL;
	int64_t sum = 0;

	if (!line && pages)
		return strtoll(pages + strlen("\"pages_accessed\": "), NULL, 10);
	if (!line)
		return SAMPLE_UNKNOWN;
	end = strchr(line, '\n');
	for (const char *key = "hit="; key; key = strcmp(key, "hit=") == 0 ? "read=" : NULL) {
		at = strstr(line, key);
		if (at && (!end || at < end))
			sum += strtoll(at + strlen(key), NULL, 10);
	}
	return sum;
}

/* Ignores a row: a statement run to see whether the connection still lives. */
static int ignore_text_row(void *ctx, const char *const *cols, int ncols)
{
	(void)ctx;
	(void)cols;
	(void)ncols;
	return 0;
}

/* Copies the three figures of a sizes row into the probe at ctx. */
static int read_sizes(void *ctx, const int64_t *cols, int ncols)
{
	struct table_probe *p = ctx;

	if (ncols != 3)
		return -1;
	p->table_bytes = cols[0];
	p->index_bytes = cols[1];
	p->locks = cols[2];
	return 0;
}

/* Reads the head lookup's plan into p. 0, or -1 with the reason on stderr. */
static int explain(struct admin *a, const struct run_shared *s, struct table_probe *p, const char *label)
{
	const struct backend_ops *db = s->db;
	struct plan_text t = { .column = db->sql->explain_column };
	const char *params[] = { s->cfg->queues[0] };
	char sql[1024];

	if (sql_expand(db->sql->explain_head, &s->names, sql, sizeof(sql)) < 0 ||
	    db->query_text(a->conn, sql, 1, params, add_line, &t) < 0 || t.failed) {
		fprintf(stderr, "claimbench: %s: explaining the head lookup: %s\n", label,
			t.failed ? "out of memory" : db->error_message(a->conn));
		free(t.text);
		return -1;
	}
	p->plan = t.text;
	p->head_buffers = plan_buffers(t.text);
	return 0;
}

void table_probe_take(struct admin *a, const struct run_shared *s, struct table_probe *p, const char *label)
{
	const struct backend_ops *db = s->db;
	char sql[1024];

	*p = (struct table_probe)TABLE_PROBE_UNKNOWN;
	if (!a->conn && !admin_reconnected(a))
		return;
	if (db->query_text(a->conn, "SELECT 1", 0, NULL, ignore_text_row, NULL) < 0 && !admin_reconnected(a))
		return;
	if (explain(a, s, p, label) < 0 || !db->sql->table_sizes)
		return;
	snprintf(sql, sizeof(sql), db->sql->table_sizes, s->jobs_table, s->jobs_table, s->jobs_table);
	if (db->query(a->conn, sql, read_sizes, p) != 1)
		fprintf(stderr, "claimbench: %s: reading the queue table's size: %s\n", label, db->error_message(a->conn));
}
