#!/usr/bin/env bash
# fleet on four "hosts" (network namespaces on a bridge, shared/TESTING.md's recipes) with one link
# slowed by tc (host 1 -> host 3, htb + u32 on the destination), side by side with iperf3 -P1 on the
# same links: the slowed one and a good one (host 1 -> host 2). Prints fleet's matrix and verdict,
# then per link fleet's figure (bandwidth at the median execution) against iperf3's, as ratios.
# Absolute figures depend on the (noisy) machine: record them in docs/fleet.md. Needs root.
#
#   BUILD=build/release bash bench/fleet_bench.sh
#   SIZE=64M TIMES=10 RATE=500mbit THRESHOLD=0.8 MAX_PAIRS=1 ROUNDS=3 …
#   SMOKE=1 BUILD=build/release bash bench/fleet_bench.sh    # CI: one round of 1M, 1 s of iperf3
# A figure of either side that is missing, zero or unparsable ends the script with exit 1 (bench_lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/bench_lib.sh

if [[ ${SMOKE:-0} == 1 ]]; then
  : "${SIZE:=1M}" "${TIMES:=2}" "${ROUNDS:=1}" "${IPERF_SECONDS:=1}"
fi
IPERF_SECONDS=${IPERF_SECONDS:-3}

SIZE=${SIZE:-32M}
TIMES=${TIMES:-10}
RATE=${RATE:-500mbit}
THRESHOLD=${THRESHOLD:-0.8}
# One pair at a time by default: iperf3 measures one link alone, and on this 2-core machine two
# pairs at once halve each other's CPU (a fleet of real nodes runs every pair of a round at once).
MAX_PAIRS=${MAX_PAIRS:-1}
ROUNDS=${ROUNDS:-3}
NET=10.96.0
xb_build xferbench
XB=$(realpath "$BUILD/src/xferbench")
if [[ $(id -u) -ne 0 ]]; then echo "fleet_bench: needs root (network namespaces)" >&2; exit 3; fi
work=$(mktemp -d /tmp/xferbench-fleet-bench.XXXXXX)
cleanup() {
  for i in 1 2 3 4; do ip netns del xbfl$i 2>/dev/null || true; done
  ip link del xbflbr 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

need_tool iperf3 iperf3
need_tool mpirun openmpi-bin

ip link add xbflbr type bridge
ip addr add $NET.254/24 dev xbflbr
ip link set xbflbr up
for i in 1 2 3 4; do
  ip netns add xbfl$i
  ip link add xbflv$i type veth peer name xbflp$i
  ip link set xbflp$i netns xbfl$i
  ip link set xbflv$i master xbflbr
  ip link set xbflv$i up
  ip -n xbfl$i addr add $NET.$i/24 dev xbflp$i
  ip -n xbfl$i link set xbflp$i up
  ip -n xbfl$i link set lo up
  echo "xbfl$i slots=1" >>"$work/hosts"
done
ip netns exec xbfl1 tc qdisc add dev xbflp1 root handle 1: htb default 20
ip netns exec xbfl1 tc class add dev xbflp1 parent 1: classid 1:10 htb rate "$RATE"
ip netns exec xbfl1 tc class add dev xbflp1 parent 1: classid 1:20 htb rate 100gbit
ip netns exec xbfl1 tc filter add dev xbflp1 parent 1: protocol ip u32 match ip dst $NET.3/32 flowid 1:10
# Each daemon gets a session directory of its own: daemons of one job on one file system race
# making a shared one ("mkdir … File exists").
printf '#!/bin/sh\nhost=$1; shift\nmkdir -p "%s/$host"\nexport OMPI_MCA_orte_tmpdir_base="%s/$host"\nexec ip netns exec "$host" /bin/sh -c "$*"\n' "$work" "$work" >"$work/agent"
chmod +x "$work/agent"

# iperf3 -P1 from host $1 to host $2, GB/s.
iperf() {
  ip netns exec "xbfl$2" iperf3 -s -1 -B "$NET.$2" -p 15202 >/dev/null 2>&1 &
  sleep 0.5
  ip netns exec "xbfl$1" iperf3 -c "$NET.$2" -p 15202 -t "$IPERF_SECONDS" -J |
    python3 -c "import json,sys; print(json.load(sys.stdin)['end']['sum_received']['bits_per_second']/8e9)"
  wait
}
# bandwidth_p50 of the fleet_link case from rank $1 to rank $2 in the JSON on stdin.
link() {
  python3 -c "import json,sys; d=json.load(sys.stdin); print([m.get('display_value', m['value']) for c in d['cases'] if c['name']=='fleet_link' and c['config']['from_rank']==$1 and c['config']['to_rank']==$2 for m in c['metrics'] if m['name']=='bandwidth_p50'][0])"
}

echo "# $(date -u +%FT%TZ) $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); host 1 -> host 3 at $RATE"
echo "## fleet -s $SIZE --times $TIMES --threshold $THRESHOLD --max-pairs $MAX_PAIRS --transport tcp, 4 ranks, one per namespace"
fleet_slow=() fleet_good=() iperf_slow=() iperf_good=()
for r in $(seq "$ROUNDS"); do
  rc=0
  # --bind-to none: each namespace "host" would bind its rank to core 0, the same core on this machine.
  mpirun --allow-run-as-root --hostfile "$work/hosts" -n 4 --bind-to none --mca plm_rsh_agent "$work/agent" \
    --mca routed direct --mca oob_tcp_if_include $NET.0/24 --mca btl_tcp_if_include $NET.0/24 --mca btl self,tcp \
    "$XB" fleet --transport tcp -s "$SIZE" --times "$TIMES" --threshold "$THRESHOLD" --max-pairs "$MAX_PAIRS" --format json -q \
    >"$work/fleet.json" 2>"$work/fleet.err" || rc=$?
  if [[ ! -s "$work/fleet.json" ]]; then echo "round $r: fleet gave no result (exit $rc):" >&2; cat "$work/fleet.err" >&2; exit 1; fi
  fleet_slow+=("$(need_figure "fleet 1->3" "$(link 0 2 <"$work/fleet.json")")")
  fleet_good+=("$(need_figure "fleet 1->2" "$(link 0 1 <"$work/fleet.json")")")
  iperf_slow+=("$(need_figure "iperf3 1->3" "$(iperf 1 3)")")
  iperf_good+=("$(need_figure "iperf3 1->2" "$(iperf 1 2)")")
  echo "round $r: exit $rc; $(grep -c 'slow link' "$work/fleet.err" || true) flagged ($(grep 'slow link' "$work/fleet.err" | sed 's/^ *slow link: //' | paste -sd';'))"
  echo "  1->3 (slowed): fleet ${fleet_slow[-1]} GB/s, iperf3 ${iperf_slow[-1]} GB/s; 1->2: fleet ${fleet_good[-1]} GB/s, iperf3 ${iperf_good[-1]} GB/s"
done
python3 -c "
import json
d = json.load(open('$work/fleet.json'))
m = d['cases'][-1]['config']['matrix']
print('last matrix (GB/s, row = source):')
for name, row in zip(m['rows'], m['values']):
    print('  %-22s' % name + ''.join('%9s' % ('-' if v is None else '%.3f' % v) for v in row))
"
summary() {  # NAME, fleet figures, iperf3 figures (newline-separated)
  local mf mi
  mf=$(echo "$2" | median)
  mi=$(echo "$3" | median)
  r=$(ratio "$mf" "$mi")
  echo "median ($1): fleet $mf GB/s, iperf3 $mi GB/s, ratio $r"
}
summary "slowed link 1->3" "$(printf '%s\n' "${fleet_slow[@]}")" "$(printf '%s\n' "${iperf_slow[@]}")"
summary "good link 1->2" "$(printf '%s\n' "${fleet_good[@]}")" "$(printf '%s\n' "${iperf_good[@]}")"
