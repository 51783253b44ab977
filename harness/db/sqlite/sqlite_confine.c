#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <sqlite3.h>

#include "db/sqlite/sqlite_confine.h"

/* What an authorizer action does, in words, for a refusal; NULL for actions named by their table. */
static const char *action_words(int action)
{
	switch (action) {
	case SQLITE_CREATE_INDEX: case SQLITE_CREATE_TEMP_INDEX:
		return "creates an index";
	case SQLITE_CREATE_TABLE: case SQLITE_CREATE_TEMP_TABLE:
		return "creates a table";
	case SQLITE_CREATE_TRIGGER: case SQLITE_CREATE_TEMP_TRIGGER:
		return "creates a trigger";
	case SQLITE_CREATE_VIEW: case SQLITE_CREATE_TEMP_VIEW: case SQLITE_CREATE_VTABLE:
		return "creates a view or virtual table";
	case SQLITE_DROP_INDEX: case SQLITE_DROP_TEMP_INDEX:
		return "drops an index";
	case SQLITE_DROP_TABLE: case SQLITE_DROP_TEMP_TABLE:
		return "drops a table";
	case SQLITE_DROP_TRIGGER: case SQLITE_DROP_TEMP_TRIGGER:
		return "drops a trigger";
	case SQLITE_DROP_VIEW: case SQLITE_DROP_TEMP_VIEW: case SQLITE_DROP_VTABLE:
		return "drops a view or virtual table";
	case SQLITE_PRAGMA:
		return "runs a PRAGMA";
	case SQLITE_TRANSACTION: case SQLITE_SAVEPOINT:
		return "begins or ends a transaction";
	case SQLITE_ATTACH: case SQLITE_DETACH:
		return "attaches or detaches a database";
	case SQLITE_ALTER_TABLE:
		return "alters a table";
	case SQLITE_REINDEX: case SQLITE_ANALYZE:
		return "rebuilds an index or its statistics";
	default:
		return NULL;
	}
}

/*
 * Whether name is SQLite's schema table, which DDL writes before SQLite asks about the
 * DDL itself: such a write is noted and let through to that question, which is refused.
 */
static bool schema_table(const char *name)
{
	return name && (strcasecmp(name, "sqlite_master") == 0 || strcasecmp(name, "sqlite_schema") == 0 ||
			strcasecmp(name, "sqlite_temp_master") == 0 || strcasecmp(name, "sqlite_temp_schema") == 0);
}

/*
 * Notes what was refused: the first kind of statement (table NULL), else the first table,
 * since SQLite reports a DROP TABLE's write to its schema table before the drop itself.
 */
static void refuse(struct sqlite_confinement *c, const char *what, const char *database, const char *table)
{
	if (c->kind_refused || (c->refused[0] && table))
		return;
	c->kind_refused = !table;
	if (table)
		snprintf(c->refused, sizeof(c->refused), "%s table %s%s%s", what,
			 database && strcmp(database, "main") != 0 ? database : "",
			 database && strcmp(database, "main") != 0 ? "." : "", table);
	else
		snprintf(c->refused, sizeof(c->refused), "%s", what);
}

int sqlite_confine_authorize(void *ctx, int action, const char *arg1, const char *arg2, const char *database,
			     const char *trigger)
{
	struct sqlite_confinement *c = ctx;
	const char *what = NULL;
	/* the run's table in the main database; SQLite names no database for a table read for none of its columns */
	bool own = arg1 && strcasecmp(arg1, c->own_table) == 0 && (!database || strcmp(database, "main") == 0);

	(void)arg2;
	(void)trigger;
	switch (action) {
	case SQLITE_SELECT: case SQLITE_RECURSIVE:
		return SQLITE_OK;
	case SQLITE_FUNCTION:
		if (!arg2 || strcasecmp(arg2, "load_extension") != 0)
			return SQLITE_OK;
		refuse(c, "loads an extension (load_extension)", NULL, NULL);
		return SQLITE_DENY;
	case SQLITE_READ:
		what = "reads";
		break;
	case SQLITE_INSERT:
		what = "inserts into";
		break;
	case SQLITE_UPDATE:
		what = "updates";
		break;
	case SQLITE_DELETE:
		what = "deletes from";
		break;
	default:
		what = action_words(action);
		refuse(c, what ? what : "is not a SELECT, INSERT, UPDATE or DELETE", NULL, NULL);
		return SQLITE_DENY;
	}
	if (own)
		return SQLITE_OK;
	refuse(c, what, database, arg1 ? arg1 : "?");
	return schema_table(arg1) && action != SQLITE_READ ? SQLITE_OK : SQLITE_DENY;
}
