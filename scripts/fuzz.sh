#!/usr/bin/env bash
# Runs every Go fuzz test (func FuzzXxx in a _test.go file) for a short time
# on top of its seed corpus and the inputs kept in testdata/fuzz/, so that
# what a server or a person can send is tried beyond the hand-written cases.
# Fails when any finds a crash or a hang; go writes the failing input to the
# package's testdata/fuzz/FuzzXxx/ so that it becomes a regression case.
#
# Go 1.26's fuzz coordinator can end a run at its -fuzztime deadline with a
# bare "context deadline exceeded" while a starved worker is mid-input (a
# race fixed in Go 1.27, go.dev/issue/75804): no input fails and none is
# written. Such a run is retried once; if it happens again, the corpus is
# replayed without fuzzing and must pass, and the run counts as a timing
# flake with a warning, never as a pass of a failing input.
#
#   scripts/fuzz.sh [SECONDS_EACH]     (default 4)
set -euo pipefail
each=${1:-4}
count=0
flaked=0

# fuzz_once NAME PKG: 0 = passed, 1 = failed with an input, 2 = the deadline race.
fuzz_once() {
	local name=$1 pkg=$2 corpus out status
	corpus="$pkg/testdata/fuzz/$name"
	local before
	before=$(ls "$corpus" 2>/dev/null | sort || true)
	set +e
	out=$(go test -run '^$' -fuzz "^${name}\$" -fuzztime "${each}s" -fuzzminimizetime 1s "$pkg" 2>&1)
	status=$?
	set -e
	echo "$out"
	((status == 0)) && return 0
	if [[ "$(ls "$corpus" 2>/dev/null | sort || true)" == "$before" ]] &&
		grep -q 'context deadline exceeded' <<<"$out" && ! grep -q 'Failing input written' <<<"$out"; then
		return 2
	fi
	return 1
}

while IFS=: read -r file name; do
	pkg=./$(dirname "$file")
	echo "fuzz: $name in $pkg for ${each}s"
	result=0
	fuzz_once "$name" "$pkg" || result=$?
	if ((result == 2)); then
		echo "fuzz: $name stopped at its deadline with no failing input (go.dev/issue/75804); trying once more"
		result=0
		fuzz_once "$name" "$pkg" || result=$?
	fi
	case $result in
	0) ;;
	2)
		echo "fuzz: $name hit the deadline race again; replaying its corpus without fuzzing"
		go test -run "^${name}\$" "$pkg"
		echo "fuzz: WARNING: $name's fuzzing was cut short twice by the machine's load (no failing input)"
		flaked=$((flaked + 1))
		;;
	*)
		echo "fuzz: $name found a failing input (see above)" >&2
		exit 1
		;;
	esac
	count=$((count + 1))
done < <(git ls-files '*_test.go' | xargs grep -HoE '^func Fuzz[A-Za-z0-9_]+' | sed -E 's/:func /:/' | sort -u)
if ((count == 0)); then
	echo "fuzz: no fuzz test found; expected at least one" >&2
	exit 1
fi
echo "fuzz: $count fuzz tests ran for ${each}s each without a failing input ($flaked cut short by load)"
