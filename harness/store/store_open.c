/*
 * Opening the result store: the file created when missing, migrated through
 * store_migrations, then given a column in runs for every metric of the metric table
 * it lacks (REAL or INTEGER, NULL in the rows already there: unknown), so that a new
 * metric needs no migration of its own. Reading commands open an existing store
 * read-only instead, and write nothing to it nor beside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/metric_table.h"
#include "store/store_sql.h"

/* How long a statement waits for another process's lock on the store. */
#define STORE_BUSY_TIMEOUT_MS 10000

/*
 * Creates the directory part of path when it is missing, writable by its owner alone (0755,
 * as report --out asks of the folder it writes reports in, results/ by default). 0, or -1
 * with err.
 */
static int make_parent(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];

	if (!slash || slash == path)
		return 0;
	if ((size_t)(slash - path) >= sizeof(dir)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create directory %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Refuses a schema version (PRAGMA user_version, which any SQLite file may hold) that no
 * claimbench writes: below 0, or above this one's. 0 for 0 to store_schema_version, the
 * versions store_migrations takes a file from; else -1 with err.
 */
static int refuse_version(long long version, const char *path, char *err, size_t errlen)
{
	if (version < 0) {
		snprintf(err, errlen, "%s is not a claimbench result store (its schema version, PRAGMA user_version, "
			 "is %lld: a store's is 1 to %d)", path, version, store_schema_version);
		return -1;
	}
	if (version > store_schema_version) {
		snprintf(err, errlen, "%s was written by a newer claimbench (schema version %lld; this one knows up to %d)",
			 path, version, store_schema_version);
		return -1;
	}
	return 0;
}

/*
 * Applies the migrations db lacks, each in its own transaction that re-reads the
 * version under the write lock, so two processes opening one new file do not both
 * migrate it. Refuses a newer file and an SQLite file that is not a store.
 * 0, or -1 with err.
 */
static int migrate(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	char what[64];
	long long version, objects;

	for (;;) {
		if (sql_exec(db, "BEGIN IMMEDIATE", path, err, errlen) < 0)
			return -1;
		if (sql_query_int(db, "PRAGMA user_version", &version, err, errlen) < 0 ||
		    refuse_version(version, path, err, errlen) < 0)
			goto rollback;
		if (version == store_schema_version)
			break;
		if (version == 0) {
			if (sql_query_int(db, "SELECT count(*) FROM sqlite_master", &objects, err, errlen) < 0)
				goto rollback;
			if (objects) {
				snprintf(err, errlen, "%s is an SQLite database but not a claimbench result store",
					 path);
				goto rollback;
			}
		}
		snprintf(what, sizeof(what), "migrating to schema version %lld", version + 1);
		if (sql_exec(db, store_migrations[version], what, err, errlen) < 0 ||
		    sql_exec(db, "COMMIT", what, err, errlen) < 0)
			goto rollback;
	}
	return sql_exec(db, "COMMIT", path, err, errlen);
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Sets has[i] to whether runs has metric_table[i]'s column. 0, or -1 with err. */
static int find_metric_columns(sqlite3 *db, bool *has, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	const char *name;
	int rc;

	if (sql_prepare(db, "SELECT name FROM pragma_table_info('runs')", &st, err, errlen) < 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(st, 0);
		for (size_t i = 0; name && i < metric_table_len; i++)
			has[i] |= strcmp(name, metric_table[i].column) == 0;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_fail(db, "reading the runs table's columns", err, errlen);
	return 0;
}

/* Adds to runs, in one transaction, a column for every metric it lacks. 0, or -1 with err. */
static int add_metric_columns(sqlite3 *db, char *err, size_t errlen)
{
	bool has[METRIC_MAX] = { false };
	char sql[256];

	if (sql_exec(db, "BEGIN IMMEDIATE", "adding metric columns", err, errlen) < 0)
		return -1;
	if (find_metric_columns(db, has, err, errlen) < 0)
		goto rollback;
	for (size_t i = 0; i < metric_table_len; i++) {
		if (has[i])
			continue;
		snprintf(sql, sizeof(sql), "ALTER TABLE runs ADD COLUMN \"%s\" %s", metric_table[i].column,
			 metric_table[i].type == METRIC_DOUBLE ? "REAL" : "INTEGER");
		if (sql_exec(db, sql, "adding a metric column", err, errlen) < 0)
			goto rollback;
	}
	return sql_exec(db, "COMMIT", "adding metric columns", err, errlen);
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* A store with no connection and no lock file yet, or NULL with err when out of memory. */
static struct store *store_new(char *err, size_t errlen)
{
	struct store *s = calloc(1, sizeof(*s));

	if (!s)
		snprintf(err, errlen, "out of memory");
	else
		s->lock_fd = -1;
	return s;
}

int store_open(const char *path, struct store **out, char *err, size_t errlen)
{
	struct store *s;

	*out = NULL;
	if (strcmp(path, STORE_DEFAULT_PATH) == 0 && make_parent(path, err, errlen) < 0)
		return -1;
	s = store_new(err, errlen);
	if (!s)
		return -1;
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	/* Foreign keys go on after the migrations: a migration that rebuilds a table must not cascade. */
	if (migrate(s->db, path, err, errlen) < 0 || add_metric_columns(s->db, err, errlen) < 0 ||
	    sql_exec(s->db, "PRAGMA foreign_keys = ON", path, err, errlen) < 0 ||
	    sql_exec(s->db, "PRAGMA journal_mode = WAL", path, err, errlen) < 0)
		goto fail;
	*out = s;
	return 0;
fail:
	store_close(s);
	return -1;
}

/* The first 16 bytes of every SQLite database file. */
static const char sqlite_magic[16] = "SQLite format 3";

/*
 * Reads the header of path: 1 when it is an SQLite database in WAL mode (its write and
 * read versions, bytes 18 and 19, are 2), 0 when in a rollback-journal mode, -1 with err
 * when it is empty, no SQLite database, or cannot be read.
 */
static int read_header(const char *path, char *err, size_t errlen)
{
	unsigned char header[100];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	n = read(fd, header, sizeof(header));
	close(fd);
	if (n < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (n == 0) {
		snprintf(err, errlen, "%s is empty, not a claimbench result store (claimbench run creates one)", path);
		return -1;
	}
	if ((size_t)n < sizeof(header) || memcmp(header, sqlite_magic, sizeof(sqlite_magic)) != 0) {
		snprintf(err, errlen, "%s is not a claimbench result store (not an SQLite database)", path);
		return -1;
	}
	return header[18] == 2 && header[19] == 2;
}

/*
 * Writes into buf the URI "file:PATH?query" for path, with '%', '?' and '#' in it
 * percent-encoded (an absolute path after "file://", an empty authority). 0, or -1 when
 * it does not fit.
 */
static int path_uri(const char *path, const char *query, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%s", path[0] == '/' ? "file://" : "file:");

	for (; *path && used + 4 < len; path++)
		used += (size_t)(strchr("%?#", *path) ? snprintf(buf + used, len - used, "%%%02X", (unsigned char)*path)
						     : snprintf(buf + used, len - used, "%c", *path));
	if (*path || used + 1 + strlen(query) >= len)
		return -1;
	snprintf(buf + used, len - used, "?%s", query);
	return 0;
}

/* Where SQLite's unix locks lie in a database file: the shared range, which EXCLUSIVE writes over. */
#define SQLITE_PENDING_BYTE 0x40000000
#define SQLITE_SHARED_FIRST (SQLITE_PENDING_BYTE + 2)
#define SQLITE_SHARED_SIZE 510

/*
 * Takes, on a descriptor of its own kept in s, the shared lock SQLite's readers take on
 * the file at path: while it is held no connection gets the exclusive lock, which SQLite
 * takes to checkpoint a WAL into the file and remove it when its last connection closes.
 * So a WAL store found without a -wal file can be read as immutable: a writer that comes
 * meanwhile leaves its -wal in place, and the file stays as it was. 0, or -1 when another
 * holds the file exclusively (or it cannot be opened).
 */
static int hold_shared_lock(struct store *s, const char *path)
{
	struct flock lock = {
		.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = SQLITE_SHARED_FIRST, .l_len = SQLITE_SHARED_SIZE,
	};

	s->lock_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->lock_fd < 0)
		return -1;
	if (fcntl(s->lock_fd, F_SETLK, &lock) == 0)
		return 0;
	close(s->lock_fd);
	s->lock_fd = -1;
	return -1;
}

/* Whether the -wal file at wal holds no commit: it is absent or empty. */
static bool wal_holds_nothing(const char *wal)
{
	struct stat st;

	return stat(wal, &st) < 0 ? errno == ENOENT : st.st_size == 0;
}

/*
 * Whether the open store s is of this claimbench's schema with a column for every metric:
 * 1 it is, 0 it must be migrated first (an older claimbench's), -1 with err when it is
 * not a store or a newer claimbench's.
 */
static int is_current(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	bool has[METRIC_MAX] = { false };
	long long version;

	if (sql_query_int(db, "PRAGMA user_version", &version, err, errlen) < 0 ||
	    refuse_version(version, path, err, errlen) < 0)
		return -1;
	if (version == 0) {
		snprintf(err, errlen, "%s is an SQLite database but not a claimbench result store", path);
		return -1;
	}
	if (version < store_schema_version)
		return 0;
	if (find_metric_columns(db, has, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < metric_table_len; i++)
		if (!has[i])
			return 0;
	return 1;
}

int store_open_existing(const char *path, struct store **out, char *err, size_t errlen)
{
	char uri[4200], wal[4200], why[512];
	struct store *s;
	bool immutable;
	int in_wal, current;

	*out = NULL;
	if (access(path, F_OK) < 0) {
		if (errno == ENOENT)
			snprintf(err, errlen, "no result store at %s (claimbench run creates it)", path);
		else
			snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	in_wal = read_header(path, err, errlen);
	if (in_wal < 0)
		return -1;
	s = store_new(err, errlen);
	if (!s)
		return -1;
	/*
	 * A store in WAL mode whose -wal file is gone or empty holds every commit in the file
	 * itself: read it as immutable, which needs no -shm and -wal files, so that none is
	 * left beside it (a read-only connection cannot remove them, and on a read-only mount
	 * cannot make them) and a -shm left short (a writer refused on a full filesystem
	 * leaves a 3-byte one beside an empty -wal) is never read, under a shared lock that
	 * keeps any writer from changing the file meanwhile.
	 */
	snprintf(wal, sizeof(wal), "%s-wal", path);
	immutable = in_wal && hold_shared_lock(s, path) == 0 && wal_holds_nothing(wal);
	if (path_uri(path, immutable ? "mode=ro&immutable=1" : "mode=ro", uri, sizeof(uri)) < 0) {
		snprintf(err, errlen, "%s: path too long", path);
		goto fail;
	}
	if (sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	current = is_current(s->db, path, err, errlen);
	if (current < 0)
		goto fail;
	if (current) {
		*out = s;
		return 0;
	}
	store_close(s);
	if (store_open(path, out, why, sizeof(why)) == 0)
		return 0;
	snprintf(err, errlen, "%s was written by an older claimbench and must be migrated first, which needs write "
		 "access: %s", path, why);
	return -1;
fail:
	store_close(s);
	return -1;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	free(s);
}
