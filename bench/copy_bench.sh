#!/usr/bin/env bash
# The cpu backend's copy path side by side with a plain memcpy loop, stream scaling and submit cost.
# Prints ratios; absolute figures depend on the (noisy) machine. Record results in docs/copy.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target copy_bench >/dev/null
echo "# $(date -u +%FT%TZ) $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
./build/release/bench/copy_bench
