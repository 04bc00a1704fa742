#!/usr/bin/env bash
# Installs the Debian packages that building, testing and benchmarking Gnomon need.
# Idempotent: asks apt only for what is missing, and runs `apt-get update` at most once.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git xz-utils curl
  libboost1.81-dev libzstd-dev liblz4-dev libxxhash-dev libroaring-dev
  libspdlog-dev libfmt-dev libcli11-dev libtomlplusplus-dev libdragonbox-dev
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  libsqlite3-dev libre2-dev zlib1g-dev libdeflate-dev libssl-dev openssl libjemalloc-dev
  libcctz-dev tzdata
)
# `make fuzz` only (bootstrap.sh --fuzz): clang and its libFuzzer/sanitizer runtimes.
if [ "${1:-}" = "--fuzz" ]; then
  PACKAGES+=(clang libclang-rt-14-dev)
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "bootstrap: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
