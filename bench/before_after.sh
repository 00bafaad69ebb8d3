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
set -euo pipefail
cd "$(dirname "$0")/.."
: "${BEFORE:?BEFORE=path to the xferbench built from the earlier commit}"
AFTER=${AFTER:-build/release/src/xferbench}
ROUNDS=${ROUNDS:-5}
ONLY=${ONLY:-}
for b in "$BEFORE" "$AFTER"; do [[ -x $b ]] || { echo "before_after.sh: $b is not an executable" >&2; exit 2; }; done
tmp=$(mktemp -d /tmp/xferbench-before-after.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

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
)
echo "# $(date -u +%FT%TZ) $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg), $ROUNDS rounds, before=$BEFORE after=$AFTER"
printf '%-50s %14s %14s %8s\n' case before after ratio
for c in "${cases[@]}"; do
  IFS='#' read -r label metric args <<<"$c"
  [[ -z $ONLY ]] || grep -qE -- "$ONLY" <<<"$label" || continue
  : >"$tmp/before"; : >"$tmp/after"
  for ((r = 0; r < ROUNDS; r++)); do
    for side in before after; do
      bin=$BEFORE; [[ $side == after ]] && bin=$AFTER
      # shellcheck disable=SC2086  # the arguments are words
      "$bin" $args --format json -q >"$tmp/out.json"
      jq -r "$metric" "$tmp/out.json" >>"$tmp/$side"
    done
  done
  med() { sort -g "$1" | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
  b=$(med "$tmp/before"); a=$(med "$tmp/after")
  printf '%-50s %14.3f %14.3f %8.3f\n' "$label" "$b" "$a" "$(awk -v a="$a" -v b="$b" 'BEGIN{print a/b}')"
done
