#!/usr/bin/env bash
# install-debian-deps.sh - installs those of the named Debian packages that are
# not installed yet; silent and without apt-get when none is missing.
#   usage: tools/install-debian-deps.sh PACKAGE...
set -euo pipefail

missing=()
for pkg in "$@"; do
    # one line per installed architecture of a multi-arch package
    dpkg-query -W -f='${db:Status-Status}\n' "$pkg" 2>/dev/null | grep -x installed >/dev/null || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null; then
        echo "install-debian-deps: missing ${missing[*]}; run as root or install sudo" >&2
        exit 1
    fi
    sudo=(sudo)
fi
echo "install-debian-deps: installing ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
