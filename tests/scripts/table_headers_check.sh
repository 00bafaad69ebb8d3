#!/usr/bin/env bash
# Every native command's table, as people read it: no column printed twice in a header, and no
# unit that repeats its column's name ("executions(executions)"). Runs copy (judged too), io, kv,
# p2p (pairs and the matrix), link, xfer client and server, fleet (two MPI ranks, where mpirun and
# the MPI module are here) and the quick survey, and reads each header line.
#   table_headers_check.sh XFERBENCH             the commands above
#   table_headers_check.sh --file TABLE_TEXT     one saved table (the check's own test)
# Exit 0 when every header holds; 1 naming each header that does not.
set -uo pipefail
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# check_headers WHAT FILE: a header is the line under a "[[ job ]] title" heading (a case that did
# not run is one heading line, and the next heading follows it), and the survey's "  path …" line.
check_headers() {
  local what=$1 file=$2 seen=0 after_heading=0 line
  while IFS= read -r line; do
    if [[ $line == '[['* ]]; then after_heading=1; continue; fi
    if ((after_heading)) || [[ $line =~ ^\ \ path\ +size\ +figure ]]; then
      after_heading=0
      seen=$((seen + 1))
      local -A count=()
      local col
      for col in $line; do
        count[$col]=$((${count[$col]:-0} + 1))
        [ "${count[$col]}" -eq 2 ] && fail "$what: column '$col' twice in: $line"
        if [[ $col =~ ^([A-Za-z_]+)\((.*)\)$ ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]; then
          fail "$what: column '$col' names its unit as itself"
        fi
      done
      unset count
    fi
  done <"$file"
  [ "$seen" -gt 0 ] || fail "$what: no table header in its output"
}

if [ "${1:-}" = "--file" ]; then
  check_headers "${2:?--file TABLE_TEXT}" "$2"
  exit $((fails > 0))
fi

xb=$(realpath "${1:?usage: table_headers_check.sh XFERBENCH}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# table NAME ARGS...: the command's table on stdout into $work/NAME.txt (exit 0 or 1: a judged
# FAIL still prints its table), then its headers checked.
table() {
  local name=$1
  shift
  "$xb" "$@" >"$work/$name.txt" 2>"$work/$name.err"
  local rc=$?
  if [ "$rc" -gt 1 ]; then fail "$name: exit $rc: $(head -c 400 "$work/$name.err")"; return; fi
  check_headers "$name" "$work/$name.txt"
}

mkdir -p "$work/io" "$work/kv"
table copy copy -s 64K -n 2 -i 3 --warmup 1 -q
table copy_judged copy -s 1M -n 2 -i 3 --warmup 1 --judge --expect-rule 'copy.h2h=0.001 GB/s' -q
table io_write io -D "$work/io" --rw write -s 1M -i 64K --buffered -q
table io_read io -D "$work/io" --rw read -s 1M -i 64K --buffered --verify -q
table kv_dump kv dump --store "$work/kv" -n 4 --block 64K --buffered -q
table kv_load kv load --store "$work/kv" -n 4 --block 64K --buffered --verify -q
table p2p p2p --backend cpu --all-pairs --devices 2 -s 64K --times 3 -q
table link link -s 4K:16K -i 5 -x 1 --transport tcp -q
"$xb" xfer server --listen 127.0.0.1:0 --transport tcp --ready-file "$work/ready" --wait 20 -q \
  >"$work/xfer_server.txt" 2>"$work/xfer_server.err" &
server=$!
for _ in $(seq 100); do [ -s "$work/ready" ] && break; sleep 0.1; done
control=$(awk '$1 == "control" { print $2 }' "$work/ready" 2>/dev/null)
table xfer_client xfer client --peer "$control" --transport tcp --block 64K --total 256K --iters 2 --warmup 0 -q
if wait "$server"; then check_headers xfer_server "$work/xfer_server.txt"; else fail "xfer server: exit $?"; fi
if command -v mpirun >/dev/null && "$xb" devices 2>/dev/null | grep -q '^runtime mpi (/'; then
  # Fleet prints its table at rank 0 only.
  mpirun --allow-run-as-root --oversubscribe -n 2 "$xb" fleet -s 64K --times 2 --transport tcp --hip 127.0.0.1 -q \
    >"$work/fleet.txt" 2>"$work/fleet.err"
  rc=$?
  if [ "$rc" -gt 1 ]; then fail "fleet: exit $rc: $(head -c 400 "$work/fleet.err")"; else check_headers fleet "$work/fleet.txt"; fi
else
  echo "table_headers_check: fleet not run: no mpirun or no MPI module here"
fi
(cd "$work" && table survey survey --quick --dir "$work" -q)

[ "$fails" -eq 0 ] && echo "table_headers_check: every command's table headers each column once, no unit named as itself"
exit $((fails > 0))
