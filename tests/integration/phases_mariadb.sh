# MariaDB's pressure phases (--phase, docs/phases.md) on a throwaway MariaDB: InnoDB's MVCC
# pressure is a read view, which held-snapshot and active-readers hold. While one is held, no
# transaction that committed after it may be purged, so the history list length the sampler
# reads (the timeline's xmin_age_max, the samples' xmin_age) is, at the phase's last sample,
# at least the completions the run's series counts between the phase's start and that sample
# (each a committed transaction, less one in flight per worker): a bound tied to the run's
# own record, not to purge's pace. The readers keep REPEATABLE READ (and the holder its
# snapshot) even under a session isolation of READ COMMITTED, each reader scanning again and
# again; the phases are stored and read back; idle-in-tx, long-writer and pool-exhaustion are
# refused with the reason.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
store=$dir/results.db
chmod 755 "$dir"
mkdir -m 1777 "$dir/tmp"
export TMPDIR=$dir/tmp

# The bound above for phase NAME of a run, as a jq expression: [its history list at its last
# sample, the completions of the series' buckets from its start to that sample less the workers].
purge_bound() {
	echo "(.timeline[] | select(.name == \"$1\")) as \$p |
		[.samples[] | select(.t_ms >= \$p.start_s * 1000 and .t_ms <= \$p.end_s * 1000)] as \$in |
		(\$in | last) as \$s |
		[\$s.xmin_age, ([.series[] | select(.t_ms >= \$p.start_s * 1000 and .t_ms + 100 <= \$s.t_ms) | .completed] | add)
		 - .workers]"
}

run_json held --db mariadb: --strategy skip-locked:flip --workers 4 --work-ms 20 --jobs 1 --arrival-rate 150 \
	--sample-ms 100 --isolation read-committed \
	--phase clean:1s --phase held-snapshot:2s --phase recovery:1s --phase active-readers:2:2s --phase recovery:1s
check "a timeline of held-snapshot and active-readers on the throwaway MariaDB: exit 0 (got $(cat "$dir/held.status"))" \
	test "$(cat "$dir/held.status")" -eq 0
for phase in held-snapshot active-readers; do
	bound=$(jq -c ".results[0] | $(purge_bound "$phase")" "$dir/held.json" 2>/dev/null)
	check "$phase: no transaction committed in it was purged: its last sample's history list length, at least the completions before it less the workers ($bound)" \
		eval 'jq -e ".results[0] | $(purge_bound "$phase") | .[1] >= 10 and .[0] >= .[1]" "$dir/held.json" >/dev/null' 
done
readers=$(jq -c '.results[0].timeline[] | select(.name == "active-readers") | [.readers_repeatable, .reader_scans, .readers_seen]' \
	"$dir/held.json" 2>/dev/null)
check "active-readers:2: both readers at REPEATABLE READ under a session isolation of READ COMMITTED, scanning again and again, their sessions not counted as MariaDB shows no session's name ([repeatable, scans, seen]: $readers)" \
	eval '[ "$(jq -c ".[0] == 2 and .[1] > 2 and .[2] == null" <<<"${readers:-null}")" = true ]'
check_jq "$dir/held.json" '[.results[0].timeline[] | .name] == ["clean", "held-snapshot", "recovery", "active-readers", "recovery-2"]' \
	"the five phases recorded in order"
"$CLAIMBENCH" show --results "$store" "$(jq '.results[0].run_id' "$dir/held.json")" >"$dir/show.txt" 2>&1
check "claimbench show prints the phases read back from the store" grep -qE '^ +held-snapshot +[0-9.]+ +[0-9.]+' "$dir/show.txt"

expect_exit 2 'idle-in-tx cannot run on mariadb: InnoDB gives a transaction an id only with its first write' \
	"MariaDB refuses idle-in-tx, saying why" run --db mariadb: --arrival-rate 10 --phase idle-in-tx:1s
expect_exit 2 'long-writer cannot run on mariadb: InnoDB.s writing transaction holds back no purge without a read view' \
	"MariaDB refuses long-writer, saying why" run --db mariadb: --arrival-rate 10 --phase long-writer:1s
expect_exit 2 'pool-exhaustion cannot run on mariadb: its pool-exhaustion phase is not built yet' \
	"MariaDB refuses pool-exhaustion, saying why" run --db mariadb: --arrival-rate 10 --phase pool-exhaustion:5:1s
