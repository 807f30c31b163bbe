#!/usr/bin/env bash
# Checks, and as root installs, what building and testing Gatehouse needs.
#
#   scripts/deps.sh run    build and run the app
#   scripts/deps.sh package  the above plus what `make package` needs
#   scripts/deps.sh test   all of the above plus what `make test` needs
#
# Go and Node are not installed here (Debian 12's are too old); they must be on PATH.
# Missing Debian packages are installed with apt-get when run as root; otherwise the
# exact command is printed and the script fails. When everything is present it only
# reads the dpkg database, so it is cheap to run before every build.
set -euo pipefail

# Build: make, cgo (gcc, libc6-dev, pkg-config) against GTK 3 and WebKitGTK 4.1 (Debian
# 12 has no 4.0, hence the webkit2_41 build tag). Run: xdg-open, which Wails uses to open
# a URL in the system browser after the user consents. ca-certificates and git: the Go
# module download and VCS stamping of the binary. fonts-noto-color-emoji: emoji in server
# and model text would otherwise show as empty boxes (the .deb recommends it too).
run_pkgs=(ca-certificates git make gcc libc6-dev pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev xdg-utils
	fonts-noto-color-emoji)
# Package: dpkg-deb and dpkg-shlibdeps (dpkg-dev) build the .deb and derive its library
# dependencies; desktop-file-validate (desktop-file-utils) checks the menu entry, before
# packaging and again once installed (tests/package).
package_pkgs=(dpkg-dev desktop-file-utils)
# Test: a virtual X server (xvfb-run needs xauth, only a Recommends of xvfb), xdotool and
# ImageMagick to find and screenshot the real window (x11-utils' xwininfo for its stacking
# order), Chromium for Playwright (never
# downloaded by Playwright), a D-Bus session bus (single instance, notifications), a
# notification daemon, a CJK font, without which the Chinese screenshots show boxes, and
# shellcheck for the tarball's install.sh and uninstall.sh (tests/package/tarball.sh), and
# gdb to trace the production window's WebKit set-up (tests/window/bridge_test.go).
test_pkgs=(xvfb xauth xdotool imagemagick x11-utils chromium dbus dunst fonts-noto-cjk shellcheck gdb)

case "${1:-}" in
run) pkgs=("${run_pkgs[@]}") ;;
package) pkgs=("${run_pkgs[@]}" "${package_pkgs[@]}") ;;
test) pkgs=("${run_pkgs[@]}" "${package_pkgs[@]}" "${test_pkgs[@]}") ;;
*)
	echo "usage: $0 run|package|test" >&2
	exit 2
	;;
esac

fail=0

need_tool() { # name, minimum major version, version command, how to get it
	local name=$1 min=$2 cmd=$3 hint=$4 version major
	if ! command -v "$name" >/dev/null 2>&1; then
		echo "deps: $name not found on PATH. $hint" >&2
		fail=1
		return
	fi
	version=$($cmd 2>/dev/null || true)
	major=$(grep -oE '[0-9]+\.[0-9]+' <<<"$version" | head -n 1)
	if [[ -n $min && -n $major ]] && ! printf '%s\n%s\n' "$min" "$major" | sort -C -V; then
		echo "deps: $name $major is too old, $min or newer is needed. $hint" >&2
		fail=1
	fi
}
need_tool go 1.26 'go env GOVERSION' "Install Go 1.26 from https://go.dev/dl/ (e.g. to /usr/local/go) and add its bin directory to PATH."
need_tool node 20.19 'node --version' "Install Node.js 20.19 or newer (e.g. from https://nodejs.org or the NodeSource apt repository)."
need_tool npm '' 'npm --version' "npm comes with Node.js; install Node.js 20.19 or newer."

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "deps: not a Debian-based system, cannot check packages. Install the equivalents of: ${pkgs[*]}" >&2
	exit "$fail"
fi

missing=()
for p in "${pkgs[@]}"; do
	# "ii " means installed; anything else (absent, half-installed, removed) counts as missing.
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	[[ $status == "ii "* ]] || missing+=("$p")
done

if ((${#missing[@]})); then
	if ((EUID == 0)); then
		echo "deps: installing ${missing[*]}"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -q
		apt-get install -y -q --no-install-recommends -o Dpkg::Use-Pty=0 "${missing[@]}"
	else
		echo "deps: missing Debian packages. Install them with:" >&2
		echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
		fail=1
	fi
fi

exit "$fail"
