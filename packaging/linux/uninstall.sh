#!/bin/sh
# Removes what install.sh installed, as its manifest lists it, and nothing else:
# your data (~/.config/gatehouse, ~/.local/share/gatehouse) is never touched.
#
#   ./uninstall.sh                            what install.sh put in ~/.local
#   sudo ./uninstall.sh --prefix /usr/local   what install.sh --prefix /usr/local put there
#   sh ~/.local/lib/gatehouse/uninstall.sh    the copy install.sh leaves beside its manifest
#
# A file is removed only when its name is one install.sh writes; a folder only
# when install.sh made it and it is empty.
set -eu

me=uninstall.sh

die() {
	printf '%s: %s\n' "$me" "$*" >&2
	exit 1
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
		echo "Usage: ./uninstall.sh [--prefix DIR]"
		echo
		echo "Removes the Gatehouse that install.sh installed (in ~/.local, or in DIR with --prefix); your data is kept."
		exit 0
		;;
	*)
		printf '%s: unknown option "%s"; usage: ./uninstall.sh [--prefix DIR]\n' "$me" "$1" >&2
		exit 2
		;;
	esac
done

# The manifest beside this script when it is the installed copy, else the one
# in the prefix install.sh used.
here=$(cd "$(dirname "$0")" && pwd -P)
if [ -n "$prefix" ]; then
	case $prefix in
	/*) ;;
	*) die "--prefix needs an absolute folder such as /usr/local, not \"$prefix\"" ;;
	esac
	manifest=${prefix%/}/lib/gatehouse/install-manifest
	where=${prefix%/}
elif [ -f "$here/install-manifest" ]; then
	manifest=$here/install-manifest
	where=$here
else
	[ -n "${HOME:-}" ] || die "HOME is not set, so there is no ~/.local to look in; use --prefix"
	manifest=$HOME/.local/lib/gatehouse/install-manifest
	# shellcheck disable=SC2088 # shown to the person as written
	where="~/.local"
fi
if [ ! -f "$manifest" ]; then
	die "no Gatehouse installed by install.sh in $where (there is no $manifest). For the Debian package: sudo apt remove gatehouse"
fi
[ -w "$(dirname "$manifest")" ] || die "cannot remove files in $(dirname "$manifest"): that needs root: sudo sh $0${prefix:+ --prefix $prefix}"

# A path install.sh writes: absolute, no . or .. step, and one of its names.
ours() {
	case $1 in
	/*) ;;
	*) return 1 ;;
	esac
	case $1/ in
	*/./* | */../*) return 1 ;;
	esac
	case $1 in
	*/bin/gatehouse | */bin/gatehouse-gateway | */applications/gatehouse.desktop | */icons/hicolor/*/apps/gatehouse.png | \
		*/icons/hicolor/*/apps/gatehouse.svg | */doc/gatehouse/copyright | \
		*/lib/gatehouse/uninstall.sh | */lib/gatehouse/install-manifest) return 0 ;;
	esac
	return 1
}

# Files first, then the folders, deepest first.
appsdir='' hicolor='' dirs=''
while IFS= read -r line; do
	case $line in
	"file "*)
		path=${line#file }
		if ! ours "$path"; then
			printf '%s: skipping "%s": not a file install.sh writes\n' "$me" "$path" >&2
			continue
		fi
		case $path in
		*/applications/gatehouse.desktop) appsdir=${path%/gatehouse.desktop} ;;
		*/icons/hicolor/*) hicolor=${path%/icons/hicolor/*}/icons/hicolor ;;
		esac
		# The manifest too: this loop reads it through its open file.
		rm -f "$path"
		;;
	"dir "*)
		dirs="$dirs${line#dir }
"
		;;
	esac
done <"$manifest"

# Desktops watch these folders; the caches are refreshed where they exist.
if [ -n "$appsdir" ] && [ -f "$appsdir/mimeinfo.cache" ] && command -v update-desktop-database >/dev/null 2>&1; then
	update-desktop-database -q "$appsdir" || printf '%s: note: update-desktop-database %s failed\n' "$me" "$appsdir" >&2
fi
if [ -n "$hicolor" ] && [ -d "$hicolor" ]; then
	touch "$hicolor"
	if [ -f "$hicolor/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null 2>&1; then
		gtk-update-icon-cache -q -t -f "$hicolor" || printf '%s: note: gtk-update-icon-cache %s failed\n' "$me" "$hicolor" >&2
	fi
fi

printf '%s' "$dirs" | sort -r | while IFS= read -r dir; do
	case $dir in
	/*) rmdir "$dir" 2>/dev/null || true ;;
	esac
done

echo "Gatehouse is removed. Your data is kept: your servers, conversations and settings in ~/.config/gatehouse (or the --data-dir you chose)."
