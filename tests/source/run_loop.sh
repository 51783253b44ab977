# The run loop has one place, harness/run/: the three workloads' runs (run_one,
# guarded_run_one, adapter_run_one) and the storing of a run (store_append) are called from
# harness/run/ alone, and cli/cmd_run.c defines no loop of its own (run_groups, run_matrix,
# run_point), so that `claimbench run` is the command: parse, call, print, exit status.
set -uo pipefail
cd "$(dirname "$0")/../.."

# callers NAME: the files of the harness, strategies and guards outside harness/run/ that call NAME (its definition left out).
callers() {
	grep -lE "(^|[^A-Za-z0-9_])$1\(" harness/*/*.c harness/db/*/*.c strategies/*.c guards/*.c |
		grep -v '^harness/run/' | while read -r f; do
		grep -nE "(^|[^A-Za-z0-9_])$1\(" "$f" | grep -vE "^[0-9]+:(int|static int) $1\(" | sed "s|^|$f:|"
	done
}

for name in run_one guarded_run_one adapter_run_one store_append; do
	found=$(callers "$name")
	if [ -z "$found" ]; then
		echo "ok - $name is called from harness/run/ alone"
	else
		echo "not ok - $name is called outside harness/run/:"
		printf '%s\n' "$found" | sed 's/^/#   /'
	fi
done
defined=$(grep -nE '^(static )?[a-z].* (run_groups|run_matrix|run_point)\(' harness/cli/cmd_run.c)
if [ -z "$defined" ]; then
	echo "ok - cli/cmd_run.c defines no run loop (run_groups, run_matrix, run_point)"
else
	echo "not ok - cli/cmd_run.c defines the run loop's functions:"
	printf '%s\n' "$defined" | sed 's/^/#   /'
fi
