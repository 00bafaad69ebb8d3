#!/usr/bin/env bash
# table_headers_check.sh must be able to fail: handed a table with a column twice and a unit named
# as its column, it names both, exits 1, and leaves a header without either alone.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
f=$(mktemp)
trap 'rm -f "$f"' EXIT
printf '[[ fleet ]] links\n  size times(x) t_avg(us) t_avg(us) links(links)\n  1M   2        3         3         1\n' >"$f"
out=$(bash "$here/table_headers_check.sh" --file "$f" 2>&1)
rc=$?
[ "$rc" -eq 1 ] || { echo "exit $rc on a planted table, expected 1: $out"; exit 1; }
grep -q "column 't_avg(us)' twice" <<<"$out" || { echo "the repeated column was not named: $out"; exit 1; }
grep -q "column 'links(links)' names its unit as itself" <<<"$out" || { echo "the unit named as itself was not named: $out"; exit 1; }
! grep -q "column 'times(x)'" <<<"$out" || { echo "a good column was named: $out"; exit 1; }
printf '[[ copy ]] fine\n  size bandwidth(GB/s)\n  1M   3.0\n' >"$f"
out=$(bash "$here/table_headers_check.sh" --file "$f" 2>&1) || { echo "a good table was refused: $out"; exit 1; }
echo "table_headers_check.sh names a repeated column and a unit named as itself, and passes a good table"
