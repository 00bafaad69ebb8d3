#!/usr/bin/env bash
# Installs the Debian packages xferbench builds and tests with, when any is missing (Debian 12, root).
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libcli11-dev libfmt-dev nlohmann-json3-dev libnuma-dev libhwloc-dev libgtest-dev
  liburing-dev libaio-dev
  libssl-dev  # libcrypto: HMAC-SHA-256 and random nonces for the control handshake
  clang libclang-rt-14-dev  # libFuzzer: the fuzz targets of tests/fuzz
  libucx-dev ucx-utils iperf3
  iproute2  # ip and tc: the tests make network namespaces, and slow one link for fleet
  openmpi-bin libopenmpi-dev  # p2p --mpi and fleet: ranks launched and lined up by Open MPI
  libyaml-cpp-dev  # expectation files (issue 17): YAML or JSON, each node with its line for errors
  chromium  # the report test opens the HTML page in headless chromium (runs without recommends)
  python3  # scripts/gpu_check.sh works out its ratios with it (its dry run is a test)
  python3-jsonschema  # ctest validates every command's JSON against schemas/ (issue 18 item 4)
  python3-pil  # the report test counts the colours inside each plot of a headless-chromium screenshot
  help2man  # man pages from the program's --help (packaging/); dpkg-dev (build-essential): cpack's .deb
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to install packages: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
