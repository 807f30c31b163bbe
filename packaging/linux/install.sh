#!/bin/sh
# Installs Gatehouse from the folder this script is in (the unpacked
# gatehouse-VERSION-linux-ARCH.tar.gz). INSTALL beside it says the same for people.
#
#   ./install.sh                             for you alone, into ~/.local
#   sudo ./install.sh --prefix /usr/local    for everyone on this computer
#
# It writes PREFIX/lib/gatehouse/install-manifest, the list of the files and
# folders it made, and a copy of uninstall.sh beside it; uninstall.sh removes
# exactly those. Your data (~/.config/gatehouse, ~/.local/share/gatehouse) is
# never touched. Running it again updates the installation in place.
#
# POSIX sh: it runs where bash is missing. Every check that can refuse runs
# before anything is written.
set -eu

me=install.sh
nl='
'

die() {
	printf '%s: %s\n' "$me" "$*" >&2
	exit 1
}

usage() {
	cat <<'EOF'
Usage: ./install.sh [--prefix DIR]

Installs Gatehouse: the program (and gatehouse-gateway, which it runs for
other apps), its menu entry and its icons.

  (no option)          for you alone: ~/.local/bin/gatehouse, the menu entry and
                       icons in ~/.local/share (no root needed)
  --prefix /usr/local  for everyone on this computer (run it as root: sudo)

uninstall.sh removes what this installed; your data is always kept.
EOF
}

prefix=
while [ $# -gt 0 ]; do
	case $1 in
	--prefix)
		[ $# -ge 2 ] || die "--prefix needs a folder, for example --prefix /usr/local"
		prefix=$2
		shift 2
		;;
	--prefix=*)
		prefix=${1#--prefix=}
		shift
		;;
	-h | --help)
		usage
		exit 0
		;;
	*)
		usage >&2
		printf '%s: unknown option "%s"\n' "$me" "$1" >&2
		exit 2
		;;
	esac
done

here=$(cd "$(dirname "$0")" && pwd -P)
for f in gatehouse gatehouse-gateway gatehouse.desktop copyright uninstall.sh icons/hicolor/scalable/apps/gatehouse.svg; do
	[ -f "$here/$f" ] || die "$here/$f is missing: unpack the whole tarball and run install.sh from its folder"
done

# Where things go. The per-user menu entry and icons follow XDG_DATA_HOME, as
# desktops look for them there.
if [ -n "$prefix" ]; then
	case $prefix in
	/*) ;;
	*) die "--prefix needs an absolute folder such as /usr/local, not \"$prefix\"" ;;
	esac
	prefix=${prefix%/}
	[ -n "$prefix" ] || die "--prefix / would put files in /bin and /share: use --prefix /usr/local"
	bindir=$prefix/bin
	datadir=$prefix/share
	libdir=$prefix/lib/gatehouse
else
	case ${HOME:-} in
	/*) ;;
	*) die "HOME is not set to an absolute folder, so there is no ~/.local to install into; set HOME or use --prefix" ;;
	esac
	bindir=$HOME/.local/bin
	case ${XDG_DATA_HOME:-} in
	/*) datadir=$XDG_DATA_HOME ;;
	*) datadir=$HOME/.local/share ;;
	esac
	libdir=$HOME/.local/lib/gatehouse
fi
case $bindir$datadir$libdir in
*"$nl"*) die "the folder names contain a line break, which the install manifest cannot hold" ;;
esac
appsdir=$datadir/applications
hicolor=$datadir/icons/hicolor
manifest=$libdir/install-manifest

# The machine the program is built for: e_machine, the little-endian 16-bit
# word at byte 18 of its ELF header (62 is x86-64, 183 is AArch64).
# shellcheck disable=SC2046 # od prints two numbers, split on purpose
elf_machine() {
	set -- $(od -An -tu1 -j18 -N2 "$1")
	case $(($1 + 256 * $2)) in
	62) echo x86_64 ;;
	183) echo aarch64 ;;
	*) echo unknown ;;
	esac
}
system=$(uname -s)
[ "$system" = Linux ] || die "this Gatehouse is a Linux program and this computer runs $system"
built_for=$(elf_machine "$here/gatehouse")
machine=$(uname -m)
if [ "$built_for" != "$machine" ]; then
	die "this Gatehouse is built for $built_for computers and this one is $machine, so it cannot run here. Use the tarball built for $machine, or build Gatehouse from source (README, Quick start)."
fi

# The libraries it loads: GTK 3 and WebKitGTK 4.1 (and what they bring along).
# ldd lists each one the program needs that the system cannot find.
if needed=$(ldd "$here/gatehouse" 2>/dev/null); then
	missing=$(printf '%s\n' "$needed" | awk '/=> not found/ {print $1}')
	if [ -n "$missing" ]; then
		gtk='' webkit=''
		for lib in $missing; do
			case $lib in
			*webkit* | *javascriptcore* | *soup*) webkit=libwebkit2gtk-4.1-0 ;;
			*) gtk=libgtk-3-0 ;;
			esac
		done
		# Ubuntu 24.04 and Debian 13 renamed GTK's package for the 64-bit time_t transition.
		if [ -n "$gtk" ] && command -v apt-cache >/dev/null 2>&1 && apt-cache show libgtk-3-0t64 >/dev/null 2>&1; then
			gtk=libgtk-3-0t64
		fi
		packages=$(printf '%s %s' "$gtk" "$webkit" | sed 's/^ //; s/ $//')
		sudo="sudo "
		[ "$(id -u)" -ne 0 ] || sudo=
		{
			printf '%s: Gatehouse needs libraries this computer does not have: %s.\n' "$me" "$(echo "$missing" | paste -sd, - | sed 's/,/, /g')"
			if command -v apt-get >/dev/null 2>&1; then
				printf 'Install them with:\n  %sapt-get install %s\nthen run install.sh again. Nothing was installed.\n' "$sudo" "$packages"
			else
				echo "Install GTK 3 and WebKitGTK 4.1 with your system's package manager, then run install.sh again. Nothing was installed."
			fi
		} >&2
		exit 1
	fi
else
	printf '%s: note: could not check the libraries Gatehouse needs (ldd failed); it needs GTK 3 and WebKitGTK 4.1\n' "$me" >&2
fi

# Can we write there? Each folder's nearest existing parent must be writable.
writable() {
	set -- "$1" "$1"
	while [ ! -d "$2" ]; do set -- "$1" "$(dirname "$2")"; done
	[ -w "$2" ] || die "cannot write to $2, where $1 goes. Installing there needs root: sudo sh $here/install.sh${prefix:+ --prefix $prefix}"
}
for dir in "$bindir" "$appsdir" "$hicolor" "$libdir"; do writable "$dir"; done

# The manifest: one entry a line, "file PATH" or "dir PATH" (a folder this
# script made, removed by uninstall.sh when it is empty). Folders made by an
# earlier run are carried over so that uninstall still removes them.
entries=
record() { entries="$entries$1 $2$nl"; }
old_files=
if [ -f "$manifest" ]; then
	while IFS= read -r line; do
		case $line in
		"dir "*) record dir "${line#dir }" ;;
		"file "*) old_files="$old_files${line#file }$nl" ;;
		esac
	done <"$manifest"
fi

make_dir() {
	[ -d "$1" ] && return 0
	make_dir "$(dirname "$1")"
	mkdir -m 0755 "$1" || die "could not make the folder $1"
	record dir "$1"
}

# Writes standard input to a temporary name beside the destination and renames
# it, so a running Gatehouse keeps its program file and no reader sees half a file.
write() { # destination, mode
	make_dir "$(dirname "$1")"
	if ! { cat >"$1.new.$$" && chmod "$2" "$1.new.$$" && mv -f "$1.new.$$" "$1"; }; then
		rm -f "$1.new.$$"
		die "could not write $1"
	fi
	record file "$1"
}
put() { write "$2" "$3" <"$1"; } # source, destination, mode

# A value for the Exec key: as it is when it has only plain characters, else
# double-quoted with ", `, $ and \ escaped (the desktop entry quoting rules),
# then \ doubled and % doubled (the rules for the key's string value).
exec_value() {
	case $1 in
	*[!A-Za-z0-9/._+,@=:-]*)
		printf '"%s"' "$(printf '%s' "$1" | sed 's/[\\"`$]/\\&/g')" | sed 's/\\/\\\\/g; s/%/%%/g'
		;;
	*) printf '%s' "$1" ;;
	esac
}

put "$here/gatehouse" "$bindir/gatehouse" 0755
# What `gatehouse gateway` runs for another app's session: found beside gatehouse.
put "$here/gatehouse-gateway" "$bindir/gatehouse-gateway" 0755

# The menu entry starts the program by its full path: a desktop session's PATH
# often lacks ~/.local/bin.
make_dir "$appsdir" # here: write runs in the pipeline's subshell
EXEC_VALUE=$(exec_value "$bindir/gatehouse") awk '
	/^Exec=/ { print "Exec=" ENVIRON["EXEC_VALUE"]; next }
	{ print }
' "$here/gatehouse.desktop" | write "$appsdir/gatehouse.desktop" 0644
record file "$appsdir/gatehouse.desktop"

for icon in "$here"/icons/hicolor/*/apps/gatehouse.*; do
	put "$icon" "$hicolor/${icon#"$here"/icons/hicolor/}" 0644
done
put "$here/copyright" "$datadir/doc/gatehouse/copyright" 0644
put "$here/uninstall.sh" "$libdir/uninstall.sh" 0755
record file "$manifest"

# Files an earlier version installed that this one does not (an icon size it
# dropped) go now, so the manifest stays the whole truth.
printf '%s' "$old_files" | while IFS= read -r old; do
	case $nl$entries in
	*"${nl}file $old$nl"*) ;;
	*)
		case $old in
		*/bin/gatehouse | */bin/gatehouse-gateway | */applications/gatehouse.desktop | */icons/hicolor/*/apps/gatehouse.png | \
			*/icons/hicolor/*/apps/gatehouse.svg | */doc/gatehouse/copyright) rm -f "$old" ;;
		esac
		;;
	esac
done

write "$manifest" 0644 <<EOF
# Gatehouse install manifest: what install.sh made here. uninstall.sh removes these files, and these folders when they are empty.
$(printf '%s' "$entries" | LC_ALL=C sort -u)
EOF

# Desktops watch these folders; the caches are refreshed where they exist.
# None is made where there was none: a cache that other programs' installers
# do not refresh would hide their icons.
touch "$hicolor"
if [ -f "$appsdir/mimeinfo.cache" ] && command -v update-desktop-database >/dev/null 2>&1; then
	update-desktop-database -q "$appsdir" || printf '%s: note: update-desktop-database %s failed\n' "$me" "$appsdir" >&2
fi
if [ -f "$hicolor/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null 2>&1; then
	gtk-update-icon-cache -q -t -f "$hicolor" || printf '%s: note: gtk-update-icon-cache %s failed\n' "$me" "$hicolor" >&2
fi

version=$("$bindir/gatehouse" version 2>&1) || die "installed, but $bindir/gatehouse does not run: $version"
echo "Installed Gatehouse ${version#gatehouse } as $bindir/gatehouse, with its entry in your desktop's menu."
echo "To remove it: sh $libdir/uninstall.sh (your data stays)."
if [ -z "$prefix" ] && [ "$(id -u)" -eq 0 ]; then
	echo "Note: this is for root alone. For everyone on this computer: sudo sh $here/install.sh --prefix /usr/local"
fi
case ":${PATH:-}:" in
*":$bindir:"* | *":$bindir/:"*)
	found=$(command -v gatehouse || true)
	if [ "$found" != "$bindir/gatehouse" ]; then
		echo "Note: typing gatehouse in a terminal runs $found, which comes earlier on your PATH."
	fi
	;;
*)
	echo "Note: $bindir is not on your PATH, so typing gatehouse in a terminal will not find it (the menu entry works)."
	if [ -z "$prefix" ]; then
		echo "Log out and in again (Debian's and Ubuntu's ~/.profile add ~/.local/bin when it exists), or add this line to ~/.profile:"
		# shellcheck disable=SC2016 # the line is printed for the person to copy, unexpanded
		echo '  PATH="$HOME/.local/bin:$PATH"'
	fi
	;;
esac
