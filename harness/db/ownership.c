#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/backend.h"
#include "db/ownership.h"

/* How far a process's start may lie from its note's, in seconds (the note has whole seconds, /proc ticks). */
#define START_SLACK_S 2

/* The start of process pid, in seconds since the epoch, from /proc; -1 when unknown. */
static time_t process_start(long pid)
{
	char path[64], buf[1024], *close_paren;
	unsigned long long ticks = 0, boot = 0;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f;
	size_t n;
	int field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/*
	 * Field 22, the start in clock ticks after boot, counted past the command's closing
	 * parenthesis (the end of field 2): the space after it comes before field 3, and each
	 * further space before the next field.
	 */
	close_paren = strrchr(buf, ')');
	if (!close_paren || hz <= 0)
		return -1;
	for (field = 3, close_paren++; field < 22 && close_paren; field++)
		close_paren = strchr(close_paren + 1, ' ');
	if (!close_paren || sscanf(close_paren, " %llu", &ticks) != 1)
		return -1;
	f = fopen("/proc/stat", "r");
	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "btime %llu", &boot) == 1)
			break;
	fclose(f);
	return boot ? (time_t)(boot + ticks / (unsigned long long)hz) : -1;
}

void owner_self(struct owner *o)
{
	memset(o, 0, sizeof(*o));
	o->pid = (long)getpid();
	if (gethostname(o->host, sizeof(o->host) - 1) != 0)
		snprintf(o->host, sizeof(o->host), "unknown");
	o->host[strspn(o->host, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-")] = '\0';
	o->started = process_start(o->pid);
	if (o->started < 0)
		o->started = time(NULL);
}

void owner_format(const struct owner *o, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, OWNER_NOTE_PREFIX "pid %ld on %s started %lld", o->pid, o->host,
				       (long long)o->started);

	if (o->table[0] && used < len)
		used += (size_t)snprintf(buf + used, len - used, "; table %s", o->table);
	if (o->oid && used < len)
		snprintf(buf + used, len - used, " oid %llu", o->oid);
}

/*
 * Reads what follows "; table " in a note: a name and maybe " oid N" (decimal, 1 or more,
 * within unsigned long long), nothing after. 0, or -1. Any role that may create tables can
 * write a note: nothing in it is trusted, so the number is read with its range checked.
 */
static int parse_table(const char *rest, struct owner *o)
{
	size_t n = strcspn(rest, " ");
	char *end;

	if (n == 0 || n >= sizeof(o->table))
		return -1;
	memcpy(o->table, rest, n);
	o->table[n] = '\0';
	rest += n;
	if (!*rest)
		return 0;
	if (strncmp(rest, " oid ", 5) != 0 || rest[5] < '1' || rest[5] > '9')
		return -1;
	errno = 0;
	o->oid = strtoull(rest + 5, &end, 10);
	return errno || *end ? -1 : 0;
}

int owner_parse(const char *note, struct owner *o)
{
	long long started;
	int consumed = 0;
	const char *rest;

	memset(o, 0, sizeof(*o));
	if (strncmp(note, OWNER_NOTE_PREFIX, strlen(OWNER_NOTE_PREFIX)) != 0)
		return -1;
	if (sscanf(note + strlen(OWNER_NOTE_PREFIX), "pid %ld on %63s started %lld%n", &o->pid, o->host, &started,
		   &consumed) != 3 || o->pid <= 0)
		return -1;
	o->started = (time_t)started;
	rest = note + strlen(OWNER_NOTE_PREFIX) + consumed;
	if (!*rest)
		return 0;
	if (strncmp(rest, "; table ", 8) == 0)
		return parse_table(rest + 8, o);
	if (strncmp(rest, "; tables ", 9) != 0)
		return -1;
	o->listing = true;
	return 0;
}

bool owner_marks(const struct owner *o, const char *name, unsigned long long oid)
{
	return !o->listing && o->table[0] && strcmp(o->table, name) == 0 && o->oid == oid;
}

bool owner_alive(const struct owner *o)
{
	time_t started;

	if (kill((pid_t)o->pid, 0) != 0 && errno != EPERM)
		return false;
	started = process_start(o->pid);
	return started < 0 || (started >= o->started - START_SLACK_S && started <= o->started + START_SLACK_S);
}

int owner_refuse_existing(const struct backend_ops *db, struct db_conn *conn, const char *name, char *err,
			  size_t errlen)
{
	int exists = db->table_exists(conn, name);

	if (exists < 0) {
		snprintf(err, errlen, "looking for a table %s: %s", name, db->error_message(conn));
		return -1;
	}
	if (exists) {
		snprintf(err, errlen, "a table %s exists already; claimbench never uses or drops a table it did not "
			 "create (choose another --table-prefix; claimbench cleanup removes the tables of dead claimbench "
			 "runs)", name);
		return -1;
	}
	return 0;
}

/* What ours_made looks for among the marked tables. */
struct ours_ctx {
	const char *name;	/* the table */
	bool ours;		/* found, with this process's note */
};

/* Notes in ctx, a struct ours_ctx, whether a marked table is its table with this process's note. */
static void ours_row(void *ctx, const char *name, unsigned long long oid, const char *note)
{
	struct ours_ctx *c = ctx;
	struct owner self, o;

	(void)oid;
	owner_self(&self);
	if (strcmp(name, c->name) == 0 && owner_parse(note, &o) == 0 && o.pid == self.pid && o.started == self.started &&
	    strcmp(o.host, self.host) == 0 && strcmp(o.table, name) == 0)
		c->ours = true;
}

/* Whether the table called name exists with the note this process writes: one it made. */
static bool ours_made(const struct backend_ops *db, struct db_conn *conn, const char *name)
{
	struct ours_ctx c = { .name = name };

	return db->marked_tables(conn, ours_row, &c) >= 0 && c.ours;
}

int owner_create_table(const struct backend_ops *db, struct db_conn *conn, const char *sql, const char *name,
		       const char *what, char *err, size_t errlen)
{
	char quoted[256], drop[300];
	bool created;

	if (db->exec(conn, "BEGIN") < 0) {
		snprintf(err, errlen, "%s: %s", what, db->error_message(conn));
		return -1;
	}
	created = db->exec(conn, sql) == 0;
	if (created && (!db->seal_mark || db->seal_mark(conn, name) == 0) && db->exec(conn, "COMMIT") == 0)
		return 0;
	snprintf(err, errlen, "%s: %s", what, db->error_message(conn));
	db->exec(conn, "ROLLBACK");
	if (!created) {
		if (db->table_exists(conn, name) == 1)
			owner_refuse_existing(db, conn, name, err, errlen);
		return -1;
	}
	/*
	 * a CREATE that committed itself (MariaDB's DDL does) made a table that is ours: dropped;
	 * where the ROLLBACK took ours back, a table of that name now is another session's
	 */
	if (ours_made(db, conn, name) && db->quote_identifier(conn, name, quoted, sizeof(quoted)) == 0) {
		snprintf(drop, sizeof(drop), "DROP TABLE %s", quoted);
		db->exec(conn, drop);
	}
	return -1;
}
