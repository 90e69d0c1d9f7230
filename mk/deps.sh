#!/bin/sh
# Install the Debian packages kforge builds and tests with; a no-op when
# they are all present.  Used by "make deps".
set -eu

pkgs="gcc make pkg-config perl jq
libclang-15-dev llvm-15 clang-15
libjansson-dev libcurl4-openssl-dev libssl-dev libcmocka-dev
hipcc mandoc parallel python3 python3-jsonschema chromium"

missing=
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "deps: installing:$missing" >&2
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
# a fresh machine may have never fetched the package lists
$sudo apt-get update -qq || true
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >&2
