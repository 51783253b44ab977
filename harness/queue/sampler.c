#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "queue/sampler.h"

/*
 * Columns of a server sample's row (the backend's sample, db/backend_sql.h): a count per
 * wait class, then the table's and the server's figures.
 */
enum sample_column {
	COL_LIVE = WAIT_CLASS_COUNT,	/* n_live_tup */
	COL_DEAD,			/* n_dead_tup */
	COL_HEAP,			/* heap blocks read and hit */
	COL_INDEX,			/* index blocks read and hit */
	COL_VACUUMS,			/* vacuums and autovacuums */
	COL_AUTOVACUUMS,		/* autovacuums */
	COL_XMIN_AGE,			/* the oldest xmin or xid's age */
	SAMPLE_COLUMNS
};

/* Room for a sample's statement with the workers' sessions and the table's name in it. */
#define SAMPLE_SQL_MAX 8192

void sampler_init(struct sampler *sm, const struct run_shared *s, struct admin *admin)
{
	memset(sm, 0, sizeof(*sm));
	sm->s = s;
	sm->admin = admin;
	sm->every_ns = (int64_t)s->cfg->pressure.sample_ms * 1000000;
}

/* Stops sm's sampling for the reason why, said once on stderr at the end of the run. */
static void stop_sampling(struct sampler *sm, const char *why)
{
	sm->failed = true;
	snprintf(sm->failure, sizeof(sm->failure), "%s", why);
}

/* Copies a server sample's row into the sample at ctx. */
static int read_row(void *ctx, const int64_t *cols, int ncols)
{
	struct server_sample *p = ctx;

	if (ncols != SAMPLE_COLUMNS)
		return -1;
	for (int k = 0; k < WAIT_CLASS_COUNT; k++)
		p->waits[k] = (uint32_t)cols[k];
	p->live_tuples = cols[COL_LIVE];
	p->dead_tuples = cols[COL_DEAD];
	p->heap_blocks = cols[COL_HEAP];
	p->index_blocks = cols[COL_INDEX];
	p->vacuums = cols[COL_VACUUMS];
	p->autovacuums = cols[COL_AUTOVACUUMS];
	p->xmin_age = cols[COL_XMIN_AGE];
	return 0;
}

/*
 * Reads a server sample of t's workers into p (the backend's sample), connecting anew once
 * after a lost connection (a restart). 0, or -1 with sm stopped.
 */
static int sample_server(struct sampler *sm, const struct run_threads *t, struct server_sample *p)
{
	const struct backend_ops *db = sm->s->db;
	char pids[MAX_WORKERS * 12 + 1] = "", sql[SAMPLE_SQL_MAX];
	char why[256];
	size_t used = 0;

	for (int i = 0; i < t->n_workers; i++) {
		int pid = atomic_load(&t->w[i].server_pid);

		if (pid > 0)
			used += (size_t)snprintf(pids + used, sizeof(pids) - used, "%s%d", used ? "," : "", pid);
	}
	if (!used && db->sql->sample_no_sessions)
		snprintf(pids, sizeof(pids), "%s", db->sql->sample_no_sessions);
	if (snprintf(sql, sizeof(sql), db->sql->sample, pids, sm->s->jobs_table) >= (int)sizeof(sql)) {
		stop_sampling(sm, "sampling the server: statement too long");
		return -1;
	}
	if (sm->admin->conn && db->query(sm->admin->conn, sql, read_row, p) == 1)
		return 0;
	if (admin_reconnected(sm->admin) && db->query(sm->admin->conn, sql, read_row, p) == 1)
		return 0;
	snprintf(why, sizeof(why), "sampling the server: %s",
		 sm->admin->conn ? db->error_message(sm->admin->conn) : "no connection");
	stop_sampling(sm, why);
	return -1;
}

/* Reads a database file's sample into p: its WAL file's size (0 when there is none; the backend's wal_suffix). */
static void sample_wal_file(const struct sampler *sm, struct server_sample *p)
{
	char wal[1024];
	struct stat st;

	snprintf(wal, sizeof(wal), "%s%s", sm->s->target, sm->s->db->sql->wal_suffix);
	p->wal_bytes = stat(wal, &st) == 0 ? (int64_t)st.st_size : 0;
}

/* Makes room for one more sample in sm. 0, or -1 with sm stopped. */
static int room_for_one(struct sampler *sm)
{
	struct server_sample *grown;
	size_t cap = sm->cap ? sm->cap * 2 : 256;

	if (sm->n < sm->cap)
		return 0;
	grown = realloc(sm->samples, cap * sizeof(*grown));
	if (!grown) {
		stop_sampling(sm, "out of memory for the server's samples");
		return -1;
	}
	sm->samples = grown;
	sm->cap = cap;
	return 0;
}

void sampler_take_if_due(struct sampler *sm, const struct run_threads *t, int64_t now_ns)
{
	struct server_sample p = {
		.live_tuples = SAMPLE_UNKNOWN, .dead_tuples = SAMPLE_UNKNOWN, .heap_blocks = SAMPLE_UNKNOWN,
		.index_blocks = SAMPLE_UNKNOWN, .vacuums = SAMPLE_UNKNOWN, .autovacuums = SAMPLE_UNKNOWN,
		.xmin_age = SAMPLE_UNKNOWN,
		.wal_bytes = SAMPLE_UNKNOWN,
	};

	if (!sm->every_ns || sm->failed || now_ns < sm->next_ns)
		return;
	sm->next_ns = (sm->next_ns ? sm->next_ns : now_ns) + sm->every_ns;
	if (room_for_one(sm) < 0)
		return;
	p.t_ms = (now_ns - sm->s->gate.start_ns) / 1000000;
	for (int i = 0; i < t->n_workers; i++)
		p.claims += atomic_load_explicit(&t->w[i].live.claimed, memory_order_relaxed);
	if (sm->s->db->sql->sample) {
		if (sample_server(sm, t, &p) < 0)
			return;
	} else if (sm->s->db->sql->wal_suffix) {
		sample_wal_file(sm, &p);
	}
	sm->samples[sm->n++] = p;
}

void sampler_take_samples(struct sampler *sm, struct server_sample **out, size_t *n)
{
	*out = sm->samples;
	*n = sm->n;
	sm->samples = NULL;
	sm->n = sm->cap = 0;
}

void sampler_free(struct sampler *sm)
{
	free(sm->samples);
	sm->samples = NULL;
	sm->n = sm->cap = 0;
}
