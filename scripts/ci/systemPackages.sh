#!/usr/bin/env bash
# Installs, in one apt transaction, the Debian packages the tests need: the union of every list under
# scripts/ci/apt/ (one package per line, `#` comments). Only as root with apt-get; a package already installed
# is skipped, so a warm machine spends no time here.
set -euo pipefail
cd "$(dirname "$0")"
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "systemPackages.sh: not root or no apt-get; tests that need system packages will skip locally" >&2
  exit 0
fi
wanted=$(sed -e 's/#.*//' apt/*.txt | tr -s ' \t' '\n\n' | sed '/^$/d' | sort -u)
missing=()
for pkg in $wanted; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "systemPackages.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
