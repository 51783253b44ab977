# Every Markdown file the repository cites exists: in any tracked or new file, a name such as
# README.md, a path under a top-level folder such as docs/metrics.md, or a Markdown link
# target (relative to the repository or to the citing file). The design brief claimbench
# started from lives outside the repository, so citing it fails too: docs/ is the reference.
# Each missing citation is one failure, printed as FILE:LINE.
set -uo pipefail
cd "$(dirname "$0")/../.."

# The repository's files: tracked and new, ignored ones left out.
files() {
	if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files -co --exclude-standard
	else
		find . -type f ! -path './.git/*' ! -path './build*' ! -path './results/*' | sed 's|^\./||'
	fi
}

# citations FILE: "LINE TARGET" for each citation of a Markdown file in FILE.
citations() {
	grep -InoE '(^|[^$%/A-Za-z0-9_.{}-])/?([A-Za-z0-9_-]+/)*[A-Za-z0-9_.-]+\.md\b' "$1" |
		sed -E 's#^([0-9]+):[^/A-Za-z0-9_-]?/?#\1 #' | while read -r line target; do
		top=${target%%/*}
		base=${target##*/}
		if [[ $base == [A-Z]* ]] || { [ "$top" != "$target" ] && [ -d "$top" ]; }; then
			echo "$line $target"
		fi
	done
	case $1 in
	*.md) grep -noE '\]\([^)#: ]+\.md(#[^)]*)?\)' "$1" | sed -E 's#^([0-9]+):\]\(([^)#]+).*#\1 \2#' ;;
	esac
}

checked=0
missing=0
while read -r file; do
	[ -f "$file" ] || continue
	dir=$(dirname "$file")
	while read -r line target; do
		checked=$((checked + 1))
		if [ ! -e "$target" ] && [ ! -e "$dir/$target" ]; then
			echo "not ok - $file:$line cites $target, which is not in the repository"
			missing=$((missing + 1))
		fi
	done < <(citations "$file" | sort -u)
done < <(files)
[ "$missing" -eq 0 ] && echo "ok - all $checked citations of Markdown files point at files of the repository"
true
