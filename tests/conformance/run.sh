#!/usr/bin/env bash
# Runs the official MCP conformance suite in client mode against Gatehouse's
# conformance client, once per pinned suite version, each with its baseline of
# expected failures. `make test-conformance` builds the client, installs the
# suites (npm ci) and calls this; see README.md.
#
#   tests/conformance/run.sh <conformance-client binary> <output dir>
#
# Every run goes on even when one fails; then a summary line per run is
# printed and the exit status is non-zero when any run failed: a scenario
# outside its baseline failed, or a baselined scenario passed (a stale entry).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
client=${1:?usage: run.sh <conformance-client> <output dir>}
out=${2:?usage: run.sh <conformance-client> <output dir>}
[[ -x $client ]] || { echo "conformance: $client is not an executable; run make conformance-client" >&2; exit 2; }
# The suite splits --command on spaces.
[[ $client != *" "* ]] || { echo "conformance: the client path must not contain spaces: $client" >&2; exit 2; }
mkdir -p "$out"

# label | package dir (relative to here; empty for this one) | baseline | extra suite flags
runs=(
	"0.1.16||baseline-0.1.16.yml|"
	"0.2.0-alpha.12|alpha|baseline-0.2.0-alpha.12.yml|"
	"0.2.0-alpha.12-2026-07-28|alpha|baseline-0.2.0-alpha.12.yml|--spec-version 2026-07-28"
)

summaries=()
status=0
for run in "${runs[@]}"; do
	IFS='|' read -r label pkg baseline extra <<<"$run"
	dir="$out/conformance-$label"
	log="$out/conformance-$label.log"
	suite="$here/${pkg:+$pkg/}node_modules/@modelcontextprotocol/conformance/dist/index.js"
	[[ -f $suite ]] || { echo "conformance: $suite is missing; run npm ci in $here${pkg:+/$pkg}" >&2; exit 2; }
	rm -rf "$dir"
	# The shim gives Node < 22 the fs.globSync the suite imports; it does
	# nothing on a Node that has it.
	cmd=(node --import "$here/shim/register.mjs" "$suite" client
		--command "$client" --suite all $extra
		-o "$dir" --expected-failures "$here/$baseline")
	echo "conformance $label: ${cmd[*]}"
	start=$SECONDS
	# -k: the suite waits for its scenario servers; never let it hang make.
	timeout -k 10 300 "${cmd[@]}" >"$log" 2>"$log.stderr"
	rc=$?
	sed -n '/=== SUITE SUMMARY ===/,$p' "$log"
	line=$(node "$here/summarize.mjs" "$label" "$log" "$rc" "$((SECONDS - start))")
	summaries+=("$line")
	((rc == 0)) || status=1
	echo
done

echo "=== conformance summary (details in $out/conformance-*.log and per-scenario folders) ==="
printf '%s\n' "${summaries[@]}"
exit "$status"
