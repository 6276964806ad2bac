#!/bin/sh
# install-deps.sh: install the Debian packages clustersim needs, if missing.
# Says nothing when everything is present; otherwise one line naming the
# packages, before apt-get (as root or via sudo) installs them. Set
# CLUSTERSIM_EXTRA_PACKAGES to add packages (CI adds clang for fuzzing).
# The tests also use procps (pgrep) and time (/usr/bin/time), which a fresh
# Debian 12 lacks.
set -eu

packages="build-essential pkg-config libgsl-dev libjansson-dev libcsv-dev libcmocka-dev gnuplot-nox parallel python3 procps time ${CLUSTERSIM_EXTRA_PACKAGES:-}"

missing=""
for p in $packages; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	exit 0
fi

echo "install-deps: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "install-deps: need root or sudo to install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
