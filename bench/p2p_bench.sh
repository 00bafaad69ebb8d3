#!/usr/bin/env bash
# p2p side by side with its ceilings (issue 5, item 6). Prints figures and ratios; absolute figures
# depend on the (noisy) machine: record them in docs/p2p.md.
#  (a) within a node: the cpu backend's p2p (arena -> arena, unidirectional) against the copy job's
#      cpu device-to-device copy (the host copy ceiling of the same memcpy engine, one stream),
#      the same bytes per execution, alternately ROUNDS times; medians and their ratio.
#  (b) across two network namespaces on a veth pair (a bridge, TESTING.md's recipe): `mpirun -n 2
#      xferbench p2p --mpi --transport tcp` (one rank per namespace, Open MPI's rsh agent entering
#      the namespace) against iperf3 with one stream between the same namespaces; ratio of
#      unidirectional p2p bandwidth to iperf3's. Needs root (namespaces); skipped otherwise.
#  (c) the same two namespaces without MPI: `xferbench p2p --ip PEER --hip SELF --transport tcp`
#      started in each (the two-node mode), against the same iperf3 figures.
#
#   BUILD=build/helper-p2p bash bench/p2p_bench.sh       # an existing build directory
#   SIZE=64M TIMES=20 ROUNDS=3 …                          # bytes per execution, executions, rounds
#   SMOKE=1 BUILD=build/release bash bench/p2p_bench.sh   # CI: one round of 1M, 1 s of iperf3
# A figure of either side that is missing, zero or unparsable ends the script with exit 1 (bench_lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/bench_lib.sh

if [[ ${SMOKE:-0} == 1 ]]; then
  : "${ROUNDS:=1}" "${SIZE:=1M}" "${TIMES:=2}" "${NET_SIZE:=1M}" "${NET_TIMES:=2}" "${IPERF_SECONDS:=1}"
fi
IPERF_SECONDS=${IPERF_SECONDS:-4}

ROUNDS=${ROUNDS:-3}
SIZE=${SIZE:-256M}
TIMES=${TIMES:-10}
NET_SIZE=${NET_SIZE:-16M}
NET_TIMES=${NET_TIMES:-20}
xb_build xferbench
XB=$(realpath "$BUILD/src/xferbench")
work=$(mktemp -d /tmp/xferbench-p2p-bench.XXXXXX)
cleanup() {
  ip netns del xbp2p1 2>/dev/null || true
  ip netns del xbp2p2 2>/dev/null || true
  ip link del xbp2pbr 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The value of metric NAME of case INDEX in a result document on stdin, as its table shows it.
metric() { cat >"$work/doc.json"; xb_shown "$work/doc.json" "$2" "$1"; }

echo "# $(date -u +%FT%TZ) $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "## (a) cpu p2p vs the copy job's cpu d2d copy, $SIZE per execution, $TIMES executions, $ROUNDS rounds"
p2p=() copy=()
for r in $(seq "$ROUNDS"); do
  p2p+=("$(need_figure "p2p (a)" "$("$XB" p2p --backend cpu -s "$SIZE" --times "$TIMES" --format json -q | metric 0 bandwidth_gib)")")
  copy+=("$(need_figure "copy d2d (a)" "$("$XB" copy --backend cpu --from device --to device -d 1 -s "$SIZE" -n 1 --streams 1 -i "$TIMES" --format json -q | metric 0 bandwidth)")")
  echo "round $r: p2p ${p2p[-1]} GiB/s, copy d2d ${copy[-1]} GiB/s"
done
mp=$(printf '%s\n' "${p2p[@]}" | median)
mc=$(printf '%s\n' "${copy[@]}" | median)
r=$(ratio "$mp" "$mc")
echo "median: p2p $mp GiB/s, copy d2d $mc GiB/s, ratio $r"

if [[ $(id -u) -ne 0 ]]; then
  echo "## (b) and (c) skipped: network namespaces need root"
  exit 0
fi
need_tool mpirun openmpi-bin
need_tool iperf3 iperf3
echo "## (b) p2p --mpi across two namespaces vs iperf3 -P1, $NET_SIZE per execution, $NET_TIMES executions"
ip link add xbp2pbr type bridge
ip addr add 10.97.0.254/24 dev xbp2pbr
ip link set xbp2pbr up
for i in 1 2; do
  ip netns add xbp2p$i
  ip link add xbp2pv$i type veth peer name xbp2pp$i
  ip link set xbp2pp$i netns xbp2p$i
  ip link set xbp2pv$i master xbp2pbr
  ip link set xbp2pv$i up
  ip -n xbp2p$i addr add 10.97.0.$i/24 dev xbp2pp$i
  ip -n xbp2p$i link set xbp2pp$i up
  ip -n xbp2p$i link set lo up
done
# Each daemon gets a session directory of its own: daemons of one job on one file system race
# making a shared one ("mkdir … File exists").
cat >"$work/agent" <<AGENT
#!/bin/sh
host=\$1; shift
mkdir -p "$work/\$host"
export OMPI_MCA_orte_tmpdir_base="$work/\$host"
exec ip netns exec "\$host" /bin/sh -c "\$*"
AGENT
chmod +x "$work/agent"
printf 'xbp2p1 slots=1\nxbp2p2 slots=1\n' >"$work/hosts"
# (c)'s two sides serve addresses others can reach: they need a token of their own, shared.
XFERBENCH_TOKEN=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
export XFERBENCH_TOKEN
net_p2p=() net_iperf=() net_hand=()
for r in $(seq "$ROUNDS"); do
  # --bind-to none: each namespace "host" would bind its rank to core 0, the same core on this machine.
  out=$(mpirun --allow-run-as-root --hostfile "$work/hosts" -n 2 --bind-to none --mca plm_rsh_agent "$work/agent" \
    --mca routed direct --mca oob_tcp_if_include 10.97.0.0/24 --mca btl_tcp_if_include 10.97.0.0/24 \
    --mca btl self,tcp "$XB" p2p --mpi --transport tcp --ds 0 --dd 0 -s "$NET_SIZE" --times "$NET_TIMES" \
    --format json -q)
  # Case 2 is rank 0 -> rank 1 one way: ns1 -> ns2, iperf3's direction below.
  net_p2p+=("$(need_figure "p2p --mpi (b)" "$(echo "$out" | metric 2 bandwidth)")")
  # (c): ns2 (the higher address: rank 1) waits for ns1 (rank 0) within the start window.
  ip netns exec xbp2p2 "$XB" p2p --ip 10.97.0.1 --hip 10.97.0.2 --transport tcp --ds 0 --dd 0 -s "$NET_SIZE" \
    --times "$NET_TIMES" --format json -q >/dev/null &
  hand=$(ip netns exec xbp2p1 "$XB" p2p --ip 10.97.0.2 --hip 10.97.0.1 --transport tcp --ds 0 --dd 0 \
    -s "$NET_SIZE" --times "$NET_TIMES" --format json -q)
  wait
  net_hand+=("$(need_figure "p2p --ip (c)" "$(echo "$hand" | metric 2 bandwidth)")")
  ip netns exec xbp2p2 iperf3 -s -1 -B 10.97.0.2 -p 15201 >/dev/null 2>&1 &
  sleep 0.5
  gbps=$(ip netns exec xbp2p1 iperf3 -c 10.97.0.2 -p 15201 -t "$IPERF_SECONDS" -J | python3 -c "import json,sys; print(json.load(sys.stdin)['end']['sum_received']['bits_per_second']/8e9)")
  wait
  net_iperf+=("$(need_figure "iperf3 (b)" "$gbps")")
  echo "round $r: p2p --mpi ${net_p2p[-1]} GB/s, p2p --ip ${net_hand[-1]} GB/s, iperf3 ${net_iperf[-1]} GB/s"
done
mp=$(printf '%s\n' "${net_p2p[@]}" | median)
mh=$(printf '%s\n' "${net_hand[@]}" | median)
mi=$(printf '%s\n' "${net_iperf[@]}" | median)
r1=$(ratio "$mp" "$mi")
r2=$(ratio "$mh" "$mi")
echo "median: p2p --mpi $mp GB/s, p2p --ip $mh GB/s, iperf3 $mi GB/s, ratios $r1 and $r2"
