#!/usr/bin/env bash
# The NPU check (issue 13): every acl case with its data verified on the real CANN runtime, then the
# seeds' figures (dev-sandbox GQA CE 16K x 512, ascend-dmi p2p 512 MiB x 40) beside `npu-smi info`
# and, where the machine has it, the vendor's own ascend-dmi on the same bytes (printed as a ratio).
#
#   bash scripts/npu_check.sh bundle   here: build the binary and the acl module (release; BUILD=DIR
#                                      to reuse a build directory) and gather them with the shared
#                                      libraries into build/npu-bundle. The bundle is for this
#                                      machine's architecture: on an aarch64 Atlas server, build
#                                      there instead (bash scripts/setup.sh, then NPU_CHECK_BINARY).
#   bash scripts/npu_check.sh run      on the Ascend machine, CANN's set_env.sh sourced, from the
#                                      repository root: writes report.txt and logs/ into $OUT
#                                      (default ./npu-check-out)
# NPU_CHECK_BINARY runs another xferbench (a build of the machine's own); NPU_CHECK_QUICK=1 shrinks
# the seed figures' sizes (the suite's dry run against the stand-in runtime uses it). report.txt
# has one line per check (PASS, FAIL or SKIPPED with why), the figures, and what this script could
# not check. The exit code is the number of FAILs.
set -uo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
bundle=$(realpath -m "${NPU_CHECK_BUNDLE:-build/npu-bundle}")

make_bundle() {
  set -e
  local build="${BUILD:-build/npu}"
  [ -f "$build/build.ninja" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DXB_BUILD_TESTS=OFF >/dev/null
  ninja -C "$build" xferbench xferbench_backend_acl
  rm -rf "$bundle"
  mkdir -p "$bundle/bin/modules" "$bundle/lib"
  strip -o "$bundle/bin/xferbench" "$build/src/xferbench"
  strip -o "$bundle/bin/modules/libxferbench-backend-acl.so" "$build/src/modules/libxferbench-backend-acl.so"
  ldd "$build/src/xferbench" "$build/src/modules/libxferbench-backend-acl.so" | awk '/=> \//{print $3}' | sort -u |
    grep -Ev '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux-[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$bundle/lib/"; done
  du -sh "$bundle"
}

run_checks() {
  local out xb devices=0 fails=0 n
  out=$(realpath -m "${OUT:-./npu-check-out}")
  mkdir -p "$out/logs"
  : >"$out/report.txt"
  xb="${NPU_CHECK_BINARY:-$bundle/bin/xferbench}"
  [ -d "$bundle/lib" ] && export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  report() { echo "$*"; echo "$*" >>"$out/report.txt"; }
  # check NAME CMD...: PASS when CMD exits 0 within 300 s, its output in logs/NAME.log.
  check() {
    local name="$1"; shift
    if timeout -k 5 300 "$@" >"$out/logs/$name.log" 2>&1 </dev/null; then
      report "PASS $name"
    else
      report "FAIL $name (exit $?): $(tail -n 2 "$out/logs/$name.log" | tr '\n' ' ')"
      fails=$((fails + 1))
    fi
  }
  report "npu check $(date -u +%FT%TZ) on $(uname -n) ($(uname -m)), xferbench $xb"
  if command -v npu-smi >/dev/null; then
    npu-smi info >"$out/logs/npu-smi.log" 2>&1 || true
    report "npu-smi info: logs/npu-smi.log"
  else
    report "SKIPPED npu-smi (not on PATH): no vendor inventory to set beside the devices"
  fi
  check devices "$xb" devices --format json
  devices=$(grep -o '"acl::device::[0-9]*"' "$out/logs/devices.log" | sort -u | wc -l)
  if [ "$devices" -eq 0 ]; then
    report "FAIL acl: no NPU found: $(grep -o 'backend acl[^"]*' "$out/logs/devices.log" | head -1)"
    report "fails: $((fails + 1))"
    return $((fails + 1))
  fi
  report "acl devices: $devices"
  local pair dir from to engine
  for pair in host:device device:host pageable:device device:device shm:device; do
    from=${pair%%:*} to=${pair##*:}
    for engine in ce batch; do
      check "copy-$from-$to-$engine" "$xb" copy --backend acl --from "$from" --to "$to" --engine "$engine" --batch \
        -s 4M -n 8 -i 8 --warmup 2 --verify -q
    done
  done
  local model iod sdma
  for model in gqa mla; do for iod in true false; do for sdma in true false; do
    check "dev-sandbox-$model-iodirect-$iod-sdma-$sdma" "$xb" dev-sandbox --model-type "$model" --iodirect "$iod" \
      --sdma "$sdma" -s 1M -n 8 -i 8 -d "$devices" -f 4 --verify
  done; done; done
  if [ "$devices" -ge 2 ]; then
    check p2p-one-way "$xb" p2p --backend acl -s 16M --times 8 --verify -q
    check p2p-both-ways "$xb" p2p --backend acl -s 16M --times 8 --bidirectional --verify -q
    check p2p-matrix "$xb" p2p --backend acl -s 16M --times 4 --all-pairs --verify -q
  else
    report "SKIPPED p2p (one NPU)"
  fi
  local scratch
  scratch=$(mktemp -d "${TMPDIR:-/var/tmp}/npu-check.XXXXXX")
  mkdir -p "$scratch/io" "$scratch/kv"
  check io-cpu-gpu-write "$xb" io -D "$scratch/io" --xfer cpu-gpu --backend acl --rw write -s 64M -i 1M --keep -q
  check io-cpu-gpu-read "$xb" io -D "$scratch/io" --xfer cpu-gpu --backend acl --rw read -s 64M -i 1M --verify -q
  check kv-dump "$xb" kv dump --store "$scratch/kv" -n 64 --block 2M -q
  check kv-load-device "$xb" kv load --store "$scratch/kv" -n 64 --block 2M --to device --backend acl --verify -q
  rm -rf "$scratch"

  # The seeds' figures (docs/acl.md): the same commands as the seeds, sizes as the seeds say.
  local gqa_s=16K gqa_n=512 gqa_i=128 dmi_s=536870912 dmi_et=40
  [ "${NPU_CHECK_QUICK:-0}" = 1 ] && gqa_n=64 gqa_i=8 dmi_s=16777216 dmi_et=4
  check seed-dev-sandbox-gqa-ce "$xb" dev-sandbox --model-type gqa --iodirect false --sdma false -s "$gqa_s" \
    -n "$gqa_n" -i "$gqa_i" -d "$devices"
  report "  $(grep -E '[0-9]\.[0-9]+ *$' "$out/logs/seed-dev-sandbox-gqa-ce.log" | tail -n 1)"
  if [ "$devices" -ge 2 ]; then
    check seed-ascend-dmi-p2p "$xb" ascend-dmi --bw -t p2p --ds 0 --dd 1 -s "$dmi_s" --et "$dmi_et"
    report "  $(tail -n 3 "$out/logs/seed-ascend-dmi-p2p.log" | tr '\n' ' ')"
    # The vendor's own tool on the same bytes, where it is installed (not our dialect link).
    local vendor=''
    for v in /usr/local/Ascend/toolbox/latest/Ascend-DMI/bin/ascend-dmi "$(command -v ascend-dmi 2>/dev/null)"; do
      [ -x "$v" ] && [ "$(readlink -f "$v")" != "$(readlink -f "$xb")" ] && vendor=$v && break
    done
    if [ -n "$vendor" ]; then
      check vendor-ascend-dmi-p2p "$vendor" --bw -t p2p --ds 0 --dd 1 -s "$dmi_s" --et "$dmi_et"
      report "  vendor: $(tail -n 3 "$out/logs/vendor-ascend-dmi-p2p.log" | tr '\n' ' ')"
    else
      report "SKIPPED vendor ascend-dmi (not installed): no side-by-side ratio for p2p"
    fi
    # -m card where cards have two dies (devices says "die": 1) and there are two cards: the card's
    # figure, about twice the device figure above on the seed's documented cards.
    if grep -q '"die": *1' "$out/logs/devices.log" && [ "$devices" -ge 4 ]; then
      check seed-ascend-dmi-p2p-card "$xb" ascend-dmi --bw -t p2p --ds 0 --dd 1 -m card -s "$dmi_s" --et "$dmi_et"
      report "  $(tail -n 3 "$out/logs/seed-ascend-dmi-p2p-card.log" | tr '\n' ' ')"
    else
      report "SKIPPED ascend-dmi -m card (no two cards of two dies here)"
    fi
  fi
  report "not checked here: HIXL d2d write" \
    "1-8 MiB (xferbench's transports cannot reach NPU memory yet), GPUD-like direct storage (none on Ascend)"
  report "fails: $fails"
  return "$fails"
}

case "$mode" in
  bundle) make_bundle ;;
  run) run_checks ;;
  *) echo "usage: bash scripts/npu_check.sh bundle|run" >&2; exit 2 ;;
esac
