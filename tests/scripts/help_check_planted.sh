#!/usr/bin/env bash
# help_check.sh must be able to fail: handed a program whose help has a bare TEXT and whose command
# list runs together, it names both and exits 1.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cat >"$d/xb" <<'PROGRAM'
#!/bin/sh
if [ "$1" = --help ]; then
  printf 'commands:\n  sharp_coll_testNVIDIA sharp_coll_test dialect\n'
else
  printf 'Options:\n  -s,--size TEXT              block size (default 4M)\n'
fi
PROGRAM
chmod +x "$d/xb"
out=$(bash "$here/help_check.sh" "$d/xb" 2>&1)
rc=$?
[ "$rc" -eq 1 ] || { echo "help_check.sh exit $rc on a planted bare TEXT, expected 1: $out"; exit 1; }
grep -q "copy --help: a value named TEXT" <<<"$out" || { echo "the bare TEXT was not named: $out"; exit 1; }
grep -q "top-level help" <<<"$out" || { echo "the run-together command list was not named: $out"; exit 1; }
echo "help_check_planted: the check names a bare TEXT and run-together columns"
