#!/usr/bin/env bash
# The sharp_coll_test dialect's collective tester (the coll job over MPI) side by side with the OSU
# micro-benchmarks on the same work, one run: MPI_Allreduce of floats (SUM) and MPI_Allgather of
# bytes over the same sizes, ranks, iterations and warm-up, a barrier around every timed iteration
# in both (OSU after, xferbench before: untimed in both), and MPI_Barrier. Prints per size both
# average latencies (mean over ranks, us) and the ratio osu / xferbench (1: parity; above 1:
# xferbench faster, a finding to explain). Record the figures in docs/link.md with this command.
#
#   OSU_SRC=/path/to/osu-micro-benchmarks BUILD=build/release bash bench/coll_bench.sh
#   RANKS=2 SIZES=4:1M ITERS=1000 WARMUP=100 …
# OSU is not a Debian package: OSU_SRC is a checkout (e.g. fetched from a public mirror of OSU 5.x);
# its three collective benchmarks are compiled here with mpicc into a temporary directory.
#   SMOKE=1 OSU_SRC=… BUILD=build/release …   CI: tiny sizes, a few iterations, every figure there
# A figure of either side that is missing, zero or unparsable ends the script with exit 1 naming
# it (bench_lib.sh), never a ratio; without OSU_SRC it names what it needs and exits 3.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/bench_lib.sh

if [[ ${SMOKE:-0} == 1 ]]; then : "${SIZES:=4:64}" "${ITERS:=10}" "${WARMUP:=1}"; fi
RANKS=${RANKS:-2}
SIZES=${SIZES:-4:1M}
ITERS=${ITERS:-1000}
WARMUP=${WARMUP:-100}
if [[ -z "${OSU_SRC:-}" || ! -f "$OSU_SRC/mpi/collective/osu_allreduce.c" ]]; then
  echo "coll_bench: set OSU_SRC to a checkout of the OSU micro-benchmarks (mpi/collective/osu_allreduce.c)" >&2
  exit 3
fi
xb_build xferbench
# The link name, not realpath (which resolves it to xferbench): the dialect is chosen by argv[0].
SHARP="$(cd "$BUILD/src" && pwd)/sharp_coll_test_mpi"
work=$(mktemp -d /tmp/xferbench-coll-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
for b in osu_allreduce osu_allgather osu_barrier; do
  mpicc -O2 -I"$OSU_SRC/mpi/collective" -o "$work/$b" "$OSU_SRC/mpi/collective/$b.c" \
    "$OSU_SRC/mpi/collective/osu_coll.c" -lm
done
# OSU's -m takes plain byte counts.
to_bytes() { numfmt --from=iec "$1"; }
min=$(to_bytes "${SIZES%%:*}")
max=$(to_bytes "${SIZES##*:}")
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -n "$RANKS")

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); ranks $RANKS; sizes $min:$max; iterations $ITERS; warm-up $WARMUP"
# $1: name; $2: OSU's output; $3: xferbench's block of that collective. OSU's rows: size avg ...;
# xferbench's: size avg min max bw iters (allgather: size = ranks x the block OSU names).
compare() {
  local name=$1 osu=$2 xb=$3 scale=$4
  printf '\n%s\n%12s %14s %14s %10s\n' "$name" "bytes" "osu avg(us)" "xferbench(us)" "ratio"
  # Every size of either side must be a positive figure of the other's too; exit 1 naming it.
  awk -v scale="$scale" 'NR == FNR { if ($1 ~ /^[0-9]+$/) osu[$1 * scale] = $2; next }
       $1 ~ /^[0-9]+$/ { seen++
         if (!($1 in osu) || !(osu[$1] + 0 > 0) || !($2 + 0 > 0)) { bad = bad " " $1; next }
         printf "%12d %14.2f %14.2f %10.3f\n", $1, osu[$1], $2, osu[$1] / $2 }
       END { if (!seen || bad != "") { printf "bench: sizes without both figures:%s%s\n", bad,
                                              seen ? "" : " (no rows of ours)" > "/dev/stderr"; exit 1 } }' \
    <(echo "$osu") <(echo "$xb")
}
osu_ar=$("${MPIRUN[@]}" "$work/osu_allreduce" -f -m "$min:$max" -i "$ITERS" -x "$WARMUP")
xb_ar=$("${MPIRUN[@]}" "$SHARP" -c allreduce -T float -s "$min:$max" -i "$ITERS" -x "$WARMUP" 2>/dev/null)
compare "MPI_Allreduce (float, SUM)" "$osu_ar" "$xb_ar" 1
osu_ag=$("${MPIRUN[@]}" "$work/osu_allgather" -f -m "$min:$max" -i "$ITERS" -x "$WARMUP")
xb_ag=$("${MPIRUN[@]}" "$SHARP" -c allgather -T byte -s "$min:$max" -i "$ITERS" -x "$WARMUP" 2>/dev/null)
compare "MPI_Allgather (bytes; xferbench's size column is ranks x the block)" "$osu_ag" "$xb_ag" "$RANKS"
osu_b=$("${MPIRUN[@]}" "$work/osu_barrier" -f -i "$ITERS" -x "$WARMUP")
xb_b=$("${MPIRUN[@]}" "$SHARP" -c barrier -i "$ITERS" -x "$WARMUP" 2>/dev/null)
osu_avg=$(need_figure "osu_barrier avg" "$(echo "$osu_b" | awk '$1 ~ /^[0-9.]+$/ { print $1; exit }')")
xb_avg=$(need_figure "sharp_coll_test barrier avg" "$(echo "$xb_b" | awk '$1 ~ /^[0-9.]+$/ { print $1; exit }')")
printf '\nMPI_Barrier\n%14s %14s %10s\n%14.2f %14.2f %10s\n' "osu avg(us)" "xferbench(us)" "ratio" \
  "$osu_avg" "$xb_avg" "$(ratio "$osu_avg" "$xb_avg")"
