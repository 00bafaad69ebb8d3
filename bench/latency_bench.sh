#!/usr/bin/env bash
# Latency as ucx_perftest reports it, side by side (issue 43, item 4): `xferbench link --pingpong`
# (a put whose last byte carries the round's number, answered by the peer's put of the same bytes;
# half the round trip) against `ucx_perftest -t ucp_put_lat` (the same ping-pong of puts) and
# `-t tag_lat` (a send answered by a send), at each of SIZES, the same UCX_TLS for both tools.
# Both run as two processes on loopback (our `link --listen` server and `link --peer` client),
# each side spinning on its own byte, with ITERS timed rounds after WARM untimed ones; each tool's
# figure is its mean (ours: half_rtt_avg from the JSON; perftest: the "average" latency column).
# Each pair runs ROUNDS times alternately (ABBA); medians and per-round ratios are printed.
# ratio = our half round trip / the peer's latency: 1.10 or less is the target (below 1 is ours
# faster, a finding to explain). Neither tool flushes inside a round.
#
#   bash bench/latency_bench.sh                               # builds build/release
#   BUILD=build/release ROUNDS=4 SIZES="8 4096" bash bench/latency_bench.sh
#   SMOKE=1 BUILD=build/release bash bench/latency_bench.sh   # CI: every figure there, not their size
# A figure of either side that is missing, zero or unparsable ends the script with exit 1 naming it.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/bench_lib.sh

if [[ ${SMOKE:-0} == 1 ]]; then
  : "${ROUNDS:=1}" "${ITERS:=200}" "${WARM:=20}" "${SIZES:=8 4096}"
fi
ROUNDS=${ROUNDS:-4}
ITERS=${ITERS:-20000}
WARM=${WARM:-2000}
SIZES=${SIZES:-8 64 512 4096 32768 65536}
TLS=${TLS:-posix,sysv,cma,self}
PORT=${PORT:-13457}
# Each side on a core of its own, the same for both tools (both spin: unpinned, they migrate and
# share a core now and then, which is most of the noise on a small machine).
if (($(nproc) >= 2)); then SERVER_CPU=(taskset -c 1) CLIENT_CPU=(taskset -c 0); else SERVER_CPU=() CLIENT_CPU=(); fi

need_tool ucx_perftest ucx-utils
xb_build xferbench
XB=$BUILD/src/xferbench
work=$(mktemp -d /tmp/xferbench-latency-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

# wait_listening PORT PID: until something listens on TCP PORT (polled, never a fixed sleep); exit
# 1 when PID ended first or 10 s passed.
wait_listening() {
  local n=0
  until ss -Hltn "sport = :$1" | grep -q .; do
    ((n++ < 500)) && kill -0 "$2" 2>/dev/null || { echo "bench: nothing listens on port $1" >&2; exit 1; }
    sleep 0.02
  done
}

# perftest TEST SIZE: the peer's mean latency in microseconds.
perftest() {
  UCX_TLS=$TLS "${SERVER_CPU[@]}" ucx_perftest -t "$1" -p "$PORT" >"$work/perftest-server.txt" 2>&1 &
  local server=$!
  wait_listening "$PORT" "$server"
  UCX_TLS=$TLS "${CLIENT_CPU[@]}" ucx_perftest 127.0.0.1 -t "$1" -p "$PORT" -s "$2" -n "$ITERS" -w "$WARM" -f >"$work/perftest.txt" 2>&1 ||
    { kill "$server" 2>/dev/null; echo "bench: ucx_perftest -t $1 -s $2 failed: $(tail -c 300 "$work/perftest.txt")" >&2; exit 1; }
  wait "$server" || true
  # -f: one line of 8 numbers, iterations first, then the latency's 50th percentile and mean (usec).
  awk 'NF == 8 && $1 ~ /^[0-9]+$/ { v = $3 } END { print v }' "$work/perftest.txt"
}

# ours SIZE: half_rtt_avg of `link --pingpong` over UCX, in microseconds.
ours() {
  rm -f "$work/ready"
  UCX_TLS=$TLS "${SERVER_CPU[@]}" "$XB" link --listen 127.0.0.1:0 --ready-file "$work/ready" --transport ucx -q >"$work/server.txt" 2>&1 &
  local server=$! n=0
  until [[ -s $work/ready ]]; do
    ((n++ < 500)) && kill -0 "$server" 2>/dev/null || { echo "bench: link --listen did not start: $(cat "$work/server.txt")" >&2; exit 1; }
    sleep 0.02
  done
  UCX_TLS=$TLS "${CLIENT_CPU[@]}" "$XB" link --peer "$(awk '/control/ { print $2 }' "$work/ready")" --transport ucx --pingpong -s "$1" \
    -i "$ITERS" -x "$WARM" --format json -q >"$work/ours.json" ||
    { kill "$server" 2>/dev/null; echo "bench: link --pingpong -s $1 failed" >&2; exit 1; }
  wait "$server" || true
  awk -v s="$(xb_metric "$work/ours.json" half_rtt_avg)" 'BEGIN { printf "%.4f", s * 1e6 }'
}

echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# $(ucx_info -v | head -1 | sed 's/# //'); UCX_TLS=$TLS; $ITERS rounds after $WARM; $ROUNDS pair(s) each (ABBA); server ${SERVER_CPU[*]:-unpinned}, client ${CLIENT_CPU[*]:-unpinned}"
declare -A s
pair() {  # pair KEY ROUND PEER-TEST SIZE
  local key=$1 r=$2 test=$3 size=$4 p m
  if ((r % 2)); then p=$(perftest "$test" "$size"); m=$(ours "$size"); else m=$(ours "$size"); p=$(perftest "$test" "$size"); fi
  p=$(need_figure "$key: ucx_perftest -t $test's latency" "$p")
  m=$(need_figure "$key: our half_rtt_avg" "$m")
  s[peer_$key]+="$p "; s[ours_$key]+="$m "; s[pair_$key]+="$(ratio "$m" "$p") "
}
for r in $(seq "$ROUNDS"); do
  for size in $SIZES; do
    pair "put_$size" "$r" ucp_put_lat "$size"
    pair "tag_$size" "$r" tag_lat "$size"
  done
done
printf '%-12s %14s %14s %8s  %s\n' case "peer(us)" "ours(us)" ratio "rounds (ours/peer): peer, ours"
for size in $SIZES; do
  for kind in put tag; do
    key=${kind}_$size
    peer=$(tr ' ' '\n' <<<"${s[peer_$key]}" | grep . | median)
    mine=$(tr ' ' '\n' <<<"${s[ours_$key]}" | grep . | median)
    printf '%-12s %14s %14s %8s  %s\n' "$key" "$peer" "$mine" "$(ratio "$mine" "$peer")" "${s[pair_$key]}: ${s[peer_$key]}, ${s[ours_$key]}"
  done
done
