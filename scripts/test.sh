#!/usr/bin/env bash
# The whole test suite: set up, build, run ctest. With `sanitize`, the same suite under ASan + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
bash scripts/setup.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
ctest --preset "$preset" -j2
