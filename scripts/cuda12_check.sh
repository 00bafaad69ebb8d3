#!/usr/bin/env bash
# The CUDA module's host sources compiled against CUDA 12 runtimes' headers, as NVIDIA publishes
# them on PyPI (nvidia-cuda-runtime-cu12): 12.0 (the oldest the module builds with, no batch API),
# 12.8 (the batch API's first, 9-argument form) and 12.9 (the last 12.x). The CUDA 13 build is the
# main build's (nvcc 13 in /usr/local/cuda). Compile only: PyPI's CUDA 12 compiler wheels carry no
# nvcc driver, so the two .cu kernels and the module's link need a CUDA 12 toolkit (docs/cuda.md).
# Run by .ci/run, not by the README's commands.
#   bash scripts/cuda12_check.sh [CACHE_DIR]   (default build/cuda12; wheels downloaded once)
# Exit 0 when every source compiles against every version, 1 naming each that does not.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${1:-build/cuda12}
versions=(12.0.107 12.8.90 12.9.79)
mkdir -p "$cache"
# pip only downloads here (nothing is installed into Python): Debian's python3-pip is enough.
python3 -m pip --version >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3-pip >/dev/null; }
for v in "${versions[@]}"; do
  inc="$cache/$v/nvidia/cuda_runtime/include"
  [ -f "$inc/cuda_runtime_api.h" ] && continue
  python3 -m pip download --quiet --no-deps --dest "$cache" "nvidia-cuda-runtime-cu12==$v"
  wheel=$(ls "$cache"/nvidia_cuda_runtime_cu12-"$v"-*.whl)
  rm -rf "$cache/$v" && mkdir -p "$cache/$v"
  python3 -m zipfile -e "$wheel" "$cache/$v"
  [ -f "$inc/cuda_runtime_api.h" ] || { echo "cuda12_check: $wheel has no cuda_runtime_api.h" >&2; exit 1; }
done
failed=0
checked=0
for v in "${versions[@]}"; do
  inc="$cache/$v/nvidia/cuda_runtime/include"
  for src in src/backends/cuda/*.cpp; do
    checked=$((checked + 1))
    if ! out=$(g++ -std=c++20 -Wall -Wextra -Werror -c -o /dev/null -Isrc -isystem "$inc" "$src" 2>&1); then
      echo "cuda12_check: $src does not compile against CUDA $v's headers:"
      printf '%s\n' "$out" | grep -E 'error' | head -5
      failed=$((failed + 1))
    fi
  done
done
if [ "$failed" -gt 0 ]; then
  echo "cuda12_check: $failed of $checked compiles failed"
  exit 1
fi
echo "cuda12_check: the CUDA module's $((checked / ${#versions[@]})) host sources compile against CUDA ${versions[*]}"
