#!/usr/bin/env bash
# The mutation check: does the suite fail when the code breaks? Each mutant under tests/mutants/ is
# one small patch that plants a realistic bug, with the build targets and the tests expected to
# catch it named in its header. For each: apply it to the working tree, rebuild those targets
# incrementally, run those tests, revert. A mutant whose tests still pass is a SURVIVOR: a gap in
# the suite. A habit before resolving an issue that touches measurement, units, verification,
# security or cleanup (docs/testing.md), not a CI step: it takes a few minutes per mutant on 2 cores.
#
#   bash scripts/mutants.sh                 # every mutant
#   bash scripts/mutants.sh NAME...         # those named (file names without .patch, or globs)
#   bash scripts/mutants.sh --list          # name, what it plants, its tests
#   bash scripts/mutants.sh --check         # every mutant applies and names tests that exist (ctest)
#   BUILD=build/release bash scripts/mutants.sh   # the build directory (configured if absent)
#
# Header of a mutant (lines before the diff; git apply ignores them):
#   # mutant: what the bug is, in one line
#   # build: cmake targets to rebuild (space-separated)
#   # tests: a ctest -R regular expression naming the tests that must catch it
# Exit status: 0 when every mutant was caught, 1 when any survived or could not be run, 2 on bad
# usage. The working tree is restored on every path out, Ctrl-C included.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
dir=${MUTANTS_DIR:-tests/mutants}  # MUTANTS_DIR: another set (a one-off scan), same format
build=${BUILD:-build/release}
per_test_timeout=${MUTANT_TEST_TIMEOUT:-300}

# A header field of a mutant ("# KEY: value" lines before the diff), read with builtins only: the
# list and the check read three fields of some 220 mutants, and a sed per field took half a minute.
field() {
  local line
  while IFS= read -r line; do
    case "$line" in
      "# $1: "*) printf '%s\n' "${line#"# $1: "}"; return 0 ;;
      "# "*) ;;
      *) return 0 ;;
    esac
  done <"$2"
}

# git apply on this tree only: never a repository above it (a tree unpacked inside another work
# tree would take paths from that one's root), and whoever owns the clone (CI may clone as another
# user, and git refuses a repository it deems of dubious ownership).
tree_apply() { GIT_CEILING_DIRECTORIES="$(dirname "$root")" git -c safe.directory='*' -C "$root" apply "$@"; }

mutants=()
list_only=0
check_only=0
for arg in "$@"; do
  case "$arg" in
    --list) list_only=1 ;;
    --check) check_only=1 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "mutants.sh: unknown option '$arg' (--list, --help, or mutant names)" >&2; exit 2 ;;
    *)
      found=0
      for f in "$dir"/$arg.patch; do
        [ -f "$f" ] && { mutants+=("$f"); found=1; }
      done
      ((found)) || { echo "mutants.sh: no mutant named '$arg' under $dir" >&2; exit 2; }
      ;;
  esac
done
if ((${#mutants[@]} == 0)); then
  mapfile -t mutants < <(ls "$dir"/*.patch | sort)
fi
for m in "${mutants[@]}"; do
  for key in mutant build tests; do
    [ -n "$(field "$key" "$m")" ] || { echo "mutants.sh: $m has no '# $key:' line" >&2; exit 2; }
  done
done

if ((list_only)); then
  for m in "${mutants[@]}"; do
    printf '%-44s %s\n%-44s tests: %s\n' "$(basename "$m" .patch)" "$(field mutant "$m")" "" "$(field tests "$m")"
  done
  exit 0
fi

# --check: cheap enough for ctest. A mutant that no longer applies, or whose regex names no test,
# would silently stop checking anything.
if ((check_only)); then
  bad=0
  # The build's test names, listed once (a ctest per mutant took a minute).
  tests_here=$({ ctest --test-dir "$build" -N 2>/dev/null || true; } | sed -n 's/^ *Test *#[0-9]*: //p')
  for m in "${mutants[@]}"; do
    name=$(basename "$m" .patch)
    if ! why=$(tree_apply --check "$m" 2>&1); then
      echo "mutants.sh: $name: STALE: the patch no longer applies to this tree (rewrite it): $why" >&2
      bad=1
    fi
    case "$(field tests "$m")" in
      *'('*) echo "mutants.sh: $name: its tests regex has parentheses (ctest allows few groups in the union: use A|B)" >&2
             bad=1 ;;
    esac
    # ctest -R's regular expressions are extended ones, as grep -E's.
    count=$(grep -cE -- "$(field tests "$m")" <<<"$tests_here" || true)
    if [ "${count:-0}" -eq 0 ]; then
      echo "mutants.sh: $name: its tests regex '$(field tests "$m")' names no test in $build" >&2
      bad=1
    fi
  done
  ((bad == 0)) && echo "mutants.sh: ${#mutants[@]} mutants apply and name their tests"
  exit "$bad"
fi

if [ ! -f "$build/build.ninja" ]; then
  echo "mutants.sh: configuring $build (release preset)" >&2
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi

log_dir=$(mktemp -d /tmp/xferbench-mutants.XXXXXX)
applied=""  # the patch now in the working tree, reverted on every way out
revert() {
  if [ -n "$applied" ]; then
    tree_apply -R "$applied" || echo "mutants.sh: could not revert $applied: restore by hand" >&2
    applied=""
  fi
}
trap 'revert' EXIT
trap 'revert; echo "mutants.sh: interrupted; the tree is restored" >&2; exit 130' INT TERM

# A patch must apply to, and revert from, a tree whose files it touches are unchanged.
targets_all=()
for m in "${mutants[@]}"; do
  read -r -a t <<<"$(field build "$m")"
  targets_all+=("${t[@]}")
done
echo "mutants.sh: building the unmutated targets first (${build})" >&2
if ! cmake --build "$build" --target $(printf '%s\n' "${targets_all[@]}" | sort -u) >"$log_dir/baseline.log" 2>&1; then
  echo "mutants.sh: the unmutated tree does not build: $log_dir/baseline.log" >&2
  exit 1
fi

# Every mutant's tests must pass on the unmutated tree, or a failure would count as a catch.
# Joined without parentheses (ctest's regular expressions allow few groups): each is an alternation
# of its own, so A|B joined with C|D is the union.
all_tests=$(for m in "${mutants[@]}"; do printf '%s|' "$(field tests "$m")"; done)
all_tests=${all_tests%|}
echo "mutants.sh: running the mutants' tests on the unmutated tree first" >&2
if ! ctest --test-dir "$build" -R "$all_tests" --no-tests=error --timeout "$per_test_timeout" -j2 \
    >"$log_dir/baseline-tests.log" 2>&1; then
  echo "mutants.sh: tests fail without any mutant; fix them first:" >&2
  if grep -q "The following tests FAILED" "$log_dir/baseline-tests.log"; then
    sed -n '/The following tests FAILED/,$p' "$log_dir/baseline-tests.log" >&2
  else
    tail -n 5 "$log_dir/baseline-tests.log" >&2
  fi
  exit 1
fi

# A mutant such as "cleanup skips shm_unlink" makes its tests leave segments and files behind, and
# they would outlive the run (and, pids wrapping, look like a later process's leftovers to the
# suite): after each mutant, remove the xferbench names that appeared meanwhile and whose process
# is gone.
leftover_names() { ls -d /dev/shm/xferbench-* /var/tmp/.xferbench-* 2>/dev/null | sort || true; }
names_before=$(leftover_names)
sweep_leftovers() {
  local f pid
  while read -r f; do
    [ -n "$f" ] || continue
    pid=$(basename "$f" | sed -n 's/^\.\{0,1\}xferbench-\([0-9]*\)-.*/\1/p')
    [ -n "$pid" ] && [ -d "/proc/$pid" ] && continue
    rm -rf -- "$f"
  done < <(comm -13 <(printf '%s\n' "$names_before") <(leftover_names))
}

killed=0 survived=0 broken=0
survivors=() brokens=()
printf '%-44s %-9s %s\n' "mutant" "result" "seconds"
for m in "${mutants[@]}"; do
  name=$(basename "$m" .patch)
  read -r -a targets <<<"$(field build "$m")"
  tests=$(field tests "$m")
  log="$log_dir/$name.log"
  start=$SECONDS
  if ! tree_apply --check "$m" 2>"$log"; then
    result="STALE"  # the code moved on: the patch no longer applies; rewrite it
  else
    tree_apply "$m"
    applied="$m"
    if ! cmake --build "$build" --target "${targets[@]}" >>"$log" 2>&1; then
      result="NOBUILD"  # a mutant that does not compile tests nothing; rewrite it
    elif ctest --test-dir "$build" -R "$tests" --no-tests=error --timeout "$per_test_timeout" -j2 \
        >>"$log" 2>&1; then
      result="SURVIVED"
    elif grep -q "No tests were found" "$log"; then
      result="NOTESTS"  # the regex names no test
    else
      result="killed"
    fi
    revert
    sweep_leftovers
  fi
  case "$result" in
    killed) killed=$((killed + 1)) ;;
    SURVIVED) survived=$((survived + 1)); survivors+=("$name: $(field mutant "$m")") ;;
    *) broken=$((broken + 1)); brokens+=("$name ($result): $log") ;;
  esac
  printf '%-44s %-9s %d\n' "$name" "$result" $((SECONDS - start))
done

# Leave the build as the tree is: the last mutant's objects are rebuilt from the restored sources.
cmake --build "$build" --target $(printf '%s\n' "${targets_all[@]}" | sort -u) >"$log_dir/restore.log" 2>&1 ||
  echo "mutants.sh: rebuilding the restored tree failed: $log_dir/restore.log" >&2

total=$((killed + survived))
echo
if ((survived)); then
  echo "survivors (the suite passed with the bug planted):"
  printf '  %s\n' "${survivors[@]}"
fi
if ((broken)); then
  echo "not run (fix the mutant):"
  printf '  %s\n' "${brokens[@]}"
fi
if ((total)); then
  echo "score: $killed of $total mutants caught ($((100 * killed / total))%)${broken:+, $broken not run}; logs in $log_dir"
else
  echo "score: no mutant ran; logs in $log_dir"
fi
((survived == 0 && broken == 0))
