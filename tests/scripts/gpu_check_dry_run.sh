#!/usr/bin/env bash
# The GPU check's dry run (issue 19, item 1): on a machine without a GPU every CUDA case exits 3,
# and the run must still leave exactly report.txt, ratios.txt and results.tgz in $OUT, with every
# log inside the archive and no scratch directory behind. Issue 41: the report starts with card,
# driver, the module's toolkit and how many checks ran on the GPU (none here); a check that ran on
# the cpu backend, or ended "not available" for want of a driver, is a FAIL, never a PASS; each
# gdsio read follows a gdsio write of its files; `bundle` refuses a build without the GPU tests.
# Usage: gpu_check_dry_run.sh XFERBENCH
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
echo "13.0.88" >"$tmp/bundle/toolkit.txt"
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
report="$tmp/out/report.txt"
head -n 4 "$report" >"$tmp/head"
for want in "card: none seen" "driver: none seen" "module toolkit: CUDA 13.0.88" "checks on the GPU: 0 passed on the CUDA backend"; do
  grep -qF -- "$want" "$tmp/head" || fail "report.txt's first lines lack '$want': $(cat "$tmp/head")"
done
# Here every check of the CUDA backend runs on the cpu fallback or ends for want of a driver.
for name in dev-sandbox-sdma dev-sandbox-ce link-host-cuda-tcp link-cuda-cuda-ucx sm-refuses-pageable; do
  grep -q "^SKIPPED $name " "$report" && continue
  grep -q "^FAIL $name (" "$report" || fail "$name is not a FAIL here: $(grep " $name " "$report")"
done
grep -q '^FAIL link-host-cuda-tcp (ran on the cpu backend' "$report" || fail "the cpu fallback is not named: $(grep ' link-host-cuda-tcp ' "$report")"
grep -q '^FAIL devices-lists-cuda' "$report" || fail "devices-lists-cuda is not a FAIL here"
# A gdsio read only after the write of its files.
for read in gdsio-cpu-gpu gdsio-gpud; do
  r=$(grep -n " $read (" "$report" | head -1 | cut -d: -f1 || true)
  [ -z "$r" ] && continue
  w=$(grep -n " $read-write (" "$report" | head -1 | cut -d: -f1 || true)
  [ -n "$w" ] && [ "$w" -lt "$r" ] || fail "$read runs without its write first"
done
# bundle: a build without the GPU tests is refused in one line, exit 2.
mkdir -p "$tmp/no-tests"
printf 'rule touch\n  command = touch $out\nbuild x: touch\n' >"$tmp/no-tests/build.ninja"
set +e
refusal=$(cd "$root" && BUILD="$tmp/no-tests" GPU_CHECK_BUNDLE="$tmp/refused-bundle" bash "$root/scripts/gpu_check.sh" bundle 2>&1)
refused_rc=$?
set -e
[ "$refused_rc" -eq 2 ] && [ "$(printf '%s\n' "$refusal" | wc -l)" -eq 1 ] ||
  fail "bundle of a build without tests: exit $refused_rc, '$refusal' (want exit 2, one line)"
[ ! -e "$tmp/refused-bundle" ] || fail "a refused bundle left $tmp/refused-bundle behind"
after=$(scratch_dirs)
((after <= before)) || fail "a scratch directory was left in $root"
echo "gpu_check dry run: exit $rc ($(sed -n 's/^fails: //p' "$tmp/out/report.txt")), \$OUT: $listing"
