#!/usr/bin/env bash
# The main job: set up, build, and run xferbench on its defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release
exec ./build/release/src/xferbench "$@"
