# Every #include of harness/ and strategies/ points down the layers (scripts/check-layers);
# the upward ones are listed on stderr.
set -uo pipefail
cd "$(dirname "$0")/../.."

if out=$(scripts/check-layers 2>&1); then
	echo "ok - every #include points down the layers or within its own folder"
else
	echo "not ok - includes that point up a layer (scripts/check-layers)"
	printf '%s\n' "$out" >&2
fi
