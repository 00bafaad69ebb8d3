#!/usr/bin/env bash
# One fuzz target, time-bounded (ctest, the `fuzz` preset): every seed of its corpus first, then
# new inputs for SECONDS. The corpus in the repo is only read: new inputs go to a scratch copy, so
# a run leaves the tree as it was. In a fresh network namespace (unshare --net, as root), so a
# host name in an address flag fails to resolve at once instead of waiting on a DNS server.
# A crash prints the input (hex) and where libFuzzer left it, and exits non-zero.
set -euo pipefail
fuzzer="$1" corpus="$2" seconds="${3:-45}"
scratch="$(mktemp -d /tmp/xferbench-fuzz.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/new"
run=("$fuzzer" -max_total_time="$seconds" -max_len=70000 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
     -artifact_prefix="$scratch/" "$scratch/new" "$corpus")
if unshare --net true 2>/dev/null; then run=(unshare --net "${run[@]}"); fi
if ! "${run[@]}" 2>"$scratch/log"; then
  tail -n 60 "$scratch/log" >&2
  for crash in "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* "$scratch"/oom-*; do
    [ -e "$crash" ] || continue
    echo "run_fuzzer: $(basename "$fuzzer"): input $(basename "$crash"):" >&2
    od -An -tx1 -v "$crash" | head -n 40 >&2
  done
  exit 1
fi
grep -E "^(stat::number_of_executed_units|stat::new_units_added|Done)" "$scratch/log" || true
