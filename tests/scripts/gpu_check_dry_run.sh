#!/usr/bin/env bash
# The GPU check's dry run (issue 19, item 1): on a machine without a GPU every CUDA case exits 3,
# and the run must still leave exactly report.txt, ratios.txt and results.tgz in $OUT, with every
# log inside the archive and no scratch directory behind. Usage: gpu_check_dry_run.sh XFERBENCH
set -euo pipefail
xferbench=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/xferbench-gpu-dry.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "gpu_check dry run: $*" >&2; exit 1; }
scratch_dirs() { local n=0 d; for d in "$root"/.gpu-check.*; do [ -e "$d" ] && n=$((n + 1)); done; echo "$n"; }

# A bundle of the build's own binary: the binary finds its modules next to its real path.
mkdir -p "$tmp/bundle/bin" "$tmp/bundle/lib" "$tmp/out"
ln -s "$xferbench" "$tmp/bundle/bin/xferbench"
before=$(scratch_dirs)
set +e
GPU_CHECK_BUNDLE="$tmp/bundle" OUT="$tmp/out" GPU_CHECK_DEADLINE_S=150 bash "$root/scripts/gpu_check.sh" run \
  >"$tmp/stdout" 2>&1
rc=$?
set -e
# The exit code is the number of FAILs (every CUDA case here), never a signal's.
((rc < 128)) || fail "ended by a signal (exit $rc): $(tail -n 5 "$tmp/stdout")"
listing=$(cd "$tmp/out" && ls -A | tr '\n' ' ')
[ "$listing" = "ratios.txt report.txt results.tgz " ] || fail "\$OUT holds '$listing', not the three files"
grep -q '^PASS devices ' "$tmp/out/report.txt" || fail "report.txt has no 'PASS devices' line"
grep -q '^fails: ' "$tmp/out/report.txt" || fail "report.txt has no 'fails:' line"
grep -q 'TARGET' "$tmp/out/ratios.txt" || fail "ratios.txt states no target"
archive=$(tar -tzf "$tmp/out/results.tgz")
grep -q '/logs/devices.log$' <<<"$archive" || fail "results.tgz lacks logs/devices.log"
after=$(scratch_dirs)
((after <= before)) || fail "a scratch directory was left in $root"
echo "gpu_check dry run: exit $rc ($(sed -n 's/^fails: //p' "$tmp/out/report.txt")), \$OUT: $listing"
