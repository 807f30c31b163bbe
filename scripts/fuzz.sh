#!/usr/bin/env bash
# Runs every Go fuzz test (func FuzzXxx in a _test.go file) for a short time
# on top of its seed corpus and the inputs kept in testdata/fuzz/, so that
# what a server or a person can send is tried beyond the hand-written cases.
# Fails when any finds a crash or a hang; go writes the failing input to the
# package's testdata/fuzz/FuzzXxx/ so that it becomes a regression case.
#
#   scripts/fuzz.sh [SECONDS_EACH]     (default 4)
set -euo pipefail
each=${1:-4}
count=0
while IFS=: read -r file name; do
	pkg=./$(dirname "$file")
	echo "fuzz: $name in $pkg for ${each}s"
	go test -run '^$' -fuzz "^${name}\$" -fuzztime "${each}s" -fuzzminimizetime 1s "$pkg"
	count=$((count + 1))
done < <(git ls-files '*_test.go' | xargs grep -HoE '^func Fuzz[A-Za-z0-9_]+' | sed -E 's/:func /:/' | sort -u)
if ((count == 0)); then
	echo "fuzz: no fuzz test found; expected at least one" >&2
	exit 1
fi
echo "fuzz: $count fuzz tests ran for ${each}s each without a failure"
