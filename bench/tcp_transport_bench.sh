#!/usr/bin/env bash
# The TCP transport's put stream against iperf3 -P1 on loopback (issue 4, items 3 and 7): one
# stream each, 1, 2, 4 and 8 MiB blocks, iperf3's writes (-l) the size of ours
# up to its 1 MiB limit. iperf3 and tcp_transport_bench run alternately ROUNDS
# times (iperf3 first in odd rounds, the bench first in even ones); the medians of each are
# compared as a ratio (target >= 0.9). Figures are Gbit/s of payload (10^9 bits/s), as iperf3's
# receiver-side bits_per_second. Needs no python: iperf3's JSON is read with awk.
#
#   bash bench/tcp_transport_bench.sh                         # builds build/release
#   BENCH=build/x/bench/tcp_transport_bench SECONDS_PER_RUN=3 ROUNDS=5 bash bench/tcp_transport_bench.sh
#   SMOKE=1 BENCH=… bash bench/tcp_transport_bench.sh     # CI: one 1 s round at 1 MiB
# A figure of either side that is missing, zero or unparsable ends the script with exit 1 (bench_lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/bench_lib.sh

if [[ ${SMOKE:-0} == 1 ]]; then
  : "${ROUNDS:=1}" "${SECONDS_PER_RUN:=1}" "${BLOCKS:=1048576}"
fi

ROUNDS=${ROUNDS:-3}
SECS=${SECONDS_PER_RUN:-5}
PORT=${PORT:-5299}
BLOCKS=${BLOCKS:-"1048576 2097152 4194304 8388608"}

if [[ -z "${BENCH:-}" ]]; then
  bash scripts/setup.sh
  cmake --preset release >/dev/null
  cmake --build --preset release --target tcp_transport_bench >/dev/null
  BENCH=build/release/bench/tcp_transport_bench
fi

need_tool iperf3 iperf3

work=$(mktemp -d /tmp/xferbench-tcp-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
# One iperf3 run (server for exactly one test, client for SECS seconds, writes of BLOCK bytes as
# ours): receiver Gbit/s.
iperf_gbit() {
  iperf3_server "$PORT" "$work/iperf3-server.txt"
  iperf3_client "$PORT" "$work/iperf3.json" -t "$SECS" -l "$(iperf3_write_size "$1")" -J
  wait "$IPERF3_SERVER" || true
  local json
  json=$(<"$work/iperf3.json")
  # The "sum_received" object's bits_per_second (the end summary: payload the receiver got).
  awk '/"sum_received"/ { s = 1 } s && /"bits_per_second"/ { v = $0; sub(/.*: */, "", v); sub(/,$/, "", v); printf "%.3f\n", v / 1e9; exit }' <<<"$json"
}
bench_gbit() { "$BENCH" --block "$1" --seconds "$SECS" | sed 's/.*gbit_per_s=//'; }

echo "# $(date -u +%FT%TZ) $(nproc) CPUs, $(uname -r), iperf3 $(iperf3 --version | awk 'NR==1 { print $2 }'), ${SECS} s per run, ${ROUNDS} rounds"
printf '%-10s %12s %12s %8s\n' block iperf3_gbit xb_tcp_gbit ratio
for block in $BLOCKS; do
  iperf=() xb=()
  for ((round = 1; round <= ROUNDS; round++)); do
    if ((round % 2)); then
      iperf+=("$(iperf_gbit "$block")"); xb+=("$(bench_gbit "$block")")
    else
      xb+=("$(bench_gbit "$block")"); iperf+=("$(iperf_gbit "$block")")
    fi
  done
  for v in "${iperf[@]}"; do need_figure "iperf3 at $block B" "$v" >/dev/null; done
  for v in "${xb[@]}"; do need_figure "tcp_transport_bench at $block B" "$v" >/dev/null; done
  i=$(printf '%s\n' "${iperf[@]}" | median)
  x=$(printf '%s\n' "${xb[@]}" | median)
  r=$(ratio "$x" "$i")
  printf '%-10s %12.3f %12.3f %8.3f   (iperf3: %s; xferbench: %s)\n' "$block" "$i" "$x" "$r" "${iperf[*]}" "${xb[*]}"
done
