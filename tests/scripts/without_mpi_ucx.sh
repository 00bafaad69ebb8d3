#!/usr/bin/env bash
# The binary on a node without MPI's and UCX's libraries (issue 16, item 2): in a private mount
# namespace an empty file is bound over the real libmpi.so.40 and libucp.so.0, so the dynamic
# loader finds them but cannot load them, as on a node with HPC-X or no MPI at all. Then:
#   - the binary itself links neither (ldd),
#   - copy, io and kv run and verify,
#   - p2p --mpi, fleet and `xfer --transport ucx` end with exit 3 saying what is missing and why,
#   - `devices` lists the MPI runtime and the UCX transport as not here, tcp as the transport,
#   - with --survey: `survey --quick` measures the loopback link over the default transport, tcp
#     here, and keeps UCX's row saying why it is not here (the release suite's; ~10 s more).
# Usage: without_mpi_ucx.sh BINARY [--survey]   (as root: unshare and mount)
set -uo pipefail
bin=${1:?usage: without_mpi_ucx.sh BINARY [--survey]}
survey=${2:-}
fail=0
check() {  # check NAME CONDITION...: one line per failed expectation
  local name=$1; shift
  if ! "$@"; then echo "FAIL: $name"; fail=1; fi
}

linked=$(ldd "$bin")
check "the binary links no MPI library" bash -c "! grep -q 'libmpi' <<<\"\$0\"" "$linked"
check "the binary links no UCX library" bash -c "! grep -Eq 'libucp|libucs|libuct' <<<\"\$0\"" "$linked"

lib_of() { readlink -f "$(ldconfig -p | awk -v n="$1" '$1 == n { print $NF; exit }')"; }
mpi_lib=$(lib_of libmpi.so.40)
ucp_lib=$(lib_of libucp.so.0)
[ -f "$mpi_lib" ] && [ -f "$ucp_lib" ] || { echo "FAIL: libmpi.so.40 or libucp.so.0 is not installed here"; exit 1; }

work=$(mktemp -d /var/tmp/xb-without-mpi-ucx.XXXXXX)
trap 'rm -rf "$work"' EXIT
: >"$work/empty.so"

# Runs "$@" with both libraries hidden; stdout, stderr and the exit status into $work/NAME.*
hidden() {
  local name=$1; shift
  unshare --mount --propagation private bash -c '
    mount --bind "$1" "$2" && mount --bind "$1" "$3" || exit 97
    shift 3; exec "$@"' _ "$work/empty.so" "$mpi_lib" "$ucp_lib" "$@" >"$work/$name.out" 2>"$work/$name.err"
  echo $? >"$work/$name.rc"
}
rc() { cat "$work/$1.rc"; }
err_has() { grep -q -- "$2" "$work/$1.err"; }

# The mount really hides the library: loading it fails.
hidden probe python3 -c 'import ctypes; ctypes.CDLL("libmpi.so.40")'
check "libmpi.so.40 cannot be loaded in the namespace" test "$(rc probe)" -ne 0

hidden copy "$bin" copy -s 16K -n 8 -i 4 -d 2 --verify --backend cpu
check "copy runs without MPI and UCX (rc $(rc copy): $(head -c 300 "$work/copy.err"))" test "$(rc copy)" -eq 0
mkdir "$work/io" "$work/kv"
hidden io_write "$bin" io -D "$work/io" --rw write -s 1M -i 64K --buffered -q
hidden io_read "$bin" io -D "$work/io" --rw read -s 1M -i 64K --buffered --verify -q
check "io writes and verifies without MPI and UCX (rc $(rc io_write)/$(rc io_read): $(head -c 300 "$work/io_read.err"))" \
  test "$(rc io_write)$(rc io_read)" = 00
hidden kv_dump "$bin" kv dump --store "$work/kv" -n 8 --block 64K -q
hidden kv_load "$bin" kv load --store "$work/kv" -n 8 --block 64K --verify -q
check "kv dumps and verifies without MPI and UCX (rc $(rc kv_dump)/$(rc kv_load): $(head -c 300 "$work/kv_load.err"))" \
  test "$(rc kv_dump)$(rc kv_load)" = 00

hidden p2p "$bin" p2p --mpi
check "p2p --mpi exits 3 (rc $(rc p2p))" test "$(rc p2p)" -eq 3
check "p2p --mpi says MPI is missing and why: $(cat "$work/p2p.err")" \
  bash -c "grep -q -- '--mpi: needs MPI, which is not here: .*libmpi.so.40' '$work/p2p.err'"
hidden fleet "$bin" fleet -s 64K
check "fleet exits 3 (rc $(rc fleet))" test "$(rc fleet)" -eq 3
check "fleet says MPI is missing: $(cat "$work/fleet.err")" err_has fleet "needs MPI, which is not here"

hidden xfer "$bin" xfer server --transport ucx --listen 127.0.0.1:0 --wait 5
check "xfer --transport ucx exits 3 (rc $(rc xfer))" test "$(rc xfer)" -eq 3
check "xfer says the UCX module is missing and why: $(cat "$work/xfer.err")" \
  bash -c "grep -q -- '--transport ucx: needs the ucx transport module, which is not here: .*libucp.so.0' '$work/xfer.err'"

hidden devices "$bin" devices
check "devices runs (rc $(rc devices))" test "$(rc devices)" -eq 0
check "devices lists MPI as not here" bash -c "grep -q '^runtime mpi: not here: .*libmpi.so.40' '$work/devices.out'"
check "devices lists tcp as the only transport" bash -c "grep -q '^transports: tcp\$' '$work/devices.out'"
check "devices says why UCX is not here" bash -c "grep -q '^  (ucx: not here: .*libucp.so.0' '$work/devices.out'"

if [ "$survey" = --survey ]; then
  hidden survey "$bin" survey --quick --dir "$work" -q --json "$work/survey.json"
  check "survey --quick runs without MPI and UCX (rc $(rc survey): $(head -c 300 "$work/survey.err"))" test "$(rc survey)" -eq 0
  check "the survey measures the link over tcp, the default transport here: $(grep loopback "$work/survey.out")" \
    bash -c "grep -Eq '^  tcp loopback +8 +[0-9.]+ +us' '$work/survey.out'"
  check "the survey's ucx row says why UCX is not here: $(grep loopback "$work/survey.out")" \
    bash -c "grep -q '^  ucx loopback .*not measured: .*needs the ucx transport module, which is not here: .*libucp.so.0' '$work/survey.out'"
fi

# Outside the namespace the same binary finds both (the check can tell the two apart).
"$bin" devices >"$work/devices_here.out" 2>&1
check "devices finds the MPI module where MPI is installed" \
  bash -c "grep -q '^runtime mpi (.*libxferbench-runtime-mpi.so): ' '$work/devices_here.out'"
check "devices finds the UCX module where UCX is installed" \
  bash -c "grep -q '^transports: ucx, tcp (UCX ' '$work/devices_here.out'"

exit $fail
