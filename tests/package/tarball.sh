#!/usr/bin/env bash
# Installs Gatehouse from its tarball as a person would, for one person (into a
# home of their own) and for everyone (into a prefix that already holds other
# programs), uses it, installs it again, removes it, and checks that nothing of
# it is left but the person's data.
#
#   tests/package/tarball.sh build/gatehouse-VERSION-linux-ARCH.tar.gz     (make test-package)
#
# Needs no root: every install goes into a temporary folder. Ends with the line
# "test-tarball: N passed, M failed".
set -euo pipefail

if (($# != 1)) || [[ ! -f $1 ]]; then
	echo "usage: $0 PATH-TO-gatehouse-VERSION-linux-ARCH.tar.gz (make package builds it)" >&2
	exit 2
fi
tarball=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
# Everything is in one folder, gatehouse-VERSION-linux-ARCH.
name=$(tar -tzf "$tarball" | awk 'NR == 1')
name=${name%%/*}
version=${name#gatehouse-}
version=${version%-linux-*}

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
contains() { [[ $1 == *"$2"* ]]; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Stands in for the running app on the gateway socket (check_use).
gatewaycheck=$tmp/gatewaycheck
(cd "$root" && go build -o "$gatewaycheck" ./tests/package/gatewaycheck)

## The archive

listing=$(tar --numeric-owner -tvzf "$tarball")
check "every entry of the tarball belongs to 0/0" bash -c '! grep -v " 0/0 " <<<"$1"' _ "$listing"
check "every entry of the tarball has the same time (the last commit's)" \
	test "$(awk '{print $4, $5}' <<<"$listing" | sort -u | wc -l)" -eq 1
# A gzip header's bytes 4 to 7 are its time; gzip -n leaves them zero.
check "the gzip header holds no time" test "$(od -An -tu1 -j4 -N4 "$tarball" | tr -d ' ')" = 0000
want_files=(INSTALL LICENSE copyright gatehouse gatehouse-gateway gatehouse.desktop install.sh uninstall.sh
	icons/hicolor/scalable/apps/gatehouse.svg)
sizes=(16 32 48 64 128 256 512)
for size in "${sizes[@]}"; do want_files+=("icons/hicolor/${size}x${size}/apps/gatehouse.png"); done
got_files=$(tar -tzf "$tarball" | grep -v '/$' | sed "s|^$name/||" | sort)
check "the tarball holds the program and gatehouse-gateway, menu entry, icons, copyright, LICENSE, INSTALL and the two scripts in $name/" \
	test "$got_files" = "$(printf '%s\n' "${want_files[@]}" | sort)"

tar -xzf "$tarball" -C "$tmp"
dir=$tmp/$name
check "install.sh and uninstall.sh are executable" test -x "$dir/install.sh" -a -x "$dir/uninstall.sh"
icons_same=true
for size in "${sizes[@]}"; do
	cmp -s "$root/icon/png/gatehouse-$size.png" "$dir/icons/hicolor/${size}x${size}/apps/gatehouse.png" || icons_same=false
done
cmp -s "$root/icon/gatehouse.svg" "$dir/icons/hicolor/scalable/apps/gatehouse.svg" || icons_same=false
check "its icons are the ones the .deb installs (icon/)" "$icons_same"
check "its INSTALL says how to install the colour emoji font (fonts-noto-color-emoji)" \
	grep -q "apt-get install fonts-noto-color-emoji" "$dir/INSTALL"
check "its menu entry is the .deb's" cmp -s "$root/packaging/linux/gatehouse.desktop" "$dir/gatehouse.desktop"
check "its LICENSE is Gatehouse's (the Apache License 2.0 at the source's root)" cmp -s "$root/LICENSE" "$dir/LICENSE"
check "its copyright file gives Gatehouse's own files the Apache-2.0 licence, and no licence is all-rights-reserved" \
	bash -c 'grep -A2 -x "Files: \*" "$1" | grep -qx "License: Apache-2.0" && ! grep -Eq "^License:.*all-rights-reserved" "$1"' _ "$dir/copyright"
check "its copyright file is machine-readable (DEP-5) and has the licence texts" \
	bash -c 'grep -qx "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" "$1" && grep -q "^License: Apache-2.0" "$1"' _ "$dir/copyright"
if command -v shellcheck >/dev/null; then
	check "shellcheck -s sh install.sh uninstall.sh" shellcheck -s sh "$dir/install.sh" "$dir/uninstall.sh"
else
	echo "skip shellcheck of install.sh and uninstall.sh: shellcheck is not installed (scripts/deps.sh test installs it)"
fi

# A person's shell: only HOME, PATH (/usr/bin:/bin unless PERSON_PATH says) and
# the language. sh is Debian's dash, a strict POSIX shell.
person() { # home, command...
	local home=$1
	shift
	env -i HOME="$home" PATH="${PERSON_PATH:-/usr/bin:/bin}" LANG=C.UTF-8 "$@"
}
# Runs a command as a person; sets out (standard output and error) and code.
run() { # home, command...
	code=0
	out=$(person "$@" 2>&1) || code=$?
}
tree() { (cd "$1" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort); }
# A PNG's width and height are the big-endian words at bytes 16 and 20.
png_size() { od -An -tu1 -j16 -N8 "$1" 2>/dev/null | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}'; }

## Refusals: each before anything is written

refused=$tmp/refused-home
mkdir "$refused"
stubs=$tmp/stubs
mkdir "$stubs"
printf '#!/bin/sh\nif [ "$1" = -m ]; then echo aarch64; else exec /bin/uname "$@"; fi\n' >"$stubs/uname"
chmod +x "$stubs/uname"
PERSON_PATH=$stubs:/usr/bin:/bin run "$refused" sh "$dir/install.sh"
check "on an aarch64 computer install.sh refuses, naming both machines (exit $code: $out)" \
	bash -c '(($1 == 1)) && [[ $2 == *"built for x86_64 computers and this one is aarch64"* ]]' _ "$code" "$out"
check "and writes nothing" test -z "$(tree "$refused")"
rm "$stubs/uname"

gtk=libgtk-3-0
if apt-cache show libgtk-3-0t64 >/dev/null 2>&1; then gtk=libgtk-3-0t64; fi
# Each case: what ldd says is missing, and the command install.sh must print.
ldd_cases=(
	"libgtk-3.so.0 libwebkit2gtk-4.1.so.0|apt-get install $gtk libwebkit2gtk-4.1-0"
	"libwebkit2gtk-4.1.so.0 libjavascriptcoregtk-4.1.so.0|apt-get install libwebkit2gtk-4.1-0"
)
for case in "${ldd_cases[@]}"; do
	libs=${case%%|*} command=${case#*|}
	{
		echo '#!/bin/sh'
		echo 'echo "	linux-vdso.so.1 (0x00007ffd)"'
		for lib in $libs; do echo "echo \"	$lib => not found\""; done
		echo 'echo "	libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f00)"'
	} >"$stubs/ldd"
	chmod +x "$stubs/ldd"
	PERSON_PATH=$stubs:/usr/bin:/bin run "$refused" sh "$dir/install.sh"
	check "without ${libs// /, } install.sh stops and prints \"$command\" (exit $code)" \
		bash -c '(($1 == 1)) && grep -qE "^  (sudo )?$2\$" <<<"$3" && [[ $3 == *"Nothing was installed"* ]]' _ "$code" "$command" "$out"
done
rm "$stubs/ldd"
check "and writes nothing" test -z "$(tree "$refused")"

usage_cases=(
	"--bogus|2|unknown option"
	"--prefix|1|--prefix needs a folder"
	"--prefix relative/dir|1|--prefix needs an absolute folder"
)
for case in "${usage_cases[@]}"; do
	IFS='|' read -r args want_code want_text <<<"$case"
	read -ra argv <<<"$args"
	run "$refused" sh "$dir/install.sh" "${argv[@]}"
	check "install.sh $args exits $want_code saying \"$want_text\"" \
		bash -c '(($1 == $2)) && [[ $3 == *"$4"* ]]' _ "$code" "$want_code" "$out" "$want_text"
done
check "and writes nothing" test -z "$(tree "$refused")"
if (($(id -u) != 0)); then
	locked=$tmp/root-only
	mkdir -m 0555 "$locked"
	run "$refused" sh "$dir/install.sh" --prefix "$locked"
	check "install.sh --prefix into a folder the person cannot write says it needs root (exit $code)" \
		bash -c '(($1 == 1)) && [[ $2 == *"needs root: sudo sh "*"install.sh --prefix $3"* ]]' _ "$code" "$out" "$locked"
	check "and writes nothing" test -z "$(tree "$locked")$(tree "$refused")"
	chmod 0755 "$locked"
fi

# The menu entry PREFIX/share/applications/gatehouse.desktop: valid, starting
# BIN by its full path, with the icons it names in PREFIX/share/icons/hicolor.
check_menu_entry() { # prefix, the Exec line expected
	local share=$1/share bin=$1/bin/gatehouse want_exec=$2
	local desktop=$share/applications/gatehouse.desktop exec_line path size
	check "desktop-file-validate $desktop" desktop-file-validate "$desktop"
	exec_line=$(grep '^Exec=' "$desktop")
	check "its $exec_line is the installed program's full path" test "$exec_line" = "$want_exec"
	# Unquoted: drop the quotes and the backslash before ", `, $ and \.
	path=${exec_line#Exec=}
	if [[ $path == \"*\" ]]; then path=$(sed -E 's/\\\\/\\/g; s/^"(.*)"$/\1/; s/\\(["`$\\])/\1/g' <<<"$path"); fi
	check "which is $bin, an executable" bash -c '[[ $1 == "$2" && -x $1 ]]' _ "$path" "$bin"
	check "its other lines are the tarball's" \
		diff <(grep -v '^Exec=' "$dir/gatehouse.desktop") <(grep -v '^Exec=' "$desktop")
	check "its Icon is gatehouse" grep -qx 'Icon=gatehouse' "$desktop"
	for size in "${sizes[@]}"; do
		png=$share/icons/hicolor/${size}x${size}/apps/gatehouse.png
		check "icon ${png#"$1"/} is ${size}x${size}" test "$(png_size "$png")" = "${size}x${size}"
	done
	check "icon share/icons/hicolor/scalable/apps/gatehouse.svg is an SVG" grep -q "<svg" "$share/icons/hicolor/scalable/apps/gatehouse.svg"
}

# Runs the installed program as a person: version, servers list, a call.
check_use() { # home, prefix
	local home=$1 bin=$2/bin/gatehouse
	run "$home" "$bin" --version
	check "gatehouse --version says $version (\"$out\")" test "$out" = "gatehouse $version"
	run "$home" "$bin" servers list
	echo "$out" | sed 's/^/     /'
	check "gatehouse servers list shows the demo server, run by $bin" contains "$out" "Demo server"
	# Its command line as a shell would quote it (cmdline.Join): the path
	# has a space, so it is in single quotes.
	local line="$bin demo-server"
	[[ $bin == *" "* ]] && line="'$bin' demo-server"
	check "  … as $line" contains "$out" "$line"
	run "$home" "$bin" call "Demo server" add '{"a": 2, "b": 3}'
	check "gatehouse call \"Demo server\" add 2 + 3 gives 5 (\"$out\")" contains "$out" "= 5"
	# What another app runs: the session's process is the gatehouse-gateway
	# installed beside gatehouse, piping both ways to the app's socket
	# (gatewaycheck stands in for the running app).
	local run_dir=$home/run gw_data="$home/gateway data"
	mkdir -p -m 0700 "$run_dir"
	mkdir -p "$gw_data"
	out=$(XDG_RUNTIME_DIR=$run_dir "$gatewaycheck" -data "$gw_data" -want "$2/bin/gatehouse-gateway" -- \
		env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 XDG_RUNTIME_DIR="$run_dir" "$bin" --data-dir "$gw_data" gateway 2>&1) &&
		code=0 || code=$?
	echo "$out" | sed 's/^/     /'
	check "gatehouse gateway runs $2/bin/gatehouse-gateway, which hands its stdin and stdout to the app and ends with the session" test "$code" -eq 0
	rm -rf "$run_dir" "$gw_data"
}

manifest_files() { sed -n 's/^file //p' "$1" | LC_ALL=C sort; }

## For one person, into ~/.local

# A space in the home puts the desktop entry's quoting to the test.
home="$tmp/home of a person"
mkdir "$home"
local_=$home/.local
run "$home" sh "$dir/install.sh"
echo "$out" | sed 's/^/     /'
check "install.sh (for one person) succeeds (exit $code)" test "$code" -eq 0
check "it says ~/.local/bin is not on PATH and the line that puts it there" \
	bash -c '[[ $1 == *"$2 is not on your PATH"* && $1 == *"PATH=\"\$HOME/.local/bin:\$PATH\""* ]]' _ "$out" "$local_/bin"
want_installed=(bin/gatehouse bin/gatehouse-gateway share/applications/gatehouse.desktop share/doc/gatehouse/copyright
	lib/gatehouse/uninstall.sh lib/gatehouse/install-manifest share/icons/hicolor/scalable/apps/gatehouse.svg)
for size in "${sizes[@]}"; do want_installed+=("share/icons/hicolor/${size}x${size}/apps/gatehouse.png"); done
manifest=$local_/lib/gatehouse/install-manifest
check "it installs the program, menu entry, icons, copyright, uninstall.sh and its manifest in ~/.local, and nothing else in the home" \
	test "$(cd "$local_" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)" = "$(printf '%s\n' "${want_installed[@]}" | LC_ALL=C sort)"
check "its manifest lists each of those files" \
	test "$(manifest_files "$manifest")" = "$(printf '%s\n' "${want_installed[@]/#/$local_/}" | LC_ALL=C sort)"
check "$local_/bin/gatehouse is the tarball's program" cmp -s "$dir/gatehouse" "$local_/bin/gatehouse"
check "$local_/bin/gatehouse-gateway is the tarball's, executable" \
	bash -c 'cmp -s "$1" "$2" && test -x "$2"' _ "$dir/gatehouse-gateway" "$local_/bin/gatehouse-gateway"
check_menu_entry "$local_" "Exec=\"$local_/bin/gatehouse\""
check_use "$home" "$local_"

# The person's data: the store the CLI just made, and what WebKit keeps for the
# window in ~/.local/share/gatehouse (made here by hand: only the window writes it).
data=$home/.config/gatehouse/gatehouse.db
check "the person's data is in ~/.config/gatehouse/gatehouse.db" test -s "$data"
mkdir -p "$local_/share/gatehouse/WebKitCache"
echo "window state" >"$local_/share/gatehouse/WebKitCache/entry"
data_tree=$( (
	cd "$home"
	find .config .local/share/gatehouse
	printf '%s\n' .local .local/share
) | LC_ALL=C sort)
data_sums=$(cd "$home" && find .config .local/share/gatehouse -type f -exec sha256sum {} + | sort)

manifest_before=$(cat "$manifest")
PERSON_PATH=$local_/bin:/usr/bin:/bin run "$home" sh "$dir/install.sh"
check "install.sh again succeeds (exit $code)" test "$code" -eq 0
check "  … and says nothing about PATH when ~/.local/bin is on it" bash -c '[[ $1 != *"not on your PATH"* ]]' _ "$out"
check "  … and writes the same manifest" test "$(cat "$manifest")" = "$manifest_before"
check "  … and the program still runs" bash -c '[[ $("$1" version) == "gatehouse $2" ]]' _ "$local_/bin/gatehouse" "$version"

run "$home" sh "$local_/lib/gatehouse/uninstall.sh"
echo "$out" | sed 's/^/     /'
check "the installed ~/.local/lib/gatehouse/uninstall.sh succeeds (exit $code)" test "$code" -eq 0
check "  … and says the data is kept" contains "$out" "Your data is kept"
check "nothing is left in the home but the person's data" test "$(tree "$home")" = "$data_tree"
check "the person's data is unchanged" test "$(cd "$home" && find .config .local/share/gatehouse -type f -exec sha256sum {} + | sort)" = "$data_sums"
run "$home" sh "$dir/uninstall.sh"
check "uninstall.sh again says nothing is installed (exit $code)" \
	bash -c '(($1 == 1)) && [[ $2 == *"no Gatehouse installed by install.sh in ~/.local"* ]]' _ "$code" "$out"

## For everyone, into a prefix that holds other programs

prefix=$tmp/prefix
other_share=$prefix/share
mkdir -p "$prefix/bin" "$other_share/applications" "$other_share/icons/hicolor/48x48/apps"
printf '#!/bin/sh\necho other\n' >"$prefix/bin/other"
chmod +x "$prefix/bin/other"
printf '[Desktop Entry]\nType=Application\nName=Other\nExec=other %%f\nMimeType=text/x-other;\n' >"$other_share/applications/other.desktop"
cp "$root/icon/png/gatehouse-48.png" "$other_share/icons/hicolor/48x48/apps/other.png"
update-desktop-database -q "$other_share/applications"
icon_cache=$other_share/icons/hicolor/icon-theme.cache
has_icon_cache=false
if command -v gtk-update-icon-cache >/dev/null; then
	gtk-update-icon-cache -q -t "$other_share/icons/hicolor"
	has_icon_cache=true
fi
prefix_before=$(tree "$prefix")

home2=$tmp/home2
mkdir "$home2"
PERSON_PATH=$prefix/bin:/usr/bin:/bin run "$home2" sh "$dir/install.sh" --prefix "$prefix"
echo "$out" | sed 's/^/     /'
check "install.sh --prefix PREFIX succeeds (exit $code)" test "$code" -eq 0
check "  … and writes nothing in the home" test -z "$(tree "$home2")"
check "  … and lists its files in PREFIX/lib/gatehouse/install-manifest" \
	test "$(manifest_files "$prefix/lib/gatehouse/install-manifest")" = "$(printf '%s\n' "${want_installed[@]/#/$prefix/}" | LC_ALL=C sort)"
check_menu_entry "$prefix" "Exec=$prefix/bin/gatehouse"
if $has_icon_cache; then
	check "the icon cache that was there now has gatehouse" grep -qa gatehouse "$icon_cache"
fi
check "the other program's menu entry is still in the desktop cache" grep -q other.desktop "$other_share/applications/mimeinfo.cache"
check_use "$home2" "$prefix"

# An update from a version that installed an icon size this one has not: the
# old icon goes. A manifest line naming a file install.sh never writes is
# left alone by uninstall.sh.
stale=$other_share/icons/hicolor/24x24/apps/gatehouse.png
install -D -m 0644 "$root/icon/png/gatehouse-32.png" "$stale"
printf 'dir %s\ndir %s\nfile %s\n' "${stale%/apps/*}" "${stale%/*}" "$stale" >>"$prefix/lib/gatehouse/install-manifest"
PERSON_PATH=$prefix/bin:/usr/bin:/bin run "$home2" sh "$dir/install.sh" --prefix "$prefix"
check "install.sh --prefix PREFIX again succeeds (exit $code)" test "$code" -eq 0
check "  … and removes the icon the older version installed and this one does not" test ! -e "$stale"
echo "file $prefix/bin/other" >>"$prefix/lib/gatehouse/install-manifest"

run "$home2" sh "$dir/uninstall.sh" --prefix "$prefix"
echo "$out" | sed 's/^/     /'
check "uninstall.sh --prefix PREFIX succeeds (exit $code)" test "$code" -eq 0
check "  … and skips the manifest line that names another program" contains "$out" "skipping \"$prefix/bin/other\""
check "the prefix is as it was before the install, the other program included" test "$(tree "$prefix")" = "$prefix_before"
if $has_icon_cache; then
	check "the icon cache no longer has gatehouse" bash -c '! grep -qa gatehouse "$1"' _ "$icon_cache"
fi
check "the person's data is still in the home" test -s "$home2/.config/gatehouse/gatehouse.db"

echo "test-tarball: $passed passed, $failed failed"
((failed == 0))
