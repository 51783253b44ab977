# The harness's workloads and its core (harness/queue, guarded, engine, measure) name no
# dialect and compare none: the SQL they send that differs by engine is the backend's
# (db/backend_sql.h), asked through db->sql. Indexing a plugin's per-dialect SQL by
# db->dialect (st->sql[db->dialect]) is no branch and is allowed. Each offending line is
# printed on stderr as FILE:LINE.
set -uo pipefail
cd "$(dirname "$0")/../.."

folders="harness/queue harness/guarded harness/engine harness/measure"
# shellcheck disable=SC2086
named=$(grep -rnE 'DIALECT_(POSTGRESQL|SQLITE|MARIADB)' $folders)
# shellcheck disable=SC2086
compared=$(grep -rnE 'dialect *[!=]=|[!=]= *[a-z_>.-]*dialect\b|switch *\([^)]*dialect' $folders)

if [ -z "$named" ]; then
	echo "ok - no dialect named in $folders"
else
	echo "not ok - a dialect named in $folders: $(printf '%s\n' "$named" | wc -l) lines"
	printf '%s\n' "$named" >&2
fi
if [ -z "$compared" ]; then
	echo "ok - no branch on the dialect in $folders"
else
	echo "not ok - a branch on the dialect in $folders: $(printf '%s\n' "$compared" | wc -l) lines"
	printf '%s\n' "$compared" >&2
fi
for engine in postgresql sqlite mariadb; do
	if grep -q "^const struct backend_sql ${engine}_harness_sql = {" "harness/db/$engine/harness_sql.c" 2>/dev/null &&
		grep -q "\.sql = &${engine}_harness_sql," harness/db/*.c harness/db/*/*.c 2>/dev/null; then
		echo "ok - $engine's harness SQL is defined in harness/db/$engine/harness_sql.c and its driver points at it"
	else
		echo "not ok - $engine: no ${engine}_harness_sql in harness/db/$engine/harness_sql.c, or no driver's .sql points at it"
	fi
done
