#!/usr/bin/env bash
# Runs every Go test with the race detector, keeps the verbose log, and fails
# when the tests fail or when no test ran at all (a green run of zero tests
# would hide a broken build tag or a deleted test file).
#
#   scripts/go-test.sh LOG [go test flags...]
set -euo pipefail
log=${1:?usage: $0 LOG [go test flags...]}
shift

status=0
go test -race -v "$@" ./... 2>&1 | tee "$log" || status=$?

passed=$(grep -cE '^ *--- PASS' "$log" || true)
failed=$(grep -cE '^ *--- FAIL' "$log" || true)
skipped=$(grep -cE '^ *--- SKIP' "$log" || true)

echo
echo "go tests: $passed passed, $failed failed, $skipped skipped (log: $log)"
if ((skipped > 0)); then
	echo "skipped (each one's reason is in the log just above its --- SKIP line):"
	grep -E '^ *--- SKIP' "$log" | sed -E 's/^ *--- SKIP: /  /'
fi
if ((status != 0)); then
	exit "$status"
fi
if ((passed == 0)); then
	echo "go tests: no test ran; expected at least one" >&2
	exit 1
fi
