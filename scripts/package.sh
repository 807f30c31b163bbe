#!/usr/bin/env bash
# Builds the Debian package of Gatehouse, and a tarball of the same files, from a
# built production binary.
#
#   scripts/package.sh BINARY OUTDIR      (make package runs it)
#
# BINARY's folder must also hold gatehouse-gateway (make build makes both): the
# small program `gatehouse gateway` runs for another app's session, installed
# beside gatehouse.
#
# Writes OUTDIR/gatehouse_VERSION_ARCH.deb and OUTDIR/gatehouse-VERSION-linux-ARCH.tar.gz
# (the same files with install.sh and uninstall.sh, for other distributions) and
# prints their paths. The package holds
# /usr/bin/gatehouse, /usr/bin/gatehouse-gateway, the menu entry (packaging/linux/gatehouse.desktop), the
# icons in the hicolor theme (icon/) and a DEP-5 copyright file written from
# packaging/linux/bundled.txt. It has no maintainer scripts: Debian's
# desktop-file-utils and hicolor-icon-theme refresh their caches through dpkg
# file triggers on /usr/share/applications and /usr/share/icons/hicolor.
#
# Plain dpkg-deb (and dpkg-shlibdeps for the dependencies) rather than nfpm:
# both come with dpkg on every Debian machine, and dpkg-shlibdeps derives the
# library dependencies from the binary itself, which nfpm does not do.
set -euo pipefail

if (($# != 2)); then
	echo "usage: $0 BINARY OUTDIR" >&2
	exit 2
fi
bin=$(realpath "$1")
gwbin=$(dirname "$bin")/gatehouse-gateway
outdir=$(realpath -m "$2")
[[ -x $gwbin ]] || {
	echo "package.sh: $gwbin is missing: make build builds it beside $bin" >&2
	exit 1
}
cd "$(dirname "$0")/.."
root=$PWD
pkg=packaging/linux

for tool in dpkg-deb dpkg-shlibdeps desktop-file-validate go; do
	command -v "$tool" >/dev/null || {
		echo "package.sh: $tool is missing; scripts/deps.sh test installs it (dpkg-dev, desktop-file-utils)" >&2
		exit 1
	}
done

# The app's own version ("0.1.0-dev"). In a Debian version a hyphen would start
# the Debian revision, and "~" sorts before the release it precedes: 0.1.0~dev.
version=$("$bin" version | awk '{print $2}')
[[ -n $version ]] || {
	echo "package.sh: $bin version printed no version" >&2
	exit 1
}
debversion=${version//-/\~}
arch=$(dpkg --print-architecture)

# dpkg-shlibdeps wants the tree it reads at debian/PACKAGE beside a debian/control.
work=$root/build/deb
stage=$work/debian/gatehouse
rm -rf "$work"
mkdir -p "$stage/DEBIAN" "$outdir"
printf 'Source: gatehouse\n\nPackage: gatehouse\nArchitecture: any\n' >"$work/debian/control"

install -D -m 0755 "$bin" "$stage/usr/bin/gatehouse"
install -D -m 0755 "$gwbin" "$stage/usr/bin/gatehouse-gateway"
install -D -m 0644 "$pkg/gatehouse.desktop" "$stage/usr/share/applications/gatehouse.desktop"
desktop-file-validate "$stage/usr/share/applications/gatehouse.desktop"
for png in icon/png/gatehouse-*.png; do
	size=${png##*-}
	size=${size%.png}
	install -D -m 0644 "$png" "$stage/usr/share/icons/hicolor/${size}x${size}/apps/gatehouse.png"
done
install -D -m 0644 icon/gatehouse.svg "$stage/usr/share/icons/hicolor/scalable/apps/gatehouse.svg"

# The copyright lines of a licence folder's LICENSE, COPYING and NOTICE files.
copyright_lines() {
	find "$1" -maxdepth 1 -type f \( -iname 'licen[cs]e*' -o -iname 'copying*' -o -iname 'notice*' \) -print0 |
		xargs -0r grep -hiE '^[[:space:]]*copyright[[:space:]]*(\(c\)|©|[0-9])' |
		sed -E 's/^[[:space:]]+//; s/[[:space:]]+$//' || true
}

# The licence of each Go module compiled into the binary, from bundled.txt.
declare -A licence_of=()
while IFS=$'\t' read -r kind name licence; do
	[[ -z $kind || $kind == \#* ]] && continue
	licence_of["$kind:$name"]=$licence
done <"$pkg/bundled.txt"

holders=() comments=() licences=()
add() { # name version licence folder
	local lines
	lines=$(copyright_lines "$4")
	[[ -n $lines ]] || lines="The authors of $1"
	mapfile -t -O "${#holders[@]}" holders <<<"$lines"
	comments+=("$1 $2: $3")
	read -ra words <<<"${3// and / }"
	licences+=("${words[@]}")
}
add "The Go standard library" "$(go env GOVERSION)" "${licence_of[go:std]}" "$(go env GOROOT)"
# gatehouse-gateway's modules are among gatehouse's; both are read all the same.
mapfile -t modules < <(go version -m "$bin" "$gwbin" | awk '$1 == "dep" {print $2 "@" $3}' | sort -u)
# One go list for all: it finds each module's folder in the module cache.
while read -r path modversion dir; do
	licence=${licence_of["go:$path"]:-}
	[[ -n $licence ]] || {
		echo "package.sh: the Go module $path is compiled into gatehouse but $pkg/bundled.txt does not say its licence; read its LICENSE and add a line" >&2
		exit 1
	}
	add "$path" "$modversion" "$licence" "$dir"
done < <(go list -m -f '{{.Path}} {{.Version}} {{.Dir}}' "${modules[@]}")
for name in "${!licence_of[@]}"; do
	[[ $name == npm:* ]] || continue
	dir=frontend/node_modules/${name#npm:}
	[[ -f $dir/package.json ]] || {
		echo "package.sh: $dir is missing: build the frontend first (make frontend)" >&2
		exit 1
	}
	add "${name#npm:} (JavaScript)" "$(node -p "require('./$dir/package.json').version")" "${licence_of[$name]}" "$dir"
done

# A DEP-5 field value: each line indented by one space, an empty line as " .".
field() { sed -E 's/^$/./; s/^/ /'; }
{
	echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
	echo "Upstream-Name: Gatehouse"
	echo "Comment: /usr/bin/gatehouse is one program that has compiled in the Go"
	echo " standard library, Go modules and JavaScript packages named in the paragraph"
	echo " for usr/bin/gatehouse; /usr/bin/gatehouse-gateway, the small program it runs"
	echo " for another app's session, is built from the same sources and a part of"
	echo " the same modules. The shared libraries gatehouse loads (GTK, WebKitGTK,"
	echo " GLib, libsoup, the C library) come from their own packages, whose copyright"
	echo " files are beside this one."
	echo
	echo "Files: *"
	echo "Copyright: Gatehouse developers"
	echo "License: Apache-2.0"
	echo "Comment: Gatehouse's own licence; its full text is the LICENSE file of the"
	echo " source (and of the tarball) and /usr/share/common-licenses/Apache-2.0."
	echo
	echo "Files: usr/bin/gatehouse usr/bin/gatehouse-gateway"
	echo "Copyright: Gatehouse developers"
	printf '%s\n' "${holders[@]}" | awk '!seen[$0]++' | field
	echo "License: $(printf '%s\n' Apache-2.0 "${licences[@]}" | sort -u | paste -sd' ' | sed 's/ / and /g')"
	echo "Comment: Compiled in, with their licences:"
	printf '%s\n' "${comments[@]}" | sort -f | field
	for licence in $(printf '%s\n' Apache-2.0 "${licences[@]}" | sort -u); do
		[[ -f $pkg/licenses/$licence ]] || {
			echo "package.sh: no text for the licence $licence in $pkg/licenses/" >&2
			exit 1
		}
		echo
		echo "License: $licence"
		field <"$pkg/licenses/$licence"
	done
} >"$work/copyright"
install -D -m 0644 "$work/copyright" "$stage/usr/share/doc/gatehouse/copyright"

# Library dependencies from the binary's NEEDED entries and the shlibs files of
# the packages that provide them. Ubuntu 24.04 and Debian 13 renamed GTK's and
# GLib's packages for the 64-bit time_t transition (libgtk-3-0t64); the new name
# comes first, the old one (Debian 12, Ubuntu 22.04) is the alternative.
# dpkg 1.21's dpkg-shlibdeps loses the binary's name before its check that the
# binary is in a package tree (the name it tests is empty), so it warns for any
# path: that one line is dropped, anything else it says is shown.
shlibdeps=$(cd "$work" && dpkg-shlibdeps -O -e "$stage/usr/bin/gatehouse" 2> >(grep -v "binaries to analyze should already be installed" >&2))
shlibdeps=${shlibdeps#shlibs:Depends=}
depends=()
IFS=',' read -ra deps <<<"$shlibdeps"
for dep in "${deps[@]}"; do
	dep=$(sed -E 's/^ +| +$//g' <<<"$dep")
	name=${dep%% *}
	case $name in
	libgtk-3-0 | libglib2.0-0) dep="${name}t64${dep#"$name"} | $dep" ;;
	esac
	depends+=("$dep")
done

# Recommends: xdg-utils opens the pages a person consents to in the browser;
# fonts-noto-color-emoji draws the emoji in server and model text, which are
# empty boxes without a colour emoji font (issue 26).
installed_size=$(du -sk --apparent-size "$stage/usr" | cut -f1)
cat >"$stage/DEBIAN/control" <<EOF
Package: gatehouse
Version: $debversion
Architecture: $arch
Maintainer: Gatehouse developers
Installed-Size: $installed_size
Depends: $(printf '%s\n' "${depends[@]}" | paste -sd, | sed 's/,/, /g')
Recommends: xdg-utils, fonts-noto-color-emoji
Section: utils
Priority: optional
Description: desktop host for MCP servers
 Gatehouse connects Model Context Protocol (MCP) servers and lets you use
 their tools, from its window or its command line. When a server asks for
 input in the middle of a call, Gatehouse says which server is asking and
 why, checks the answer against the server's schema and sends nothing
 without your consent.
EOF
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 0755 {} +

# One package in OUTDIR, so `make test-package` finds the one just built.
rm -f "$outdir"/gatehouse_*.deb
deb=$outdir/gatehouse_${debversion}_$arch.deb
# The last commit's time stamps the files, so the same commit gives the same package.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
dpkg-deb --build --root-owner-group "$stage" "$deb" >/dev/null
echo "$deb"

# The tarball for other distributions: the same program, menu entry, icons and
# copyright file, with install.sh and uninstall.sh (POSIX sh) that install them
# into ~/.local or a --prefix and keep a manifest of what they wrote, and
# INSTALL, which says how. install.sh rewrites the menu entry's Exec to the
# full path it installs the program at.
name=gatehouse-$version-linux-$arch
tarstage=$root/build/tar/$name
rm -rf "$root/build/tar"
install -D -m 0755 "$bin" "$tarstage/gatehouse"
install -D -m 0755 "$gwbin" "$tarstage/gatehouse-gateway"
install -m 0644 "$pkg/gatehouse.desktop" "$pkg/INSTALL" "$work/copyright" LICENSE "$tarstage/"
install -m 0755 "$pkg/install.sh" "$pkg/uninstall.sh" "$tarstage/"
cp -r "$stage/usr/share/icons" "$tarstage/icons"
find "$tarstage" -type d -exec chmod 0755 {} +
find "$tarstage/icons" -type f -exec chmod 0644 {} +
rm -f "$outdir"/gatehouse-*-linux-*.tar.gz
tarball=$outdir/$name.tar.gz
# Reproducible like the .deb: sorted names, the commit's time, owner root, no
# time in the gzip header.
tar --create --directory "$root/build/tar" --sort=name --format=gnu \
	--mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner "$name" |
	gzip -9 -n >"$tarball"
echo "$tarball"
