#!/usr/bin/env bash
# Installs Gatehouse's .deb as a person would, uses it, removes and purges it, and
# checks that nothing of it is left but the person's data.
#
#   tests/package/run.sh build/gatehouse_VERSION_ARCH.deb     (make test-package)
#
# Needs root (apt-get install). Without it the test says so and is skipped. The
# package is purged at the end even when a check fails. Ends with the line
# "test-package: N passed, M failed".
set -euo pipefail

if (($# != 1)) || [[ ! -f $1 ]]; then
	echo "usage: $0 PATH-TO-gatehouse.deb (make package builds it)" >&2
	exit 2
fi
deb=$(realpath "$1")
if (($(id -u) != 0)); then
	echo "test-package: SKIPPED: installing a package needs root. Run: sudo $(realpath "$0") $deb"
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt_quiet=(-y -q -o Dpkg::Use-Pty=0)

passed=0 failed=0
pass() {
	passed=$((passed + 1))
	echo "ok   $1"
}
fail() {
	failed=$((failed + 1))
	echo "FAIL $1"
}
check() { # description, command...
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}

installed_version() { dpkg-query -W -f='${db:Status-Abbrev}${Version}' gatehouse 2>/dev/null || true; }
was=$(installed_version)
if [[ $was == "ii "* ]]; then
	echo "test-package: gatehouse ${was#ii } is installed already; the test replaces it and removes it at the end (data folders are kept)"
fi

tmp=$(mktemp -d)
cleanup() {
	if [[ $(installed_version) == ?i* ]]; then
		apt-get purge "${apt_quiet[@]}" gatehouse >/dev/null 2>&1 || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

want_version=$(dpkg-deb -f "$deb" Version)

# Install.
if apt-get install "${apt_quiet[@]}" "$deb" >"$tmp/install.log" 2>&1; then
	pass "apt-get install ./$(basename "$deb")"
else
	cat "$tmp/install.log"
	fail "apt-get install ./$(basename "$deb")"
	echo "test-package: $passed passed, $failed failed"
	exit 1
fi
check "dpkg lists gatehouse $want_version as installed" test "$(installed_version)" = "ii $want_version"
dpkg -L gatehouse | sort >"$tmp/files"
depends=$(dpkg-query -W -f='${Depends}' gatehouse)
check "it depends on GTK 3 and WebKitGTK 4.1 ($depends)" \
	bash -c '[[ $1 == *libgtk-3-0* && $1 == *libwebkit2gtk-4.1-0* && $1 == *libc6* ]]' _ "$depends"
recommends=$(dpkg-deb -f "$deb" Recommends)
check "it recommends xdg-utils and a colour emoji font, fonts-noto-color-emoji ($recommends)" \
	bash -c '[[ $1 == *xdg-utils* && $1 == *fonts-noto-color-emoji* ]]' _ "$recommends"
check "every library /usr/bin/gatehouse needs is found" bash -c '! ldd /usr/bin/gatehouse | grep -q "not found"'

# Use it, as a person without a desktop session would: a fresh home, no display.
home=$tmp/home
mkdir -p "$home"
gh() { env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 /usr/bin/gatehouse "$@"; }
version_line=$(gh version || true)
check "gatehouse version says the package's version (\"$version_line\")" \
	test "$version_line" = "gatehouse ${want_version//\~/-}"
list=$(gh servers list 2>&1 || echo "exit status $?")
echo "$list" | sed 's/^/     /'
check "gatehouse servers list shows the demo server, run by /usr/bin/gatehouse" \
	bash -c '[[ $1 == *"Demo server"*"/usr/bin/gatehouse demo-server"* ]]' _ "$list"
sum=$(gh call "Demo server" add '{"a": 2, "b": 3}' 2>&1 || true)
check "gatehouse call \"Demo server\" add 2 + 3 gives 5 (\"$sum\")" bash -c '[[ $1 == *5* ]]' _ "$sum"
code=0
gh foo >/dev/null 2>"$tmp/foo.err" || code=$?
check "gatehouse foo says the command is unknown (exit $code)" \
	bash -c '(($1 == 2)) && grep -q "unknown command “foo”" "$2"' _ "$code" "$tmp/foo.err"
data=$home/.config/gatehouse/gatehouse.db
check "the person's data is in $data" test -s "$data"

# What another app runs, `gatehouse gateway`: the session's process is the
# small gatehouse-gateway installed beside it (no window libraries), and it
# pipes the app's messages both ways. tests/package/gatewaycheck stands in
# for the running app on the gateway socket.
check "/usr/bin/gatehouse-gateway is installed, executable" test -x /usr/bin/gatehouse-gateway
check "  … and needs no shared library (built without cgo)" bash -c '! ldd /usr/bin/gatehouse-gateway >/dev/null 2>&1'
root=$(cd "$(dirname "$0")/../.." && pwd)
if (cd "$root" && go build -o "$tmp/gatewaycheck" ./tests/package/gatewaycheck); then
	run_dir=$tmp/run gw_data=$home/gateway-data
	mkdir -m 0700 "$run_dir"
	mkdir -p "$gw_data"
	gw_out=$(XDG_RUNTIME_DIR=$run_dir "$tmp/gatewaycheck" -data "$gw_data" -want /usr/bin/gatehouse-gateway -- \
		env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 XDG_RUNTIME_DIR="$run_dir" /usr/bin/gatehouse --data-dir "$gw_data" gateway 2>&1) &&
		gw_code=0 || gw_code=$?
	echo "$gw_out" | sed 's/^/     /'
	check "gatehouse gateway runs /usr/bin/gatehouse-gateway, which hands its stdin and stdout to the app and ends with the session" test "$gw_code" -eq 0
else
	fail "go build ./tests/package/gatewaycheck"
fi

# The menu entry and its icons.
desktop=/usr/share/applications/gatehouse.desktop
check "desktop-file-validate $desktop" desktop-file-validate "$desktop"
entry() { sed -n "s/^$1=//p" "$desktop" | head -n 1; }
exec_line=$(entry Exec)
check "Exec ($exec_line) runs /usr/bin/gatehouse" test "$(command -v "${exec_line%% *}")" = /usr/bin/gatehouse
# Measured with xprop on the real window under Xvfb: WM_CLASS "gatehouse", "Gatehouse"
# (GTK takes it from the program's file name).
check "StartupWMClass is Gatehouse, the window's WM_CLASS" test "$(entry StartupWMClass)" = Gatehouse
check "Icon is gatehouse" test "$(entry Icon)" = gatehouse
for size in 16 32 48 64 128 256 512; do
	png=/usr/share/icons/hicolor/${size}x${size}/apps/gatehouse.png
	# A PNG's width and height are the big-endian words at bytes 16 and 20.
	dims=$(od -An -tu1 -j16 -N8 "$png" 2>/dev/null | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')
	check "icon $png is ${size}x${size}" test "$dims" = "${size}x${size}"
done
check "icon /usr/share/icons/hicolor/scalable/apps/gatehouse.svg is an SVG" \
	grep -q "<svg" /usr/share/icons/hicolor/scalable/apps/gatehouse.svg
check "/usr/share/doc/gatehouse/copyright is machine-readable (DEP-5)" \
	grep -qx "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" /usr/share/doc/gatehouse/copyright
# Gatehouse's own licence is Apache-2.0 (the LICENSE file); no paragraph may say otherwise.
check "the copyright file gives Gatehouse's own files (Files: *) the Apache-2.0 licence" \
	bash -c 'grep -A2 -x "Files: \*" /usr/share/doc/gatehouse/copyright | grep -qx "License: Apache-2.0"'
# (Third parties' copyright lines may say "All rights reserved."; the licence names may not.)
check "no licence in the copyright file is the all-rights-reserved of before the licence" \
	bash -c '! grep -Eq "^License:.*all-rights-reserved" /usr/share/doc/gatehouse/copyright'

# Remove, then purge: nothing of the package may stay, the person's data must.
apt_logged() { # log file, apt-get arguments...
	local log=$1
	shift
	apt-get "$@" >"$log" 2>&1 || { cat "$log"; return 1; }
}
check "apt-get remove gatehouse" apt_logged "$tmp/remove.log" remove "${apt_quiet[@]}" gatehouse
check "/usr/bin/gatehouse is gone after remove" test ! -e /usr/bin/gatehouse
check "/usr/bin/gatehouse-gateway is gone after remove" test ! -e /usr/bin/gatehouse-gateway
# With no configuration files, remove leaves dpkg nothing to purge (and apt-get
# then no longer finds the package by name).
if [[ -n $(installed_version) ]]; then
	check "apt-get purge gatehouse" apt_logged "$tmp/purge.log" purge "${apt_quiet[@]}" gatehouse
else
	pass "nothing left to purge after remove: the package has no configuration files"
fi
check "dpkg no longer knows gatehouse" test -z "$(installed_version)"
left=()
while read -r path; do
	[[ $path == /. ]] && continue
	[[ -e $path || -L $path ]] || continue
	# A folder that other packages own too (/usr/share/icons/hicolor/48x48/apps) stays.
	if [[ -d $path && ! -L $path ]] && dpkg-query -S "$path" >/dev/null 2>&1; then
		continue
	fi
	left+=("$path")
done <"$tmp/files"
check "none of the package's $(wc -l <"$tmp/files") paths is left but folders other packages share${left:+ (left: ${left[*]})}" \
	test "${#left[@]}" -eq 0
check "dpkg's own records of gatehouse are gone" bash -c '! compgen -G "/var/lib/dpkg/info/gatehouse.*" >/dev/null'
check "the person's data is still in $data" test -s "$data"

echo "test-package: $passed passed, $failed failed"
((failed == 0))
