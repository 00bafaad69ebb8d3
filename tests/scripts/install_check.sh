#!/usr/bin/env bash
# The install rules and the .deb (issue 18 item 9), from a built tree:
#   1. `cmake --install` into a staging prefix lays out the binary, the dialect links, the modules
#      (which the installed binary finds: ../lib/xferbench), the expectation files and schemas, a
#      man page for the program and for every command its --help lists, and bash completion.
#   2. `cpack -G DEB` makes a package holding the same, with dependencies from dpkg-shlibdeps that
#      apt can satisfy on this machine.
#   3. The package is unpacked into an empty root that gets only the shared libraries it depends
#      on (nothing of the build tree, no compiler), and from its /usr/bin `xferbench --quick` (the
#      survey) and one dialect (`gdsio -x 1`, storage into host memory) run and print their results; as root, in a mount namespace.
# Usage: install_check.sh BUILD_DIR. Exit 0 when all holds, 1 naming what did not, 77 to skip step 3
# where it cannot run (not root, no unshare): then steps 1 and 2 still ran.
set -uo pipefail
build=$(cd "$1" && pwd)
work=$(mktemp -d /var/tmp/xferbench-install.XXXXXX) || exit 1
[ -d "$work" ] || exit 1
# The mounts live in a namespace of their own (unshare), gone with it: nothing to unmount here.
trap 'rm -rf --one-file-system "$work"' EXIT
fails=0
fail() { echo "install_check: $*" >&2; fails=$((fails + 1)); }

# 1. cmake --install
stage=$work/stage/usr
cmake --install "$build" --prefix "$stage" >"$work/install.log" 2>&1 || { fail "cmake --install: $(tail -3 "$work/install.log")"; exit 1; }
xb=$stage/bin/xferbench
[ -x "$xb" ] || fail "no bin/xferbench"
for d in ascend-dmi dev-sandbox gdsio hixl hixl_comm_bench sharp_coll_test benchmark sharp_coll_test_mpi ucm-toolkit; do
  [ "$(readlink "$stage/bin/$d")" = xferbench ] || fail "bin/$d is not a link to xferbench"
done
# Every module this build made (CUDA and UCX are optional builds) is installed.
built=$(cd "$build/src/modules" 2>/dev/null && ls libxferbench-*.so 2>/dev/null)
[ -n "$built" ] || fail "the build made no module (expected at least the MPI runtime's)"
for m in $built; do
  [ -f "$stage/lib/xferbench/$m" ] || fail "no lib/xferbench/$m"
done
"$xb" devices >"$work/devices.txt" 2>&1 || fail "installed devices: exit $?"
# The Ascend module is built on every machine (it needs no CANN to build).
grep -q "backend acl ($stage/bin/../lib/xferbench/libxferbench-backend-acl.so)" "$work/devices.txt" ||
  fail "the installed binary did not load its modules from ../lib/xferbench: $(head -c 300 "$work/devices.txt")"
for f in builtin_expectations.yaml sku_expectations.yaml schemas/xferbench.result.v2.schema.json; do
  [ -s "$stage/share/xferbench/$f" ] || fail "no share/xferbench/$f"
done
man1=$stage/share/man/man1
[ -s "$man1/xferbench.1.gz" ] || fail "no man page xferbench.1.gz"
commands=$("$xb" --help | sed -n '/^commands:/,$p' | tail -n +2 | awk '{print $1}')
[ -n "$commands" ] || fail "xferbench --help lists no command"
for c in $commands; do
  page=$man1/xferbench-$c.1.gz
  if [ ! -s "$page" ]; then fail "no man page for $c"; continue; fi
  # The page is the command's help: its name line, and more than a line of text from its --help
  # (a help that failed would leave one error line).
  zcat "$page" | grep -q "^xferbench-$c \\\\- " || fail "xferbench-$c.1: no NAME line"
  [ "$(zcat "$page" | grep -vc '^\.')" -ge 4 ] || fail "xferbench-$c.1: hardly any text: $(zcat "$page" | tail -3)"
done
zcat "$man1/xferbench-copy.1.gz" | grep -q 'fB\\-\\-backend' || fail "xferbench-copy.1: no --backend option"
comp=$stage/share/bash-completion/completions
[ -s "$comp/xferbench" ] || fail "no bash completion"
[ "$(readlink "$comp/gdsio")" = xferbench ] || fail "no completion link for gdsio"
# The completion completes: commands from the installed binary, and a command's options.
got=$(PATH=$stage/bin:$PATH bash -c 'source "$1"; COMP_WORDS=(xferbench co); COMP_CWORD=1; _xferbench
  echo "${COMPREPLY[*]}"; COMP_WORDS=(xferbench copy --ba); COMP_CWORD=2; _xferbench; echo "${COMPREPLY[*]}"' _ "$comp/xferbench")
[ "$got" = $'compare copy\n--backend --batch' ] || fail "completion gave: $got"

# 2. cpack -G DEB
(cd "$work" && cpack -G DEB -B "$work/pkg" --config "$build/CPackConfig.cmake") >"$work/cpack.log" 2>&1 ||
  { fail "cpack: $(tail -5 "$work/cpack.log")"; exit 1; }
deb=$(ls "$work"/pkg/xferbench_*.deb 2>/dev/null | head -1)
[ -f "$deb" ] || { fail "cpack made no .deb: $(tail -3 "$work/cpack.log")"; exit 1; }
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libstdc++6 libfmt libnuma1; do
  [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
done
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/xferbench ./usr/bin/gdsio ./usr/lib/xferbench/libxferbench-backend-acl.so \
  ./usr/share/man/man1/xferbench-copy.1.gz ./usr/share/bash-completion/completions/xferbench; do
  grep -q " $f\( \|$\)" <<<"$contents" || fail "the package lacks $f"
done
apt-get install -s "$deb" >"$work/apt.log" 2>&1 && grep -q '^Inst xferbench' "$work/apt.log" ||
  fail "apt cannot install the package here: $(tail -3 "$work/apt.log")"

# 3. An empty root: the package, the libraries it needs, nothing else.
if [ "$(id -u)" -ne 0 ] || ! command -v chroot >/dev/null || ! unshare --mount true 2>/dev/null; then
  echo "install_check: skipped the clean-root run (needs root, chroot and a mount namespace)"
  [ "$fails" -eq 0 ] && exit 77 || exit 1
fi
root=$work/root
mkdir -p "$root"/{proc,sys,dev,tmp,var/tmp}
# Debian 12 merges /usr: /lib and /lib64 are links into it, as ldd's paths expect.
for d in lib lib64; do [ -L "/$d" ] && mkdir -p "$root/usr/$d" && ln -s "usr/$d" "$root/$d"; done
dpkg -x "$deb" "$root" || { fail "dpkg -x failed"; exit 1; }
for f in "$root/usr/bin/xferbench" "$root"/usr/lib/xferbench/*.so; do
  ldd "$f" | grep -oE '(/[^ ]+)' | grep -v "^$root"
done | sort -u | while read -r lib; do
  cp -L --parents "$lib" "$root" 2>/dev/null
done
# UCX loads its transports, and Open MPI its components, when they start (not in ldd).
for d in /usr/lib/x86_64-linux-gnu/ucx; do [ -d "$d" ] && cp -a --parents "$d" "$root"; done
[ -e "$root/usr/lib/x86_64-linux-gnu/libcuda.so.1" ] && fail "the clean root has a libcuda"
[ -e "$root/usr/bin/cc" ] && fail "the clean root has a compiler"
run_in_root() {
  unshare --mount --fork bash -c 'mount -t proc proc "$0/proc" && mount --rbind /sys "$0/sys" &&
    mount --rbind /dev "$0/dev" && exec chroot "$0" "$@"' "$root" "$@"
}
run_in_root /usr/bin/xferbench --quick --dir /var/tmp --json /var/tmp/survey.json -q >"$work/survey.out" 2>&1 ||
  fail "xferbench --quick in the clean root: exit $?: $(tail -5 "$work/survey.out")"
grep -q "H2D cpu" "$work/survey.out" || fail "xferbench --quick printed no survey: $(head -c 400 "$work/survey.out")"
[ -s "$root/var/tmp/survey.json" ] || fail "xferbench --quick wrote no results file"
run_in_root /usr/bin/gdsio -D /var/tmp -d 0 -w 1 -s 1m -i 64k -x 1 -I 1 >"$work/gdsio.out" 2>&1 ||
  fail "gdsio in the clean root: exit $?: $(tail -5 "$work/gdsio.out")"
grep -q "Throughput:" "$work/gdsio.out" || fail "gdsio printed no result line: $(head -c 400 "$work/gdsio.out")"

[ "$fails" -eq 0 ] && echo "install_check: cmake --install, the .deb, and xferbench --quick and gdsio from a clean root: all good"
[ "$fails" -eq 0 ]
