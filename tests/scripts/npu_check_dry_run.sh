#!/usr/bin/env bash
# The NPU check's dry run (issue 13, item 9): scripts/npu_check.sh run against the stand-in CANN
# runtime (tests/acl) instead of a real one. Every check must pass there, the report must name the
# figures and what could not be checked, and the stand-in's ledger must show no breach and no leak.
# Usage: npu_check_dry_run.sh XFERBENCH STANDIN_DIR
set -euo pipefail
xferbench=$(realpath "$1")
standin=$(realpath "$2")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /var/tmp/xferbench-npu-dry.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "npu_check dry run: $*" >&2; exit 1; }

set +e
# Two cards of two dies, so -m card is checked too.
env -u LD_LIBRARY_PATH -u ASCEND_TOOLKIT_HOME ASCEND_HOME_PATH="$standin" XB_ACL_STANDIN_LEDGER="$tmp/ledger" \
  XB_ACL_STANDIN_DEVICES=4 XB_ACL_STANDIN_DIES_PER_CARD=2 \
  NPU_CHECK_BINARY="$xferbench" NPU_CHECK_BUNDLE="$tmp/no-bundle" NPU_CHECK_QUICK=1 OUT="$tmp/out" TMPDIR="$tmp" \
  PATH=/usr/sbin:/usr/bin:/sbin:/bin bash "$root/scripts/npu_check.sh" run >"$tmp/stdout" 2>&1
rc=$?
set -e
report="$tmp/out/report.txt"
[ -s "$report" ] || fail "no report.txt: $(tail -n 5 "$tmp/stdout")"
[ "$rc" -eq 0 ] || fail "exit $rc: $(grep '^FAIL' "$report" | head -n 3)"
grep -q '^fails: 0$' "$report" || fail "report.txt does not end with 'fails: 0'"
grep -q '^acl devices: 4$' "$report" || fail "report.txt does not count the stand-in's 4 NPUs"
for c in copy-host-device-batch copy-device-device-ce dev-sandbox-mla-iodirect-false-sdma-true p2p-matrix \
  io-cpu-gpu-read kv-load-device seed-dev-sandbox-gqa-ce seed-ascend-dmi-p2p seed-ascend-dmi-p2p-card; do
  grep -q "^PASS $c\$" "$report" || fail "report.txt has no 'PASS $c'"
done
grep -q '^SKIPPED npu-smi' "$report" || fail "report.txt does not say npu-smi was not there"
grep -q '^SKIPPED vendor ascend-dmi' "$report" || fail "report.txt does not say the vendor's ascend-dmi was not there"
grep -q '^not checked here: HIXL d2d write' "$report" || fail "report.txt does not say what it could not check"
if grep -E 'breach:|leak:' "$tmp/ledger"; then fail "the stand-in saw a breach or a leak"; fi
[ "$(grep -c ' init$' "$tmp/ledger")" -eq "$(grep -c ' finalize calls' "$tmp/ledger")" ] ||
  fail "a process ran aclInit without aclFinalize"
echo "npu_check dry run: $(grep -c '^PASS' "$report") checks passed against the stand-in"
