#!/usr/bin/env bash
# Every native command's JSON result against the shipped schema (schemas/xferbench.result.v1…):
# copy (a judged case too), io write and read, kv dump and load, p2p pairs and
# the matrix, link over its loopback server, xfer client and server, the survey; and compare's own
# document against schemas/xferbench.compare.v2…. Then the check
# must be able to fail: a document with a field removed, one with a wrong type, and a bumped
# version are each refused. Exit 0 when all hold; 1 naming what did not.
#   result_schema_check.sh XFERBENCH SCHEMA_DIR
set -uo pipefail
xb=$(realpath "$1")
schemas=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
schema="$schemas/xferbench.result.v2.schema.json"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# run NAME EXPECTED_EXIT ARGS...: the command writes $work/NAME.json; it must exit as expected
# and the file must be valid.
run() {
  local name=$1 want=$2
  shift 2
  "$xb" "$@" >"$work/$name.out" 2>"$work/$name.err"
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    fail "$name: exit $rc, expected $want: $(head -c 400 "$work/$name.err")"
    return
  fi
  if [ ! -s "$work/$name.json" ]; then fail "$name: wrote no $work/$name.json"; return; fi
  python3 "$here/validate_json.py" "$schema" "$work/$name.json" || fail "$name: not valid against $schema"
}

q=(--format json -q)
run copy 0 copy -s 64K -n 2 -i 3 --warmup 1 "${q[@]}" -o "$work/copy.json"
run copy_judged 0 copy -s 1M -n 2 -i 3 --warmup 1 --judge --expect-rule 'copy.h2h=0.001 GB/s' "${q[@]}" -o "$work/copy_judged.json"
mkdir -p "$work/io" "$work/kv"
run io_write 0 io -D "$work/io" --rw write -s 1M -i 64K --buffered "${q[@]}" -o "$work/io_write.json"
run io_read 0 io -D "$work/io" --rw read -s 1M -i 64K --buffered --verify "${q[@]}" -o "$work/io_read.json"
run kv_dump 0 kv dump --store "$work/kv" -n 4 --block 64K --buffered "${q[@]}" -o "$work/kv_dump.json"
run kv_load 0 kv load --store "$work/kv" -n 4 --block 64K --buffered --verify "${q[@]}" -o "$work/kv_load.json"
run p2p 0 p2p --backend cpu --all-pairs --devices 2 -s 64K --times 3 "${q[@]}" -o "$work/p2p.json"
run link 0 link -s 4K:16K -i 5 -x 1 --transport tcp "${q[@]}" -o "$work/link.json"
"$xb" xfer server --listen 127.0.0.1:0 --transport tcp --ready-file "$work/ready" --wait 20 --format json -q \
  -o "$work/xfer_server.json" >"$work/xfer_server.out" 2>"$work/xfer_server.err" &
server=$!
for _ in $(seq 100); do [ -s "$work/ready" ] && break; sleep 0.1; done
control=$(awk '$1 == "control" { print $2 }' "$work/ready" 2>/dev/null)
run xfer_client 0 xfer client --peer "$control" --transport tcp --block 64K --total 256K --iters 2 --warmup 0 "${q[@]}" \
  -o "$work/xfer_client.json"
wait "$server" || fail "xfer server: exit $?: $(head -c 400 "$work/xfer_server.err")"
python3 "$here/validate_json.py" "$schema" "$work/xfer_server.json" || fail "xfer_server: not valid against $schema"
(cd "$work" && "$xb" survey --quick --dir "$work" --json "$work/survey.json" -q >"$work/survey.out" 2>"$work/survey.err")
survey_rc=$?
if [ "$survey_rc" -ne 0 ] && [ "$survey_rc" -ne 1 ]; then
  fail "survey: exit $survey_rc: $(head -c 400 "$work/survey.err")"
else
  python3 "$here/validate_json.py" "$schema" "$work/survey.json" || fail "survey: not valid against $schema"
fi

# compare's own document against its schema: one file a side, and repetitions.
"$xb" compare "$work/copy.json" "$work/copy.json" --format json >"$work/compare.json" 2>"$work/compare.err" ||
  fail "compare: exit $?: $(head -c 400 "$work/compare.err")"
"$xb" compare "$work/copy.json,$work/copy_judged.json" "$work/copy.json,$work/copy.json" --format json \
  >"$work/compare_reps.json" 2>"$work/compare_reps.err"
[ $? -le 1 ] || fail "compare with repetitions: $(head -c 400 "$work/compare_reps.err")"
python3 "$here/validate_json.py" "$schemas/xferbench.compare.v2.schema.json" "$work/compare.json" "$work/compare_reps.json" ||
  fail "compare: not valid against xferbench.compare.v2.schema.json"

# A run that ended early (issue 18 item 8) is marked with its reason: valid.
python3 -c "import json; d=json.load(open('$work/copy.json')); d['partial']={'reason':'interrupted by SIGINT'}; json.dump(d, open('$work/partial.json','w'))" &&
  python3 "$here/validate_json.py" "$schema" "$work/partial.json" || fail "a partial run's document is not valid against $schema"

# The check can fail: each broken copy of a valid document is refused.
for broken in 'del d["machine"]' 'd["cases"][0]["metrics"][0]["value"] = "fast"' 'd["schema_version"] = 3' \
  'd["cases"][0]["status"] = "waived"' 'd["partial"] = {}' 'd["partial"] = {"reason": ""}' 'd["partial"] = True'; do
  rm -f "$work/broken.json"
  if ! python3 -c "import json,sys; d=json.load(open('$work/copy.json')); $broken; json.dump(d, open('$work/broken.json','w'))"; then
    fail "could not make the broken document '$broken'"
    continue
  fi
  if python3 "$here/validate_json.py" "$schema" "$work/broken.json" 2>/dev/null; then
    fail "a document with '$broken' passed the schema"
  fi
done

[ "$fails" -eq 0 ] && echo "result_schema_check: every command's JSON is valid; broken documents are refused"
exit $((fails > 0))
