#!/usr/bin/env bash
# The GPU check (issue 6, item 7): every copy case on the CUDA backend with its data verified, io
# CPU_GPU on a local file, the dialects that reach a GPU, and H2D / D2H / D2D bandwidth next to
# PyTorch's own copies of the same bytes in the same run, printed as ratios.
#
# Two halves, because the GPU machine has CUDA, CMake and PyTorch but none of the Debian libraries
# xferbench links (fmt, UCX, liburing, ...) and no network to fetch them:
#   bash scripts/gpu_check.sh bundle   here: build (release, with the CUDA module; BUILD=DIR to reuse
#                                      a build directory) and gather the
#                                      binary, the module and the shared libraries into
#                                      build/gpu-bundle (a few MiB)
#   bash scripts/gpu_check.sh run      on the GPU machine, from the repository root with
#                                      build/gpu-bundle carried along: runs everything, writes the
#                                      logs, JSON and ratios.txt to $OUT (or ./gpu-check-out)
# Every line of the report says PASS, FAIL, or a figure; the exit code is the number of FAILs.
set -uo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
bundle=build/gpu-bundle

make_bundle() {
  set -e
  # BUILD=DIR reuses a configured build directory (any optimized build type) instead of build/gpu.
  local build="${BUILD:-build/gpu}"
  [ -f "$build/build.ninja" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DXB_BUILD_TESTS=OFF >/dev/null
  ninja -C "$build" xferbench xferbench_backend_cuda
  rm -rf "$bundle"
  mkdir -p "$bundle/bin/modules" "$bundle/lib"
  strip -o "$bundle/bin/xferbench" "$build/src/xferbench"
  strip -o "$bundle/bin/modules/libxferbench-backend-cuda.so" "$build/src/modules/libxferbench-backend-cuda.so"
  for link in dev-sandbox gdsio; do ln -s xferbench "$bundle/bin/$link"; done
  # Every shared library but the C and C++ runtimes, which the GPU machine has (newer).
  ldd "$build/src/xferbench" "$build/src/modules/libxferbench-backend-cuda.so" | awk '/=> \//{print $3}' | sort -u |
    grep -Ev '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux-x86-64)\.so' |
    while read -r lib; do cp -L "$lib" "$bundle/lib/"; done
  # UCX loads its transports from <dir of libucs>/ucx.
  if [ -d /usr/lib/x86_64-linux-gnu/ucx ]; then
    mkdir -p "$bundle/lib/ucx"
    cp -L /usr/lib/x86_64-linux-gnu/ucx/*.so.0 "$bundle/lib/ucx/"
    for f in "$bundle"/lib/ucx/*.so.0; do ln -sf "$(basename "$f")" "${f%.0}"; done
    # Their own dependencies (libibverbs, librdmacm, ...) where the UCX modules have them.
    ldd /usr/lib/x86_64-linux-gnu/ucx/*.so.0 | awk '/=> \//{print $3}' | sort -u |
      grep -Ev '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux-x86-64)\.so' |
      while read -r lib; do [ -e "$bundle/lib/$(basename "$lib")" ] || cp -L "$lib" "$bundle/lib/"; done
  fi
  du -sh "$bundle"
}

fails=0
report() { echo "$*" | tee -a "$out/report.txt"; }
# check NAME EXPECTED_RC COMMAND...: runs it (3 minutes at most), logs it, PASS or FAIL by exit code.
check() {
  local name="$1" want="$2"; shift 2
  local log="$out/logs/$name.log"
  { echo "\$ $*"; } >"$log"
  timeout 180 "$@" >>"$log" 2>&1
  local rc=$?
  # "fail": any clean failure (an exit code, not a signal or the timeout).
  if [ "$rc" = "$want" ] || { [ "$want" = fail ] && [ "$rc" -ne 0 ] && [ "$rc" -lt 124 ]; }; then report "PASS $name"; else report "FAIL $name (exit $rc, want $want; $log)"; fails=$((fails + 1)); fi
}

run_checks() {
  out="${OUT:-$PWD/gpu-check-out}"
  mkdir -p "$out/logs"
  : >"$out/report.txt"
  export LD_LIBRARY_PATH="$PWD/$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export XFERBENCH_MODULE_PATH="$PWD/$bundle/bin/modules"
  local xb="$PWD/$bundle/bin/xferbench"
  work=$(mktemp -d "$PWD/.gpu-work.XXXXXX")  # global: the EXIT trap runs after this function
  trap 'rm -rf "$work"' EXIT
  # O_DIRECT where the filesystem has it (a tmpfs or overlay may not): else buffered IO, said so.
  local io_mode=() kinds=(pageable shm odirect)
  if ! dd if=/dev/zero of="$work/probe" bs=4096 count=1 oflag=direct 2>/dev/null; then
    io_mode=(--buffered); kinds=(pageable shm)
    report "NOTE no O_DIRECT on $(df -T "$work" | awk 'NR==2{print $2}') here: io runs buffered, the odirect kind is skipped"
  fi
  rm -f "$work/probe"
  # The bundle's libraries are for xferbench: PyTorch and nvidia-smi get the machine's own.
  local host_env=(env -u LD_LIBRARY_PATH)
  { date -u; "${host_env[@]}" nvidia-smi --query-gpu=name,driver_version,memory.total,pci.bus_id --format=csv; "${host_env[@]}" nvidia-smi -L; uname -r; } \
    >"$out/env.txt" 2>&1
  local driver
  driver=$("${host_env[@]}" nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
  report "machine: $("${host_env[@]}" nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), driver $driver, $(date -u +%F)"
  # The module links the CUDA 13 runtime, which needs an R580 driver or newer: an older one fails
  # every CUDA check with cudaErrorInsufficientDriver, and this says why once.
  [ -n "$driver" ] && [ "${driver%%.*}" -lt 580 ] 2>/dev/null &&
    report "NOTE driver $driver is older than R580, which the CUDA 13 runtime needs: expect cudaErrorInsufficientDriver"
  # io_uring may be refused here (a container's seccomp profile): then the io checks use libaio.
  local io_engine=io_uring
  if ! "$xb" io -D "$work" --rw write -s 64K -i 4K --engine io_uring "${io_mode[@]}" -q >/dev/null 2>&1; then
    io_engine=libaio
    report "NOTE io_uring is refused here: the io checks use libaio"
  fi
  rm -f "$work"/xferbench-io.*

  check devices 0 "$xb" devices
  grep -q "backend cuda" "$out/logs/devices.log" && grep -q "cuda::device::0" "$out/logs/devices.log" ||
    { report "FAIL devices-lists-cuda"; fails=$((fails + 1)); }

  # Correctness: every engine x direction, with every destination byte checked; odd sizes reach
  # the sm kernel's byte tail and misaligned blocks.
  local dirs=("pinned device" "device pinned" "device device")
  for engine in ce batch sm; do
    for d in "${dirs[@]}"; do
      set -- $d
      check "verify-$engine-$1-$2" 0 "$xb" copy --backend cuda --engine "$engine" --from "$1" --to "$2" -s 4M -n 8 -i 2 --warmup 1 --verify -q
      check "verify-odd-$engine-$1-$2" 0 "$xb" copy --backend cuda --engine "$engine" --from "$1" --to "$2" -s 1000003 -n 3 -i 2 --warmup 1 --verify -q
    done
  done
  for kind in "${kinds[@]}"; do
    check "verify-ce-$kind-device" 0 "$xb" copy --backend cuda --from "$kind" --to device -s 4M -n 4 -i 2 --warmup 1 --verify --odirect-dir "$work" -q
    check "verify-ce-device-$kind" 0 "$xb" copy --backend cuda --from device --to "$kind" -s 4M -n 4 -i 2 --warmup 1 --verify --odirect-dir "$work" -q
  done
  for path in api graph; do
    XFERBENCH_CUDA_BATCH=$path check "verify-batch-$path-fragments" 0 "$xb" copy --backend cuda --batch -f 16 -s 4M -n 8 -i 2 --warmup 1 --verify -q
  done
  check sm-refuses-pageable fail "$xb" copy --backend cuda --engine sm --from pageable --to device -s 4M -n 2 -i 1 -q
  check dev-sandbox-sdma 0 "$PWD/$bundle/bin/dev-sandbox" --model-type gqa --iodirect false --sdma true -s 64M -n 4 -i 8 -d 1 -f 4 --verify
  check dev-sandbox-ce 0 "$PWD/$bundle/bin/dev-sandbox" --model-type gqa --iodirect false --sdma false -s 64M -n 4 -i 8 -d 1 --verify

  # io CPU_GPU on a local file: write, then read back into device memory with every byte checked.
  check io-cpu-gpu-write 0 "$xb" io --xfer cpu-gpu --backend cuda -D "$work" --rw write -s 1G -i 1M --engine "$io_engine" --qd 8 "${io_mode[@]}" --format json -o "$out/io_write.json" -q
  check io-cpu-gpu-read-verify 0 "$xb" io --xfer cpu-gpu --backend cuda -D "$work" --rw read -s 1G -i 1M --engine "$io_engine" --qd 8 "${io_mode[@]}" --verify -q
  check io-cpu-gpu-read 0 "$xb" io --xfer cpu-gpu --backend cuda -D "$work" --rw read -s 1G -i 1M --engine "$io_engine" --qd 8 "${io_mode[@]}" --format json -o "$out/io_read.json" -q
  if [ ${#io_mode[@]} -eq 0 ]; then  # gdsio always uses O_DIRECT
    check gdsio-cpu-gpu 0 "$PWD/$bundle/bin/gdsio" -D "$work" -d 0 -w 1 -s 1G -i 1M -x 2 -I 0
  fi
  rm -f "$work"/xferbench-io.*

  # GPUD through cuFile, which the module loads at run time: from the toolkit or from the
  # nvidia-cufile wheel that PyTorch brings, wherever this machine has it. GDS proper needs the
  # nvidia-fs module; without it cuFile runs in compat mode and the result says which.
  local cufile
  cufile=$({ ldconfig -p 2>/dev/null | awk '/libcufile\.so\.0 /{print $NF}'; \
             ls /usr/local/cuda*/lib64/libcufile.so.0 /usr/local/cuda*/targets/*/lib/libcufile.so.0 2>/dev/null; \
             env -u LD_LIBRARY_PATH python3 -c 'import nvidia.cufile, os; print(os.path.join(list(nvidia.cufile.__path__)[0], "lib", "libcufile.so.0"))' 2>/dev/null; } |
           while read -r f; do [ -e "$f" ] && { echo "$f"; break; }; done)
  if [ -n "$cufile" ]; then
    report "NOTE cuFile: $cufile; nvidia-fs $( [ -e /proc/driver/nvidia-fs ] && echo loaded || echo 'not loaded (compat mode)')"
    local gpud_env=(env "LD_LIBRARY_PATH=$(dirname "$cufile"):$LD_LIBRARY_PATH")
    check io-gpud-write 0 "${gpud_env[@]}" "$xb" io --xfer gpu-direct --backend cuda -D "$work" --rw write -s 1G -i 1M -w 4 "${io_mode[@]}" --format json -o "$out/io_gpud_write.json" -q
    check io-gpud-read-verify 0 "${gpud_env[@]}" "$xb" io --xfer gpu-direct --backend cuda -D "$work" --rw randread -s 1G -i 1M -w 4 "${io_mode[@]}" --verify -q
    check io-gpud-read 0 "${gpud_env[@]}" "$xb" io --xfer gpu-direct --backend cuda -D "$work" --rw read -s 1G -i 1M -w 4 "${io_mode[@]}" --format json -o "$out/io_gpud_read.json" -q
    [ ${#io_mode[@]} -eq 0 ] && check gdsio-gpud 0 "${gpud_env[@]}" "$PWD/$bundle/bin/gdsio" -D "$work" -d 0 -w 4 -s 1G -i 1M -x 0 -I 0
  else
    report "NOTE no libcufile on this machine: GPUD is not measured, and must say why (exit 3)"
    check io-gpud-unavailable 3 "$xb" io --xfer gpu-direct --backend cuda -D "$work" --rw write -s 64M -i 1M "${io_mode[@]}" -q
  fi
  rm -f "$work"/xferbench-io.*

  # P2P where there are two GPUs: one pair both ways with the data checked, then the matrix.
  if [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 2 ]; then
    check p2p-verify 0 "$xb" p2p --backend cuda --ds 0 --dd 1 --direction both -s 64M --et 5 --verify
    check p2p-matrix 0 "$xb" p2p --backend cuda --all-pairs --direction both -s 256M --et 20 --format json -o "$out/p2p.json"
  else
    report "NOTE one GPU: P2P not measured"
  fi

  # Transfers with GPU memory on one side (staged through pinned memory by the endpoint).
  check link-host-cuda-tcp 0 "$xb" link --transport tcp -M host:cuda -s 4K:8M -i 20 -x 5 --check
  check link-cuda-cuda-ucx 0 "$xb" link -M cuda:cuda -s 4K:8M -i 20 -x 5 --check

  # Bandwidth: xferbench and PyTorch on the same bytes (16 blocks of 64 MiB), same run.
  local common=(-s 64M -n 16 -i 20 --warmup 3 --format json -q)
  for d in "pinned device h2d" "device pinned d2h" "device device d2d"; do
    set -- $d
    for cfg in "ce 1" "ce 4" "batch 4" "sm 1"; do
      set -- $1 $2 $3 $cfg
      timeout 180 "$xb" copy --backend cuda -d 1 --from "$1" --to "$2" --engine "$4" --streams "$5" "${common[@]}" \
        -o "$out/xb_${3}_${4}_s${5}.json" 2>>"$out/logs/bandwidth.log" || { report "FAIL bandwidth $3 $4 x$5"; fails=$((fails + 1)); }
    done
  done
  PYTHONUNBUFFERED=1 timeout 300 "${host_env[@]}" python3 bench/gpu_torch_copy.py --size $((64 << 20)) --blocks 16 --iterations 20 --warmup 3 \
    >"$out/torch.json" 2>"$out/logs/torch.log" || { report "FAIL torch reference (see logs/torch.log)"; fails=$((fails + 1)); }
  python3 - "$out" <<'PY' | tee -a "$out/report.txt"
import glob, json, os, sys
out = sys.argv[1]
try:
    torch = json.load(open(os.path.join(out, "torch.json")))
except Exception as e:
    print(f"no torch figures: {e}"); sys.exit(0)
print(f"torch {torch['torch']} on {torch['device']}: h2d {torch['h2d']:.2f} GB/s, d2h {torch['d2h']:.2f} GB/s, d2d {torch['d2d']:.2f} GB/s")
best_d2d = torch["d2d"]
rows = []
for f in sorted(glob.glob(os.path.join(out, "xb_*.json"))):
    _, direction, engine, streams = os.path.basename(f)[:-5].split("_")
    case = json.load(open(f))["cases"][0]
    gbs = next(m["value"] for m in case["metrics"] if m["name"] == "bandwidth_decimal")
    rows.append((direction, engine, streams, gbs))
    if direction == "d2d": best_d2d = max(best_d2d, gbs)
for direction, engine, streams, gbs in rows:
    ref = torch[direction]
    line = f"{direction} {engine} {streams}: xferbench {gbs:.2f} GB/s, torch {ref:.2f} GB/s, ratio {gbs / ref:.3f}"
    if direction == "d2d":
        line += f"; of the copy ceiling {best_d2d:.2f} GB/s (best of all d2d here): {gbs / best_d2d:.3f}"
    print(line)
for direction in ("h2d", "d2h"):
    ce = [g for d, e, s, g in rows if d == direction and e == "ce"]
    if ce:
        r = max(ce) / torch[direction]
        print(f"TARGET ce 64 MiB {direction} >= 0.98 of torch: {r:.3f} {'MET' if r >= 0.98 else 'MISSED'}")
d2d = [g for d, e, s, g in rows if d == "d2d"]
if d2d:
    r = max(g for d, e, s, g in rows if d == "d2d" and e in ("ce", "batch")) / best_d2d
    print(f"TARGET ce d2d >= 0.9 of the copy ceiling: {r:.3f} {'MET' if r >= 0.9 else 'MISSED'}")
PY
  for f in "$out"/io_*.json; do
    [ -e "$f" ] && python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['cases'][0]; print('io', c['name'], *[f\"{m['name']}={m['value']:.2f} {m['unit']}\" for m in c['metrics'] if m['name'] in ('throughput','iops')], c['config'].get('direct_storage_mode', ''))" "$f" | tee -a "$out/report.txt"
  done
  report "fails: $fails"
  tar -C "$out" -czf "$out/logs.tgz" logs && rm -rf "$out/logs"
  return "$fails"
}

case "$mode" in
  bundle) make_bundle ;;
  run) run_checks ;;
  *) echo "usage: bash scripts/gpu_check.sh bundle|run" >&2; exit 2 ;;
esac
