# The harness's include structure holds (scripts/check-layers): every #include of harness/,
# strategies/ and guards/ points to its own folder, a lower tier or its own tier, and no
# folders include each other round; the breaking includes listed on stderr. And the check
# catches each kind of break, planted in a scratch copy of the tree: an include up a tier,
# two folders of one tier including each other, a backend's folder included from outside.
set -uo pipefail
cd "$(dirname "$0")/../.."

if out=$(scripts/check-layers 2>&1); then
	echo "ok - every #include points down the tiers or within one, and no folders include each other round"
else
	echo "not ok - includes that break the tiers (scripts/check-layers)"
	printf '%s\n' "$out" >&2
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# planted NAME FILE LINE PATTERN: in a fresh copy of the tree with LINE added to FILE, the check
# fails and prints a line matching PATTERN.
planted() {
	local name=$1 file=$2 line=$3 pattern=$4 tree=$scratch/$1 out status
	mkdir -p "$tree"
	cp -r harness strategies guards "$tree/"
	printf '%s\n' "$line" >>"$tree/$file"
	out=$(scripts/check-layers "$tree" 2>&1)
	status=$?
	if [ "$status" -eq 1 ] && grep -q -- "$pattern" <<<"$out"; then
		echo "ok - check-layers refuses $name"
	else
		echo "not ok - check-layers refuses $name: exit $status (expected 1), output without '$pattern':"
		printf '%s\n' "$out" | sed 's/^/#   /'
	fi
}
planted "an include up a tier (model includes db)" harness/model/timeline.c '#include "db/backend.h"' \
	'model (tier 0) includes db, a tier above its own'
planted "a circle of folders in one tier (engine includes queue, which includes engine)" \
	harness/engine/session.c '#include "queue/worker.h"' 'a circle of folders: .*engine -> queue\|a circle of folders: .*queue -> engine'
planted "a backend's folder included from outside harness/db/" harness/queue/job.c \
	'#include "db/sqlite/parts.h"' 'includes the folder of the backend sqlite from outside it'
