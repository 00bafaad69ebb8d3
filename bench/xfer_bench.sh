#!/usr/bin/env bash
# Transfers between two endpoints on loopback side by side with the tools users compare against
# (issue 4, item 7), the same UCX_TLS on both sides of each comparison:
#  (a) UCX shared memory (UCX_TLS=posix,sysv,cma,self): our UCX transport's put and get against
#      ucx_perftest ucp_put_bw / ucp_get at 1 MiB and 8 MiB (target ratio >= 0.95);
#  (b) tcp (UCX_TLS=tcp): our UCX transport's put with active messages (the automatic choice over
#      tcp; XFERBENCH_UCX_PROTOCOL=am) against iperf3 with one stream (target >= 0.9); UCX's own
#      emulated one-sided put (XFERBENCH_UCX_PROTOCOL=rma) is measured beside it for the record;
#  (c) tcp: `xferbench xfer --transport tcp` (the plain TCP transport, no UCX) against iperf3 with
#      one stream at 1 MiB and 8 MiB blocks (target >= 0.97), so every ratio comes from one run.
# iperf3 writes what ours writes: -l our block (at most its 1 MiB limit), -n the bytes of our timed pass.
# Ours is `xferbench xfer server|client` (h2h, --block SIZE, --total BYTES_PER_RUN, --no-latency:
# the throughput figure of its timed pass). Fairness: the same bytes per transfer and per run;
# perftest reuses one buffer of SIZE bytes on each side while xfer moves through a region of
# BYTES_PER_RUN (so xfer also pays cache misses perftest does not); both run client and server as
# two processes. OURS=transport runs bench/ucx_transport_bench instead (one buffer per side reused
# like perftest's, allocated by the transport as perftest's and xfer's are, a flush every WINDOW
# transfers), the transport alone.
# Each pair runs alternately ROUNDS times (ABBA: the peer tool first in odd rounds); medians and
# per-round ratios are printed. SAME_BUFFER=1 makes xfer reuse one block as the peer tools do. WARMUP=1 (the default) runs every case once, untimed, first: the
# first runs on a machine pay page-cache, shm-segment and CPU-frequency warm-up that the later
# rounds do not.
#
#   bash bench/xfer_bench.sh                                   # builds build/release
#   BUILD=build/helper-ucx ROUNDS=6 bash bench/xfer_bench.sh    # an existing build directory
#   BYTES_PER_RUN=67108864 ROUNDS=2 …                           # quick (a busy machine)
#   SMOKE=1 BUILD=build/release bash bench/xfer_bench.sh        # CI: every figure there, not their size
# Our figures are read from xfer's JSON by name (bench_lib.sh); a figure of either side that is
# missing, zero or unparsable ends the script with exit 1 naming it, never a ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/bench_lib.sh

if [[ ${SMOKE:-0} == 1 ]]; then
  : "${ROUNDS:=1}" "${WARMUP:=0}" "${BYTES_PER_RUN:=16777216}"
fi
ROUNDS=${ROUNDS:-4}
SHM_TLS=posix,sysv,cma,self
PORT=${PORT:-13447}
WINDOW=${WINDOW:-64}
BYTES_PER_RUN=${BYTES_PER_RUN:-2147483648}  # moved per run by each shared-memory/tcp transfer test

need_tool ucx_perftest ucx-utils
need_tool iperf3 iperf3
xb_build ucx_transport_bench xferbench
BENCH=$BUILD/bench/ucx_transport_bench
XB=$BUILD/src/xferbench
work=$(mktemp -d /tmp/xferbench-xfer-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

iters_for() { awk -v s="$1" -v b="$BYTES_PER_RUN" 'BEGIN { n = int(b / s); print (n < 8 ? 8 : n) }'; }

# perftest TEST TLS SIZE: MiB/s (perftest's "MB/s" is 2^20 bytes per second), overall figure.
perftest() {
  local iters; iters=$(iters_for "$3")
  UCX_TLS=$2 ucx_perftest -t "$1" -p "$PORT" >"$work/server.log" 2>&1 &
  local server=$!
  sleep 0.5
  UCX_TLS=$2 ucx_perftest 127.0.0.1 -t "$1" -p "$PORT" -s "$3" -n "$iters" -w $((iters / 10)) -f 2>"$work/client.err" \
    | awk 'NF == 8 && $1 ~ /^[0-9]+$/ { v = $6 } END { print v }'
  wait "$server" || true
}
# ours OP TLS PROTOCOL SIZE [TRANSPORT]: MiB/s of `xferbench xfer` (client and server, h2h, one
# block size, BYTES_PER_RUN moved, no latency pass) over TRANSPORT (ucx unless given: tcp is the
# plain TCP transport, which ignores TLS and PROTOCOL); OURS=transport runs
# bench/ucx_transport_bench instead (UCX only).
ours() {
  local transport=${5:-ucx}
  [[ ${OURS:-xfer} == transport && $transport == ucx ]] && { ours_transport "$@"; return; }
  local xop=write; [[ $1 == get ]] && xop=read
  rm -f "$work/ready"
  UCX_TLS=$2 XFERBENCH_UCX_PROTOCOL=$3 "$XB" xfer server --listen 127.0.0.1:0 --ready-file "$work/ready" \
    --transport "$transport" -q >"$work/xfer-server.txt" 2>&1 &
  local server=$! n=0
  while [[ ! -s $work/ready ]] && (( n++ < 200 )); do sleep 0.05; done
  # SAME_BUFFER=1: one block of memory reused for every transfer, as perftest and iperf3 reuse
  # theirs (--total = one block, BYTES_PER_RUN / block timed passes), so both move the same
  # working set; otherwise each pass moves a BYTES_PER_RUN region (xfer's own method).
  local -a amount=(--total "$BYTES_PER_RUN")
  [[ ${SAME_BUFFER:-0} == 1 ]] && amount=(--total "$4" --iters "$(iters_for "$4")" --warmup 10)
  UCX_TLS=$2 XFERBENCH_UCX_PROTOCOL=$3 "$XB" xfer client --peer "$(awk '/control/ { print $2 }' "$work/ready")" \
    --transport "$transport" --op "$xop" --block "$4" "${amount[@]}" --no-latency --format json -q \
    >"$work/ours.json"
  wait "$server" || true
  if [[ $transport == ucx ]]; then
    echo "xfer $xop $4 B ucx UCX_TLS=$2: XFERBENCH_UCX_PROTOCOL=${3:-auto}" >>"$work/lines.txt"
  else
    echo "xfer $xop $4 B $transport: --transport $transport" >>"$work/lines.txt"
  fi
  # throughput is B/s in the JSON.
  awk -v b="$(xb_metric "$work/ours.json" throughput)" 'BEGIN { printf "%.1f", b / 1048576 }'
}
ours_transport() {
  local iters; iters=$(iters_for "$4")
  UCX_TLS=$2 XFERBENCH_UCX_PROTOCOL=$3 "$BENCH" "$1" "$4" "$iters" $((iters / 10)) "$WINDOW" >"$work/ours.txt"
  echo "$(head -1 "$work/ours.txt")" >>"$work/lines.txt"
  sed -n 's/.*: \([0-9.]*\) MiB\/s.*/\1/p' "$work/ours.txt"
}
# iperf3 with one stream, writes of BLOCK bytes (-l, our block up to iperf3's 1 MiB) and
# BYTES_PER_RUN bytes in all (-n, what our timed pass moves): MiB/s received.
iperf() {
  iperf3_server "$PORT" "$work/iperf3-server.txt"
  iperf3_client "$PORT" "$work/iperf.txt" -P 1 -l "$(iperf3_write_size "$1")" -n "$BYTES_PER_RUN" -f m
  wait "$IPERF3_SERVER" || true
  awk '/receiver/ { for (i = 1; i < NF; ++i) if ($(i + 1) == "Mbits/sec") v = $i } END { printf "%.1f", v * 1e6 / 8 / 1048576 }' "$work/iperf.txt"
}

echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# $(ucx_info -v | head -1 | sed 's/# //'); $(iperf3 --version | head -1); rounds $ROUNDS (ABBA), window $WINDOW"

declare -A s
pair() {  # pair KEY PEER-COMMAND... -- OURS-COMMAND...
  local key=$1 r=$2; shift 2
  local -a peer=() mine=()
  while [[ $1 != -- ]]; do peer+=("$1"); shift; done; shift
  mine=("$@")
  local p m
  if (( r % 2 )); then p=$("${peer[@]}"); m=$("${mine[@]}"); else m=$("${mine[@]}"); p=$("${peer[@]}"); fi
  p=$(need_figure "$key: the peer's figure (${peer[*]})" "$p")
  m=$(need_figure "$key: our figure" "$m")
  s[peer_$key]+="$p "; s[ours_$key]+="$m "; s[pair_$key]+="$(ratio "$m" "$p") "
}

cases=(put_1M put_8M get_1M get_8M tcp_am tcp_rma tcp_1M tcp_8M)
round() {
  pair put_1M "$1" perftest ucp_put_bw $SHM_TLS 1048576 -- ours put $SHM_TLS "" 1048576
  pair put_8M "$1" perftest ucp_put_bw $SHM_TLS 8388608 -- ours put $SHM_TLS "" 8388608
  pair get_1M "$1" perftest ucp_get $SHM_TLS 1048576 -- ours get $SHM_TLS "" 1048576
  pair get_8M "$1" perftest ucp_get $SHM_TLS 8388608 -- ours get $SHM_TLS "" 8388608
  pair tcp_am "$1" iperf 8388608 -- ours put tcp am 8388608
  pair tcp_rma "$1" iperf 8388608 -- ours put tcp rma 8388608
  pair tcp_1M "$1" iperf 1048576 -- ours put "" "" 1048576 tcp
  pair tcp_8M "$1" iperf 8388608 -- ours put "" "" 8388608 tcp
}
if [[ ${WARMUP:-1} == 1 ]]; then
  round 1 >/dev/null
  for k in "${!s[@]}"; do s[$k]=""; done  # the warm-up pass counts for nothing
  : >"$work/lines.txt"
fi
for r in $(seq "$ROUNDS"); do round "$r"; done

med() { tr ' ' '\n' <<<"${s[$1]}" | grep . | median; }
label() {
  case $1 in
    put_1M) echo "put 1 MiB shm  vs ucp_put_bw" ;; put_8M) echo "put 8 MiB shm  vs ucp_put_bw" ;;
    get_1M) echo "get 1 MiB shm  vs ucp_get" ;; get_8M) echo "get 8 MiB shm  vs ucp_get" ;;
    tcp_am) echo "put 8 MiB tcp am  vs iperf3 -l 1M" ;; tcp_rma) echo "put 8 MiB tcp rma vs iperf3 -l 1M" ;;
    tcp_1M) echo "put 1 MiB --transport tcp vs iperf3 -l 1M" ;; tcp_8M) echo "put 8 MiB --transport tcp vs iperf3 -l 1M" ;;
  esac
}
target() { case $1 in tcp_1M | tcp_8M) echo ">= 0.97" ;; tcp_am) echo ">= 0.9" ;; tcp_rma) echo "(record)" ;; *) echo ">= 0.95" ;; esac; }
printf '%-34s %12s %12s %8s %8s  %s\n' "case (MiB/s)" "peer (median)" "ours" "ratio" "paired" "target"
for c in "${cases[@]}"; do
  printf '%-34s %12s %12s %8s %8s  %s\n' "$(label $c)" "$(med peer_$c)" "$(med ours_$c)" \
    "$(ratio "$(med ours_$c)" "$(med peer_$c)")" "$(med pair_$c)" "$(target $c)"
done
echo "# per-round ratios (ours / peer), in order:"
for c in "${cases[@]}"; do printf '#   %-10s %s\n' "$c" "${s[pair_$c]}"; done
echo "# what our runs used (last of each kind):"
sort -u -t: -k1,1 "$work/lines.txt" | sed 's/^/#   /'
