#!/usr/bin/env bash
# Installs what kestrel needs to build and test on Debian 12, from Debian's packages.
set -euo pipefail
packages=(g++ cmake ninja-build libcli11-dev libeigen3-dev nlohmann-json3-dev doctest-dev libfast-float-dev liblbfgspp-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
