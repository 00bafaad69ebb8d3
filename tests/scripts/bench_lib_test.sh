#!/usr/bin/env bash
# bench/bench_lib.sh must refuse what would make a ratio of nothing: an empty, zero, negative or
# unparsable figure, a metric the document lacks, a document that is not there; and read a present
# metric by name in both its JSON and its display unit.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../bench/bench_lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
for bad in "" 0 0.0 -3 abc nan inf 1.2.3 "5 MiB/s"; do
  (need_figure "planted '$bad'" "$bad" >/dev/null 2>&1) && fail "need_figure took '$bad'"
done
[ "$(need_figure good 2.5e3)" = 2.5e3 ] || fail "need_figure did not hand back 2.5e3"
[ "$(ratio 3 2)" = 1.500 ] || fail "ratio 3 2 is not 1.500"
(ratio "" 2 >/dev/null 2>&1) && fail "ratio of a missing figure printed"
(ratio 2 0 >/dev/null 2>&1) && fail "ratio over zero printed"
printf '%s' '{"cases":[{"name":"a","metrics":[{"name":"throughput","value":2097152,"display_value":2.0}]},
  {"name":"b","metrics":[{"name":"iops","value":7}]}]}' >"$work/r.json"
[ "$(xb_metric "$work/r.json" throughput)" = 2097152.0 ] || fail "xb_metric throughput"
[ "$(xb_shown "$work/r.json" throughput)" = 2.0 ] || fail "xb_shown throughput"
[ "$(xb_metric "$work/r.json" iops b)" = 7.0 ] || fail "xb_metric by case name"
[ "$(xb_shown "$work/r.json" iops 1)" = 7.0 ] || fail "xb_shown without a display value falls back to the value"
(xb_metric "$work/r.json" bandwidth >/dev/null 2>&1) && fail "xb_metric of a metric the case lacks"
(xb_metric "$work/r.json" iops c >/dev/null 2>&1) && fail "xb_metric of a case the document lacks"
(xb_metric "$work/none.json" iops >/dev/null 2>&1) && fail "xb_metric of no document"
printf '%s' '{"cases":[{"name":"a","series":[{"name":"copy","summary":{"avg":4.5,"p50":4}}]}]}' >"$work/s.json"
[ "$(xb_series "$work/s.json" copy avg)" = 4.5 ] || fail "xb_series copy avg"
[ "$(xb_series "$work/s.json" copy p50 a)" = 4.0 ] || fail "xb_series by case name"
(xb_series "$work/s.json" submit avg >/dev/null 2>&1) && fail "xb_series of a series the case lacks"
(xb_series "$work/s.json" copy p99 >/dev/null 2>&1) && fail "xb_series of a statistic the summary lacks"
[ "$(iperf3_write_size 65536)" = 65536 ] && [ "$(iperf3_write_size 1048576)" = 1048576 ] &&
  [ "$(iperf3_write_size 8388608)" = 1048576 ] || fail "iperf3_write_size: our block up to 1 MiB"
(BUILD=/given; xb_build nothing_to_build && [ "$BUILD" = /given ]) || fail "xb_build rebuilt where BUILD was given"
[ "$(printf '3\n1\n2\n' | median)" = 2 ] && [ "$(printf '4\n1\n2\n3\n' | median)" = 2.5 ] || fail "median"
[ "$fails" -eq 0 ] && echo "bench_lib: refuses every missing, zero or unparsable figure; reads metrics by name"
exit $((fails > 0))
