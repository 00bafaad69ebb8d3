#!/usr/bin/env bash
# Two builds of xferbench side by side on the same work (a refactor's "no path got slower"): each
# case runs alternately with the BEFORE and the AFTER binary, ROUNDS times, and the medians of one
# figure of its JSON result are printed with their ratio (after / before; 1 = unchanged; for a
# bandwidth below 1 is slower after, for a latency above 1 is). Absolute figures depend on the (noisy) machine: run it quiet (uptime < 1) and
# record the output in docs/ with the command.
#
#   BEFORE=/tmp/wt-before/build/src/xferbench AFTER=build/release/src/xferbench bash bench/before_after.sh
#   ROUNDS=7 …
#   ONLY=p2p …   only the cases whose label matches this extended regular expression
#
# A case is "label#metric#arguments[#server arguments][#launcher]": with server arguments, that
# side's binary is started first as the server (`--listen 127.0.0.1:0 --ready-file` added) and the
# client's arguments get `--peer` its control address (each side against its own server: the
# control protocol changed between versions); a launcher ("mpirun … -n 2") runs the binary under it.
#   SMOKE=1 AFTER=build/release/src/xferbench …   CI: one round of every case at a few iterations,
#                BEFORE the same binary unless given: every figure read, not its size
# A figure of either side that is missing, zero or unparsable ends the script with exit 1 naming
# it (bench_lib.sh), never a ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/bench_lib.sh
AFTER=${AFTER:-build/release/src/xferbench}
if [[ ${SMOKE:-0} == 1 ]]; then : "${BEFORE:=$AFTER}" "${ROUNDS:=1}"; fi
: "${BEFORE:?BEFORE=path to the xferbench built from the earlier commit}"
ROUNDS=${ROUNDS:-5}
need_tool jq jq
ONLY=${ONLY:-}
for b in "$BEFORE" "$AFTER"; do [[ -x $b ]] || { echo "before_after.sh: $b is not an executable" >&2; exit 2; }; done
tmp=$(mktemp -d /tmp/xferbench-before-after.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# run_side BINARY ARGS SERVER_ARGS LAUNCHER: one run's JSON into $tmp/out.json.
run_side() {
  local bin=$1 args=$2 server_args=$3 launcher=$4 peer=() pid=
  if [[ -n $server_args ]]; then
    rm -f "$tmp/ready"
    # shellcheck disable=SC2086  # the arguments are words
    "$bin" $server_args --listen 127.0.0.1:0 --ready-file "$tmp/ready" -q --format json >/dev/null &
    pid=$!
    for ((w = 0; w < 100; w++)); do [[ -s $tmp/ready ]] && break; sleep 0.05; done
    peer=(--peer "$(awk '$1 == "control" {print $2}' "$tmp/ready")")
  fi
  # shellcheck disable=SC2086
  $launcher "$bin" $args "${peer[@]}" --format json -q >"$tmp/out.json"
  [[ -z $pid ]] || wait "$pid"
}

# label # metric (a jq filter on the result) # arguments
cases=(
  "copy h2d pinned 16K x 512, 2 devices (submit-bound)#.cases[0].metrics[] | select(.name==\"bandwidth\") | (.display_value // .value)#copy --from pinned --to device -s 16K -n 512 -i 200 -d 2"
  "copy h2h 64M x 4, 1 device (bandwidth)#.cases[0].metrics[] | select(.name==\"bandwidth\") | (.display_value // .value)#copy --from pinned --to pinned -s 64M -n 4 -i 20 -d 1"
  "copy d2d 1M x 64, 2 devices, 4 streams#.cases[0].metrics[] | select(.name==\"bandwidth\") | (.display_value // .value)#copy --from device --to device -s 1M -n 64 -i 50 -d 2 --streams 4"
  "p2p 0->1 4K x 2000 (enqueue-bound)#.cases[0].metrics[] | select(.name==\"bandwidth\") | (.display_value // .value)#p2p --src 0 --dst 1 -s 4K --times 2000"
  "p2p 0<->1 4K x 2000 bidirectional (enqueue-bound)#.cases[0].metrics[] | select(.name==\"bandwidth\") | (.display_value // .value)#p2p --src 0 --dst 1 -s 4K --times 2000 --direction bi"
  "p2p 0->1 64M x 10 (bandwidth)#.cases[0].metrics[] | select(.name==\"bandwidth\") | (.display_value // .value)#p2p --src 0 --dst 1 -s 64M --times 10"
  "link loopback ucx 8 B put+flush latency (us; lower is better)#.cases[0].metrics[] | select(.name==\"latency_avg\") | (.display_value // .value)#link --loopback --transport ucx -s 8 -i 20000"
  "link loopback tcp 64K put+flush latency (us; lower is better)#.cases[0].metrics[] | select(.name==\"latency_avg\") | (.display_value // .value)#link --loopback --transport tcp -s 64K -i 2000"
  "xfer ucx h2h write 1M x 64, 20 passes (GiB/s, median pass)#.cases[0].metrics[] | select(.name==\"throughput_median\") | (.display_value // .value)#xfer client --transport ucx --block 1M --total 64M --iters 20 --no-latency#xfer server --transport ucx"
  "xfer tcp h2h write 1M x 64, 20 passes (GiB/s, median pass)#.cases[0].metrics[] | select(.name==\"throughput_median\") | (.display_value // .value)#xfer client --transport tcp --block 1M --total 64M --iters 20 --no-latency#xfer server --transport tcp"
  "xfer ucx h2h write 4K x 4096, 5 passes (GiB/s, median pass)#.cases[0].metrics[] | select(.name==\"throughput_median\") | (.display_value // .value)#xfer client --transport ucx --block 4K --total 16M --iters 5 --no-latency#xfer server --transport ucx"
  "fleet 2 ranks tcp 8M x 20 (GB/s, the link's p50)#.cases[0].metrics[] | select(.name==\"bandwidth_p50\") | (.display_value // .value)#fleet -s 8M --times 20 --transport tcp --threshold 0##mpirun --allow-run-as-root -n 2"
  "fleet 2 ranks ucx 64K x 200 (GB/s, the link's p50)#.cases[0].metrics[] | select(.name==\"bandwidth_p50\") | (.display_value // .value)#fleet -s 64K --times 200 --transport ucx --threshold 0##mpirun --allow-run-as-root -n 2"
)
echo "# $(date -u +%FT%TZ) $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg), $ROUNDS rounds, before=$BEFORE after=$AFTER"
printf '%-50s %14s %14s %8s\n' case before after ratio
for c in "${cases[@]}"; do
  IFS='#' read -r label metric args server_args launcher <<<"$c"
  # Smoke: the same cases at a few iterations each (the counts of -i, --times and --iters).
  [[ ${SMOKE:-0} != 1 ]] || args=$(sed -E 's/(^| )(-i|--times|--iters) [0-9]+/\1\2 2/g' <<<"$args")
  [[ -z $ONLY ]] || grep -qE -- "$ONLY" <<<"$label" || continue
  : >"$tmp/before"; : >"$tmp/after"
  for ((r = 0; r < ROUNDS; r++)); do
    for side in before after; do
      bin=$BEFORE; [[ $side == after ]] && bin=$AFTER
      run_side "$bin" "$args" "$server_args" "$launcher"
      need_figure "$side: $label" "$(jq -r "$metric" "$tmp/out.json")" >>"$tmp/$side"
      echo >>"$tmp/$side"
    done
  done
  b=$(median <"$tmp/before"); a=$(median <"$tmp/after")
  printf '%-50s %14.3f %14.3f %8s\n' "$label" "$b" "$a" "$(ratio "$a" "$b")"
done
