#!/usr/bin/env bash
# The cpu backend's copy path side by side with a plain memcpy loop, then stream scaling and submit
# cost. Prints figures and ratios; absolute figures depend on the (noisy) machine: run it quiet
# (uptime < 1) and record the output in docs/copy.md with the command.
#  1. `copy --from pinned --to device -s 64M -n 4 --streams 1 -d 1` with each engine of the cpu
#     backend against bench/plain_memcpy (a memcpy loop in a process of its own over its own
#     buffers, as a user would write it), the same bytes per iteration and the same statistic
#     (bytes of an iteration / the mean iteration time); ABBA rounds (the reference first in odd
#     rounds), the ratio of the medians (target >= 0.97 for the default engine).
#  2. bandwidth of the same copy with 1, 2 and 4 streams on 8 blocks.
#  3. submit cost per block for 16 KiB x 512 blocks, one by one and in batches.
#
#   bash bench/copy_bench.sh                        # builds build/release
#   BUILD=build/release ROUNDS=11 bash bench/copy_bench.sh
#   SMOKE=1 BUILD=build/release bash …               # CI: every figure there, not their size
# Our figures are read from the copy job's JSON by name (bench_lib.sh); a figure of either side
# that is missing, zero or unparsable ends the script with exit 1 naming it, never a ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/bench_lib.sh

if [[ ${SMOKE:-0} == 1 ]]; then
  : "${ROUNDS:=1}" "${BLOCK:=1M}" "${ITERS:=2}" "${WARMUP:=0}" "${SUBMIT_ITERS:=2}"
fi
ROUNDS=${ROUNDS:-11}
BLOCK=${BLOCK:-64M}
ITERS=${ITERS:-10}
WARMUP=${WARMUP:-2}
SUBMIT_ITERS=${SUBMIT_ITERS:-50}
xb_build xferbench plain_memcpy
XB=$BUILD/src/xferbench
PLAIN=$BUILD/bench/plain_memcpy
for b in "$XB" "$PLAIN"; do [[ -x $b ]] || { echo "copy_bench: $b is not built" >&2; exit 1; }; done
work=$(mktemp -d /tmp/xferbench-copy-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
block_bytes=$(numfmt --from=iec "$BLOCK")

echo "# $(date -u +%FT%TZ) $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
  "load $(cut -d' ' -f1 /proc/loadavg); $ROUNDS rounds"

# ours ENGINE ARGS...: the copy job's bandwidth in B/s (its JSON value), the run's JSON kept.
ours() {
  local engine=$1
  shift
  "$XB" copy --from pinned --to device -d 1 --engine "$engine" "$@" --format json -q >"$work/ours.json"
  need_figure "xferbench copy --engine $engine bandwidth" "$(xb_metric "$work/ours.json" bandwidth)"
}
plain() {
  local out
  out=$("$PLAIN" "$block_bytes" 4 "$ITERS" "$WARMUP")
  need_figure "plain_memcpy bytes_per_s" "$(awk '$1 == "bytes_per_s" { print $2 }' <<<"$out")"
}

# 1. Each engine against the plain loop, ABBA.
engines=$("$XB" devices --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for b in d.get("backends", []):
    if b.get("name") == "cpu": print(" ".join(b.get("engines", [])))')
[[ -n $engines ]] || { echo "copy_bench: the cpu backend lists no engines in devices --format json" >&2; exit 1; }
printf '%-34s %14s %14s %8s\n' "h2d $BLOCK x 4, one stream" "ours(GB/s)" "memcpy(GB/s)" ratio
for engine in $engines; do
  : >"$work/a"; : >"$work/b"; : >"$work/r"
  for ((r = 0; r < ROUNDS; r++)); do
    if ((r % 2)); then p=$(plain); o=$(ours "$engine" -s "$BLOCK" -n 4 --streams 1 -i "$ITERS" --warmup "$WARMUP")
    else o=$(ours "$engine" -s "$BLOCK" -n 4 --streams 1 -i "$ITERS" --warmup "$WARMUP"); p=$(plain); fi
    echo "$o" >>"$work/a"; echo "$p" >>"$work/b"; ratio "$o" "$p" >>"$work/r"; echo >>"$work/r"
  done
  a=$(median <"$work/a"); b=$(median <"$work/b"); rr=$(median <"$work/r")
  printf '%-34s %14.2f %14.2f %8.3f  (per-round ratios %s)\n' "engine $engine" \
    "$(awk -v v="$a" 'BEGIN { print v / 1e9 }')" "$(awk -v v="$b" 'BEGIN { print v / 1e9 }')" "$rr" \
    "$(tr '\n' ' ' <"$work/r" | xargs)"
done

# 2. Stream scaling (the default engine).
for s in 1 2 4; do
  "$XB" copy --from pinned --to device -d 1 -s "$BLOCK" -n 8 --streams "$s" -i "$ITERS" --warmup "$WARMUP" \
    --format json -q >"$work/s.json"
  bw=$(need_figure "copy --streams $s bandwidth" "$(xb_metric "$work/s.json" bandwidth)")
  printf 'h2d %s x 8, %d stream(s): %.2f GB/s\n' "$BLOCK" "$s" "$(awk -v v="$bw" 'BEGIN { print v / 1e9 }')"
done

# 3. Submit cost per block.
for batch in "" --batch; do
  "$XB" copy --from pinned --to device -d 1 -s 16K -n 512 -i "$SUBMIT_ITERS" $batch --format json -q >"$work/b.json"
  sub=$(need_figure "copy $batch submit avg" "$(xb_series "$work/b.json" submit avg)")
  printf 'submit 16K x 512, 4 streams%-8s: %.3f us per block (submit avg %.0f us)\n' "${batch:+, batch}" \
    "$(awk -v v="$sub" 'BEGIN { print v / 512 }')" "$sub"
done
