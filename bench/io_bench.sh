#!/usr/bin/env bash
# xferbench io side by side with fio, on the same files and settings (issue 3, item 7):
#  (a) sequential write and read, 1 MiB IOs, 4 threads, O_DIRECT, SEQ_SIZE files per thread, looped
#      for SEQ_SECONDS (psync, fio's default engine): throughput ratio xferbench / fio (target >= 0.97);
#  (b) 4 KiB random read, io_uring, queue depth 32, one thread, RAND_SECONDS per run: IOPS ratio
#      (target >= 1.0) and CPU time per IO of each (xferbench's cpu_per_io; fio's
#      (usr_cpu + sys_cpu) x job_runtime / total_ios).
# fio and xferbench run alternately ROUNDS times (fio first in odd rounds, xferbench first in even
# ones; a sync and a second's pause before every run); medians and per-round ratios are compared,
# which is fairer on a small, noisy machine than one run each. Needs no python: fio's JSON and
# xferbench's are read with awk (both print one key per line).
#
#   bash bench/io_bench.sh                          # builds build/release, files under /var/tmp
#   XB=build/x/src/xferbench DIR=/mnt/nvme ROUNDS=5 bash bench/io_bench.sh
#   SMOKE=1 XB=… bash bench/io_bench.sh        # CI: one round of 1 s runs over 8M files, no pauses
# A figure of either side that is missing, zero or unparsable ends the script with exit 1 (bench_lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/bench_lib.sh

if [[ ${SMOKE:-0} == 1 ]]; then
  : "${ROUNDS:=1}" "${SEQ_SIZE:=8M}" "${SEQ_SECONDS:=1}" "${RAND_SECONDS:=1}"
fi

ROUNDS=${ROUNDS:-3}
SEQ_SIZE=${SEQ_SIZE:-256M}
SEQ_SECONDS=${SEQ_SECONDS:-5}
RAND_SECONDS=${RAND_SECONDS:-5}
BASE=${DIR:-/var/tmp}

need_tool fio fio
if [[ -z "${XB:-}" ]]; then
  bash scripts/setup.sh
  cmake --preset release >/dev/null
  cmake --build --preset release --target xferbench >/dev/null
  XB=build/release/src/xferbench
fi

work=$(mktemp -d "$BASE/xferbench-io-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
out="$work/out.json"

# fio_get SECTION KEY FILE: the first "KEY" : value after the line opening "SECTION" : { (the first
# job's; runs use group_reporting, so it is the group's).
fio_get() {
  awk -v sec="\"$1\" : {" -v key="\"$2\" :" '
    index($0, sec) { in_sec = 1 }
    in_sec && index($0, key) { v = $0; sub(/.*: */, "", v); sub(/,$/, "", v); print v; exit }' "$3"
}
# Before every run: what the previous one left in flight or dirty goes to the drive first.
# SMOKE=1: no pause (CI runs no sleeps; its figures are checked, not compared).
settle() { sync; [[ ${SMOKE:-0} == 1 ]] || sleep 1; }

# The same files for both: xferbench's -D names (xferbench-io.N), fio's $jobnum counts from 0.
fio_seq() {  # fio_seq read|write
  fio --name=seq --directory="$work" --filename_format='xferbench-io.$jobnum' --rw="$1" --bs=1M \
    --size="$SEQ_SIZE" --numjobs=4 --direct=1 --ioengine=psync --group_reporting --time_based --runtime="$SEQ_SECONDS" \
    --output-format=json --output="$out" >/dev/null
  fio_get "$1" bw_bytes "$out"
}
xb_seq() {  # xb_seq read|write
  "$XB" io -D "$work" -w 4 --rw "$1" -s "$SEQ_SIZE" -i 1M --engine psync -T "$SEQ_SECONDS" --format json --output "$out" --quiet
  awk -v b="$(xb_shown "$out" bytes)" -v t="$(xb_shown "$out" wall_time)" 'BEGIN { printf "%.0f", b / t }'
}
fio_rand() {  # prints: IOPS CPU-us-per-IO
  fio --name=rand --filename="$work/xferbench-io.0" --rw=randread --bs=4k --size="$SEQ_SIZE" --direct=1 \
    --ioengine=io_uring --iodepth=32 --fixedbufs --registerfiles --time_based --runtime="$RAND_SECONDS" \
    --output-format=json --output="$out" >/dev/null
  local iops usr sys ms ios
  iops=$(fio_get read iops "$out"); ios=$(fio_get read total_ios "$out")
  usr=$(awk '/"usr_cpu" :/ { v = $0; sub(/.*: */, "", v); sub(/,$/, "", v); print v; exit }' "$out")
  sys=$(awk '/"sys_cpu" :/ { v = $0; sub(/.*: */, "", v); sub(/,$/, "", v); print v; exit }' "$out")
  ms=$(awk '/"job_runtime" :/ { v = $0; sub(/.*: */, "", v); sub(/,$/, "", v); print v; exit }' "$out")
  awk -v i="$iops" -v u="$usr" -v s="$sys" -v ms="$ms" -v n="$ios" \
    'BEGIN { printf "%.0f %.3f\n", i, (u + s) / 100 * ms / 1000 / n * 1e6 }'
}
xb_rand() {
  "$XB" io -D "$work" -w 1 --rw randread -s "$SEQ_SIZE" -i 4K --engine io_uring --qd 32 -T "$RAND_SECONDS" \
    --format json --output "$out" --quiet
  echo "$(xb_shown "$out" iops | awk '{ printf "%.0f", $1 }') $(xb_shown "$out" cpu_per_io | awk '{ printf "%.3f", $1 }')"
}

echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# files in $work ($(df --output=source,fstype "$BASE" | tail -1 | xargs)); $(fio --version); $("$XB" --version 2>/dev/null || echo xferbench)"
echo "# rounds $ROUNDS; seq: $SEQ_SIZE files per thread x 4, ${SEQ_SECONDS}s per run; randread ${RAND_SECONDS}s per run"

# The files first, with xferbench (it also leaves the record a --verify read needs).
"$XB" io -D "$work" -w 4 --rw write -s "$SEQ_SIZE" -i 1M --engine psync --quiet >/dev/null

declare -A s
for r in $(seq "$ROUNDS"); do
  for rw in write read; do
    # ABBA: the tool that runs second in one round runs first in the next, so neither always
    # inherits the other's after-effects (a drive still flushing, a throttle's spent budget).
    if (( r % 2 )); then settle; f=$(fio_seq $rw); settle; x=$(xb_seq $rw)
    else settle; x=$(xb_seq $rw); settle; f=$(fio_seq $rw); fi
    f=$(need_figure "fio $rw" "$f"); x=$(need_figure "xferbench io $rw" "$x")
    s[fio_$rw]+="$f "; s[xb_$rw]+="$x "; s[pair_$rw]+="$(ratio "$x" "$f") "
  done
  if (( r % 2 )); then settle; read -r fi fc < <(fio_rand); settle; read -r xi xc < <(xb_rand)
  else settle; read -r xi xc < <(xb_rand); settle; read -r fi fc < <(fio_rand); fi
  fi=$(need_figure "fio randread IOPS" "$fi"); fc=$(need_figure "fio CPU per IO" "$fc")
  xi=$(need_figure "xferbench randread IOPS" "$xi"); xc=$(need_figure "xferbench CPU per IO" "$xc")
  s[fio_iops]+="$fi "; s[fio_cpu]+="$fc "; s[xb_iops]+="$xi "; s[xb_cpu]+="$xc "
  s[pair_iops]+="$(ratio "$xi" "$fi") "; s[pair_cpu]+="$(ratio "$xc" "$fc") "
done

med() { tr ' ' '\n' <<<"${s[$1]}" | grep . | median; }
mib() { awk -v v="$1" 'BEGIN { printf "%.1f", v / 1048576 }'; }
# Two ratios: of the medians, and the median of each round's xferbench/fio (runs next to each other
# in time share the machine's state; the second is the steadier on a noisy machine).
row() {  # row LABEL KEY FIO XB UNIT TARGET
  printf '%-34s %10s %-5s %10s %-5s %8s %8s  %s\n' "$1" "$3" "$5" "$4" "$5" "$(ratio "$4" "$3")" "$(med "pair_$2")" "$6"
}
printf '%-34s %16s %16s %8s %8s  %s\n' "case" "fio (median)" "xferbench" "ratio" "paired" "target"
for rw in write read; do
  row "seq $rw 1M x 4 threads O_DIRECT" "$rw" "$(mib "$(med fio_$rw)")" "$(mib "$(med xb_$rw)")" MiB/s ">= 0.97"
done
row "randread 4K io_uring qd32 1 thread" iops "$(med fio_iops)" "$(med xb_iops)" IO/s ">= 1.0"
row "  CPU time per IO (usr+sys)" cpu "$(med fio_cpu)" "$(med xb_cpu)" us "<= 1.0"
echo "# every run (fio / xferbench), in order:"
for k in write read iops cpu; do echo "#   $k: fio ${s[fio_$k]}/ xb ${s[xb_$k]}"; done
