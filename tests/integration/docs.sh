# The docs generated from the binary's own tables are current: docs/metric-list.md is what
# `claimbench list metrics` prints from the metric table (`make docs` writes it anew).
# tier: fast
. "$(dirname "$0")/lib.sh"

docs=$(dirname "$0")/../../docs

# has_rows PATH...: docs/metric-list.md has a row for each metric path.
has_rows() {
	local p
	for p in "$@"; do
		grep -q "^| \`$p\` |" "$docs/metric-list.md" || return 1
	done
}

check "docs/metric-list.md is the metric table as claimbench prints it (make docs)" \
	eval '"$CLAIMBENCH" list metrics | cmp -s - "$docs/metric-list.md"'
check "it lists queue wait, end-to-end latency, arrivals, their lateness, failures, the backlog and x_ideal" \
	has_rows queue_wait_ms.p50 queue_wait_ms.p99 end_to_end_ms.p50 arrivals arrivals_late arrival_late_max_ms \
	failed backlog_end makespan_ratio
expect_exit 2 'unexpected argument "metric" \(list takes none, "metrics", "guards" or "backends"\)' "list with a misspelt argument" \
	list metric
