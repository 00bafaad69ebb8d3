#!/usr/bin/env bash
# The GPU check (issues 6 and 19): H2D / D2H / D2D bandwidth next to PyTorch's own copies of the
# same bytes in the same run (printed as ratios, with the targets MET or MISSED), every copy case on
# the CUDA backend with its data verified, link with GPU memory, io CPU_GPU on a local file, and
# GPUD through cuFile.
#
# Two halves, because the GPU machine has CUDA, CMake and PyTorch but none of the Debian libraries
# xferbench links (fmt, UCX, liburing, ...) and no network to fetch them:
#   bash scripts/gpu_check.sh bundle   here: build (release, with the CUDA module; BUILD=DIR to reuse
#                                      a build directory) and gather the binary, the module and the
#                                      shared libraries into build/gpu-bundle (a few MiB)
#   bash scripts/gpu_check.sh run      on the GPU machine, from the repository root with
#                                      build/gpu-bundle carried along
# What `run` leaves in $OUT (or ./gpu-check-out), and nothing else, also when it is stopped by its
# deadline or by TERM / INT / HUP:
#   report.txt   first the card, the driver (and the CUDA version it supports), the toolkit the
#                module was built with and how many checks ran on the GPU; then one line per check
#                (PASS, FAIL, SKIPPED or STOPPED, with its wall time), the notes, the ratios block
#                and the io figures. A check of the CUDA backend PASSes only when it ran on it: a
#                run that fell back to the cpu backend, or ended "not available" for want of a
#                driver, is a FAIL saying so.
#   ratios.txt   the ratios block: xferbench vs PyTorch per direction and engine, targets MET/MISSED
#   results.tgz  results/: every JSON, every log (logs/), env.txt, torch.json, the two files above
# Everything is written into a scratch directory first (./.gpu-check.XXXXXX, which also holds the io
# files) and gathered into $OUT by the EXIT trap. One overall deadline, GPU_CHECK_DEADLINE_S (480 s
# by default: well inside one 10-minute device call); each check gets at most 60 s and never more
# than the deadline leaves; the checks the deadline leaves no time for are reported SKIPPED
# (deadline). Order by value: devices, the GPU tests (the gate), the bandwidth-vs-PyTorch block,
# the verified copy cases, link, io, GPUD. The exit code is the number of FAILs (128 + the signal when stopped by one).
set -uo pipefail
cd "$(dirname "$0")/.."
self="$PWD/scripts/gpu_check.sh"
mode="${1:-}"
# GPU_CHECK_BUNDLE: another bundle directory (the suite's dry run points it at the build's own binary).
bundle=$(realpath -m "${GPU_CHECK_BUNDLE:-build/gpu-bundle}")

make_bundle() {
  set -e
  # BUILD=DIR reuses a configured build directory (any optimized build type) instead of build/gpu.
  local build="${BUILD:-build/gpu}"
  [ -f "$build/build.ninja" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  # The GPU tests (tests/cuda/cuda_gpu_tests: the gate) always go along: a build without them
  # (configured without tests, or without a CUDA toolkit) is refused, not bundled short.
  if ! ninja -C "$build" -t targets all 2>/dev/null | grep -q '^cuda_gpu_tests:'; then
    echo "gpu_check bundle: $build has no cuda_gpu_tests (configured without tests, or without a CUDA toolkit): configure it with both, or leave BUILD unset" >&2
    exit 2
  fi
  # The UCX transport is a module too (its libucp is bundled below); MPI's is left behind (no check
  # runs MPI on the GPU machine).
  local gpu_tests=(cuda_gpu_tests)
  ninja -C "$build" xferbench xferbench_backend_cuda xferbench_transport_ucx "${gpu_tests[@]}"
  rm -rf "$bundle"
  mkdir -p "$bundle/bin/modules" "$bundle/lib"
  # No dialect links: the check calls `xferbench dev-sandbox ...` (a link may not survive the trip).
  strip -o "$bundle/bin/xferbench" "$build/src/xferbench"
  strip -o "$bundle/bin/modules/libxferbench-backend-cuda.so" "$build/src/modules/libxferbench-backend-cuda.so"
  strip -o "$bundle/bin/modules/libxferbench-transport-ucx.so" "$build/src/modules/libxferbench-transport-ucx.so"
  local binaries=("$build/src/xferbench" "$build/tests/cuda/cuda_gpu_tests")
  strip -o "$bundle/bin/cuda_gpu_tests" "$build/tests/cuda/cuda_gpu_tests"
  # The toolkit the module is built with, for the report's first lines.
  sed -n 's/^CMAKE_CUDA_COMPILER_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt" >"$bundle/toolkit.txt"
  # Every shared library but the C and C++ runtimes, which the GPU machine has (newer).
  ldd "${binaries[@]}" "$build/src/modules/libxferbench-backend-cuda.so" \
    "$build/src/modules/libxferbench-transport-ucx.so" | awk '/=> \//{print $3}' | sort -u |
    grep -Ev '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux-x86-64)\.so' |
    while read -r lib; do cp -L "$lib" "$bundle/lib/"; done
  # UCX loads its transports from <dir of libucs>/ucx.
  if [ -d /usr/lib/x86_64-linux-gnu/ucx ]; then
    mkdir -p "$bundle/lib/ucx"
    cp -L /usr/lib/x86_64-linux-gnu/ucx/*.so.0 "$bundle/lib/ucx/"
    for f in "$bundle"/lib/ucx/*.so.0; do cp "$f" "${f%.0}"; done  # copies, not links (as above)
    # Their own dependencies (libibverbs, librdmacm, ...) where the UCX modules have them.
    ldd /usr/lib/x86_64-linux-gnu/ucx/*.so.0 | awk '/=> \//{print $3}' | sort -u |
      grep -Ev '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux-x86-64)\.so' |
      while read -r lib; do [ -e "$bundle/lib/$(basename "$lib")" ] || cp -L "$lib" "$bundle/lib/"; done
  fi
  du -sh "$bundle"
}

# find-cufile: every libcufile.so.0 this machine has, best first, one "PATH<TAB>HOW" line each (run
# by `run` as a bounded step). The toolkit's, then the CUDA 13 wheels' (site-packages/nvidia/cu13/lib),
# the nvidia-cufile wheel's (site-packages/nvidia/cufile/lib), then cuda-pathfinder's answer.
find_cufile() {
  local d py sites=() seen=" "
  {
    ldconfig -p 2>/dev/null | awk '/libcufile\.so\.0 /{print $NF "\tldconfig"}'
    for d in ${CUDA_HOME:+"$CUDA_HOME/lib64"} ${CUDA_PATH:+"$CUDA_PATH/lib64"} /usr/local/cuda/lib64 /usr/local/cuda*/lib64 \
             /usr/local/cuda*/targets/*/lib /usr/lib/x86_64-linux-gnu /usr/lib64; do
      printf '%s\ttoolkit\n' "$d/libcufile.so.0"
    done
    # Every python3's site-packages and dist-packages, asked of each interpreter in this environment.
    for py in "$(command -v python3 2>/dev/null)" /usr/bin/python3 /usr/local/bin/python3 /opt/conda/bin/python3; do
      [ -x "$py" ] || continue
      py=$(readlink -f "$py"); case "$seen" in *" $py "*) continue ;; esac; seen+="$py "
      while read -r d; do sites+=("$d"); done < <(timeout 20 "$py" -c '
import site, sys
dirs = list(site.getsitepackages())
try:
    dirs.append(site.getusersitepackages())
except Exception:
    pass
dirs += [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
print("\n".join(dirs))' 2>/dev/null)
    done
    sites+=(/usr/lib/python3/dist-packages /usr/lib/python3*/dist-packages /usr/local/lib/python3*/site-packages
            /usr/local/lib/python3*/dist-packages /opt/conda/lib/python3*/site-packages)
    for d in "${sites[@]}"; do printf '%s\twheel nvidia/cu13\n' "$d/nvidia/cu13/lib/libcufile.so.0"; done
    for d in "${sites[@]}"; do printf '%s\twheel nvidia-cufile\n' "$d/nvidia/cufile/lib/libcufile.so.0"; done
    timeout 30 python3 -c 'import cuda.pathfinder as p; print(p.load_nvidia_dynamic_lib("cufile").abs_path)' 2>/dev/null |
      awk '{print $0 "\tcuda-pathfinder"}'
    for d in "${sites[@]}"; do printf '%s\twheel\n' "$d"/nvidia/cu*/lib/libcufile.so.0; done
  } | while IFS=$'\t' read -r f how; do [ -e "$f" ] && printf '%s\t%s\t%s\n' "$f" "$how" "$(readlink -f "$f")"; done |
    awk -F'\t' '!seen[$3]++ {print $1 "\t" $2}'  # one line per library, however many links lead to it
}

# env-info: what env.txt records about this machine (run by `run` as a bounded step).
env_info() {
  date -u
  uname -a
  grep -m1 'model name' /proc/cpuinfo; nproc; free -g
  [ -r /etc/os-release ] && grep -E '^(PRETTY_NAME|VERSION_ID)=' /etc/os-release
  echo "LD_LIBRARY_PATH (the machine's own, for PyTorch and nvidia-smi)=${LD_LIBRARY_PATH:-}"
  echo "nvidia-fs: $(ls -d /proc/driver/nvidia-fs 2>/dev/null || echo absent)"
  echo "--- ldconfig: libcuda, libcufile"; ldconfig -p 2>/dev/null | grep -E 'libcuda\.|libcufile'
  echo "--- python3"; command -v python3 && python3 --version
  echo "--- nvidia-smi"; nvidia-smi; nvidia-smi -L; nvidia-smi topo -m; nvidia-smi nvlink -s; nvidia-smi -q
}

# ---- run ---------------------------------------------------------------------------------------
now_ms() {
  local t=${EPOCHREALTIME:-}
  if [ -n "$t" ]; then t=${t//[.,]/}; echo $((t / 1000)); else date +%s%3N; fi
}
secs_since() { local d=$(($(now_ms) - $1)); printf '%d.%d' $((d / 1000)) $((d % 1000 / 100)); }

# Builtins only: a signal sent to the whole process group must not take a report line with it.
report() { echo "$*"; echo "$*" >>"$results/report.txt"; }

per_check_s=60   # at most, per check
reserve_s=15     # kept back from the deadline for the finish (ratios, the archive, $OUT)
min_check_s=5    # a check with less than this left is SKIPPED (deadline)
fails=0 skipped=0 child='' stop_reason='' skip_reason='' completed='' finished=''

# bounded LOG CMD...: CMD with its output appended to LOG, under a timeout of per_check_s or what
# the deadline leaves, whichever is less, in the background so that a signal's trap runs at once.
# Returns CMD's exit code (124: its timeout), or 200 with skip_reason set when it was not started.
bounded() {
  local log="$1"; shift
  skip_reason=''
  if [ -n "$stop_reason" ]; then skip_reason=$stop_reason; return 200; fi
  local left=$(((deadline_ms - $(now_ms)) / 1000 - reserve_s - 5))  # 5: timeout's -k grace
  if [ "$left" -lt "$min_check_s" ]; then skip_reason=deadline; return 200; fi
  timeout -k 5 $((left < per_check_s ? left : per_check_s)) "$@" >>"$log" 2>&1 </dev/null &
  child=$!
  wait "$child"
  local rc=$?
  # A trapped signal ends `wait` early (rc > 128); the trap has told the child to stop: reap it.
  if [ "$rc" -gt 128 ] && [ -n "$stop_reason" ]; then wait "$child"; rc=$?; fi
  child=''
  return "$rc"
}

# check NAME EXPECTED_RC COMMAND...: runs it (bounded), logs it to logs/NAME.log, and reports PASS or
# FAIL by exit code with its wall time; SKIPPED where the deadline or a signal left it no time.
# Every check but those in host_checks is one of the CUDA backend: it PASSes only when it ran there
# (its log has no note of the cpu backend, and an exit 3 is the reason wanted, not a missing
# driver: check_says). EXPECTED_RC "fail": any clean failure (an exit code, not a signal or the timeout).
host_checks=" devices torch-reference "
gpu_passes=0 want_text=''
check() {
  local name="$1" want="$2"; shift 2
  local log="$logs/$name.log" t0 rc took
  printf '$ %s\n' "$*" >"$log"
  t0=$(now_ms)
  bounded "$log" "$@"; rc=$?
  took=$(secs_since "$t0")
  if [ "$rc" = 200 ]; then
    report "SKIPPED $name ($skip_reason)"; skipped=$((skipped + 1)); rm -f "$log"; return
  fi
  echo "[exit $rc after $took s]" >>"$log"
  local on_gpu=1 why_not=''
  case "$host_checks" in *" $name "*) on_gpu=0 ;; esac
  if ((on_gpu)); then
    if grep -q 'cpu backend' "$log"; then
      why_not="ran on the cpu backend, not the GPU"
    elif [ -n "$want_text" ] && ! grep -qF -- "$want_text" "$log"; then
      why_not="exit $rc without '$want_text'"
    elif [ "$rc" = 3 ] && grep -qE 'libcuda\.so\.1 cannot be loaded|needs a driver for CUDA' "$log"; then
      why_not="the CUDA backend cannot run here (no driver, or one too old)"
    fi
  fi
  if [ -n "$why_not" ] && { [ "$rc" = "$want" ] || [ "$want" = fail ]; }; then
    report "FAIL $name ($why_not; $took s; logs/$name.log)"; fails=$((fails + 1))
  elif [ "$rc" = "$want" ] || { [ "$want" = fail ] && [ "$rc" -ne 0 ] && [ "$rc" -lt 124 ]; }; then
    report "PASS $name ($took s)"
    ((on_gpu)) && gpu_passes=$((gpu_passes + 1))
  elif [ -n "$stop_reason" ]; then
    report "STOPPED $name ($stop_reason after $took s; logs/$name.log)"; skipped=$((skipped + 1))
  elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    report "FAIL $name (timed out after $took s, want exit $want; logs/$name.log)"; fails=$((fails + 1))
  else
    report "FAIL $name (exit $rc, want $want; $took s; logs/$name.log)"; fails=$((fails + 1))
  fi
}

# check_says NAME EXPECTED_RC TEXT COMMAND...: check, and the log must say TEXT (a refusal that is
# the one meant, not another exit with the same code).
check_says() {
  local name="$1" want="$2"; want_text="$3"; shift 3
  check "$name" "$want" "$@"
  want_text=''
}

on_signal() {
  if [ -z "$stop_reason" ]; then
    report "NOTE $1 after $(secs_since "$start_ms") s: the check under way is stopped, the rest are SKIPPED ($1)"
  fi
  stop_reason=$1
  [ -n "$child" ] && kill -TERM "$child" 2>/dev/null
}

# The finish, from the EXIT trap: the ratios, the io figures, the archive, and the three files in $OUT.
finish() {
  local rc=$?
  [ -n "$finished" ] && return
  finished=1
  [ -n "$child" ] && kill -TERM "$child" 2>/dev/null
  [ -z "$completed" ] && [ -z "$stop_reason" ] && report "NOTE the run ended early (exit $rc): the checks after the last line did not run"
  timeout 20 python3 - "$results" >"$results/ratios.txt" 2>>"$logs/ratios.log" <<'PY' || echo "no ratios: python3 failed (logs/ratios.log)" >>"$results/ratios.txt"
import glob, json, os, sys
out = sys.argv[1]
print("ratios: xferbench copy --backend cuda vs PyTorch's copies of the same bytes (16 blocks of 64 MiB), same run")
torch = None
try:
    torch = json.load(open(os.path.join(out, "torch.json")))
    print(f"torch {torch['torch']} on {torch['device']}: h2d {torch['h2d']:.2f} GB/s, d2h {torch['d2h']:.2f} GB/s, d2d {torch['d2d']:.2f} GB/s")
except FileNotFoundError:
    print("no torch figures: torch.json was not written (logs/torch-reference.log)")
except Exception as e:
    print(f"no torch figures: torch.json: {type(e).__name__}: {e} (logs/torch-reference.log)")
    torch = None
rows = []
notes = {}
order = {"ce_s1": 0, "ce_s4": 1, "batch_s4": 2, "sm_s1": 3}
for f in glob.glob(os.path.join(out, "xb_*.json")):
    try:
        _, direction, engine, streams = os.path.basename(f)[:-5].split("_")
        case = json.load(open(f))["cases"][0]
        gbs = next(m.get("display_value", m["value"]) for m in case["metrics"] if m["name"] == "bandwidth_decimal")
        # How batches went out (api, graph: why, loop: why) and the submit time: a batch figure
        # means little without them.
        how = "; ".join(case.get("config", {}).get("submission", []))
        submit = next((s["summary"]["avg"] for s in case.get("series", []) if s["name"] == "submit"), None)
        notes[(direction, engine, streams)] = (how, submit)
        rows.append((direction, engine, streams, gbs))
    except Exception as e:
        print(f"unreadable {os.path.basename(f)}: {type(e).__name__}: {e}")
rows.sort(key=lambda r: (("h2d", "d2h", "d2d").index(r[0]) if r[0] in ("h2d", "d2h", "d2d") else 9, order.get(f"{r[1]}_{r[2]}", 9)))
if not rows:
    print("no xferbench figures: no bandwidth run wrote its JSON (logs/bandwidth-*.log)")
ceiling = max([g for d, e, s, g in rows if d == "d2d"] + ([torch["d2d"]] if torch else []), default=None)
for direction, engine, streams, gbs in rows:
    line = f"{direction} {engine} x{streams[1:]}: xferbench {gbs:.2f} GB/s"
    if torch:
        line += f", torch {torch[direction]:.2f} GB/s, ratio {gbs / torch[direction]:.3f}"
    if direction == "d2d" and ceiling:
        line += f"; of the copy ceiling {ceiling:.2f} GB/s (best d2d here): {gbs / ceiling:.3f}"
    how, submit = notes.get((direction, engine, streams), ("", None))
    if submit is not None:
        line += f"; submit avg {submit:.1f} us"
    if how:
        line += f"; submission {how}"
    print(line)
for direction in ("h2d", "d2h"):
    ce = [g for d, e, s, g in rows if d == direction and e == "ce"]
    what = f"TARGET {direction} pinned 64 MiB, best ce, >= 0.98 of torch:"
    if ce and torch:
        r = max(ce) / torch[direction]
        print(f"{what} {r:.3f} {'MET' if r >= 0.98 else 'MISSED'}")
    else:
        print(f"{what} NOT JUDGED (no {'xferbench' if not ce else 'torch'} figure)")
d2d = [g for d, e, s, g in rows if d == "d2d" and e in ("ce", "batch")]
what = "TARGET d2d, best ce or batch, >= 0.9 of the copy ceiling:"
if d2d:
    r = max(d2d) / ceiling
    print(f"{what} {r:.3f} {'MET' if r >= 0.9 else 'MISSED'}")
else:
    print(f"{what} NOT JUDGED (no xferbench figure)")
PY
  local f line
  while IFS= read -r line; do report "$line"; done <"$results/ratios.txt"
  for f in "$results"/io_*.json; do
    [ -e "$f" ] || continue
    line=$(timeout 10 python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['cases'][0]; print('io', c['name'], *[f\"{m['name']}={m.get('display_value', m['value']):.2f} {m.get('display_unit', m['unit'])}\" for m in c['metrics'] if m['name'] in ('throughput','iops')], c['config'].get('direct_storage_mode', ''))" "$f" 2>>"$logs/ratios.log") &&
      report "$line"
  done
  report "fails: $fails, skipped: $skipped; $(secs_since "$start_ms") s of the ${deadline_s} s deadline"
  # The first lines: what ran where, and how much of it on the GPU.
  {
    echo "card: ${card:-none seen (no answer from nvidia-smi)}"
    echo "driver: ${driver:-none seen}${driver_cuda:+ (supports CUDA $driver_cuda)}"
    echo "module toolkit: $(if [ -s "$bundle/toolkit.txt" ]; then echo "CUDA $(cat "$bundle/toolkit.txt")"; else echo "unknown (no toolkit.txt in the bundle)"; fi)"
    echo "checks on the GPU: $gpu_passes passed on the CUDA backend"
    cat "$results/report.txt"
  } >"$results/report.head" && mv "$results/report.head" "$results/report.txt"
  mkdir -p "$out"
  rm -f "$out/report.txt" "$out/ratios.txt" "$out/results.tgz"
  tar -C "$scratch" -czf "$out/results.tgz" results || echo "results.tgz: tar failed" >&2
  cp "$results/report.txt" "$results/ratios.txt" "$out/"
  rm -rf "$scratch"
  case "$stop_reason" in
    TERM) exit 143 ;; INT) exit 130 ;; HUP) exit 129 ;;
    *) exit $((fails > 100 ? 100 : fails)) ;;
  esac
}

run_checks() {
  start_ms=$(now_ms)
  deadline_s="${GPU_CHECK_DEADLINE_S:-480}"
  deadline_ms=$((start_ms + deadline_s * 1000))
  out="${OUT:-$PWD/gpu-check-out}"
  # Scratch next to the repository (a real disk, for the io files), never under $OUT.
  scratch=$(mktemp -d "$PWD/.gpu-check.XXXXXX") || exit 1
  results="$scratch/results" logs="$scratch/results/logs" work="$scratch/work"
  mkdir -p "$logs" "$work"
  : >"$results/report.txt"
  trap finish EXIT
  trap 'on_signal TERM' TERM
  trap 'on_signal INT' INT
  trap 'on_signal HUP' HUP

  # The bundle's libraries are for xferbench alone: PyTorch, nvidia-smi and python3 get the machine's
  # own LD_LIBRARY_PATH (the driver may be found through it), with only the bundle's directories removed.
  local lib="$bundle/lib" host_ld='' d
  local IFS_=$IFS; IFS=:
  for d in ${LD_LIBRARY_PATH:-}; do
    case "$d" in "$lib" | "$lib/" | "$lib/ucx") ;; *) host_ld+="${host_ld:+:}$d" ;; esac
  done
  IFS=$IFS_
  if [ -n "$host_ld" ]; then export LD_LIBRARY_PATH="$host_ld"; else unset LD_LIBRARY_PATH; fi
  # The binary finds its module in <exe>/modules itself: no XFERBENCH_MODULE_PATH.
  local xb=(env "LD_LIBRARY_PATH=$lib${host_ld:+:$host_ld}" "$bundle/bin/xferbench")
  [ -x "$bundle/bin/xferbench" ] || report "FAIL no $bundle/bin/xferbench here: carry build/gpu-bundle (made by: bash scripts/gpu_check.sh bundle)"
  [ -n "$(ls -A "$out" 2>/dev/null)" ] && report "NOTE $out already holds files; this run replaces report.txt, ratios.txt and results.tgz"
  report "GPU check: deadline ${deadline_s} s, at most ${per_check_s} s a check; scratch $scratch"

  # ---- the machine
  bounded "$results/env.txt" bash "$self" env-info
  local smi='' gpus=0
  card='' driver='' driver_cuda=
  bounded "$logs/nvidia-smi-query.log" nvidia-smi --query-gpu=name,driver_version --format=csv,noheader &&
    smi=$(cat "$logs/nvidia-smi-query.log")
  if [ -n "$smi" ]; then
    driver=$(echo "$smi" | head -1 | awk -F', ' '{print $2}')
    gpus=$(echo "$smi" | grep -c .)
    card="$(echo "$smi" | head -1 | awk -F', ' '{print $1}') x$gpus"
    driver_cuda=$(sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' "$results/env.txt" | head -1)
    report "machine: $(echo "$smi" | head -1 | awk -F', ' '{print $1}') x$gpus, driver $driver, $(date -u +%F)"
  else
    report "machine: no answer from nvidia-smi (env.txt), $(date -u +%F)"
  fi
  # A module built with CUDA 13 needs an R580 driver or newer: the module says so itself (exit 3,
  # naming both versions), and this says it once.
  case "$(cat "$bundle/toolkit.txt" 2>/dev/null)" in
    13.*) [ -n "$driver" ] && [ "${driver%%.*}" -lt 580 ] 2>/dev/null &&
      report "NOTE driver $driver is older than R580, which the module's CUDA 13 runtime needs: every CUDA check will FAIL" ;;
  esac
  # O_DIRECT where the filesystem has it (a tmpfs or overlay may not): else buffered IO, said so.
  local io_mode=() kinds=(pageable shm odirect)
  if ! bounded "$logs/odirect-probe.log" dd if=/dev/zero of="$work/probe" bs=4096 count=1 oflag=direct &&
    [ -z "$skip_reason" ] && [ -z "$stop_reason" ]; then
    io_mode=(--buffered); kinds=(pageable shm)
    report "NOTE no O_DIRECT on $(df -T "$work" | awk 'NR==2{print $2}') here: io runs buffered, the odirect kind and gdsio are skipped"
  fi
  rm -f "$work/probe"

  # ---- 1. devices
  check devices 0 "${xb[@]}" devices
  if [ -e "$logs/devices.log" ]; then
    if grep -q "backend cuda" "$logs/devices.log" && grep -q "cuda::device::0" "$logs/devices.log"; then
      report "PASS devices-lists-cuda"
    else
      report "FAIL devices-lists-cuda (logs/devices.log)"; fails=$((fails + 1))
    fi
    # NVML read in the probe (issue 17): every CUDA device says what it found of its NVLinks or why
    # nothing was read; the note goes into the report so docs/cuda.md can record it.
    local nvlinks
    nvlinks=$(grep -m1 '^    peer links: ' "$logs/devices.log" || true)
    if [ -n "$nvlinks" ]; then
      report "PASS devices-reads-nvlinks (${nvlinks#    peer links: })"
    else
      report "FAIL devices-reads-nvlinks: no 'peer links:' note under a CUDA device (logs/devices.log)"; fails=$((fails + 1))
    fi
  fi

  # ---- 1b. the module's runtime parts on the GPU (tests/cuda/cuda_gpu_test.cpp): the gate that
  # holds p2p's windows until they are queued whole, on one GPU as on many
  if [ -x "$bundle/bin/cuda_gpu_tests" ]; then
    check gpu-tests 0 env "LD_LIBRARY_PATH=$lib${host_ld:+:$host_ld}" "$bundle/bin/cuda_gpu_tests"
    grep -q 'SKIPPED' "$logs/gpu-tests.log" 2>/dev/null && { report "FAIL gpu-tests-ran: a GPU test skipped (logs/gpu-tests.log)"; fails=$((fails + 1)); }
  else
    report "NOTE the bundle has no cuda_gpu_tests (built without tests): the gate is not checked"
  fi

  # ---- 2. bandwidth: xferbench and PyTorch on the same bytes (16 blocks of 64 MiB), same run
  local common=(-s 64M -n 16 -i 20 --warmup 3 --format json -q) cfg from to dir engine streams
  for d in "pinned device h2d" "device pinned d2h" "device device d2d"; do
    read -r from to dir <<<"$d"
    for cfg in "ce 1" "ce 4" "batch 4" "sm 1"; do
      read -r engine streams <<<"$cfg"
      check "bandwidth-$dir-$engine-x$streams" 0 "${xb[@]}" copy --backend cuda -d 1 --from "$from" --to "$to" --engine "$engine" \
        --streams "$streams" "${common[@]}" -o "$results/xb_${dir}_${engine}_s${streams}.json"
    done
  done
  check torch-reference 0 env PYTHONUNBUFFERED=1 python3 bench/gpu_torch_copy.py --size $((64 << 20)) --blocks 16 \
    --iterations 20 --warmup 3 -o "$results/torch.json"

  # ---- 3. correctness: every engine x direction, with every destination byte checked; odd sizes
  # reach the sm kernel's byte tail and misaligned blocks
  local kind path
  for engine in ce batch sm; do
    for d in "pinned device" "device pinned" "device device"; do
      read -r from to <<<"$d"
      check "verify-$engine-$from-$to" 0 "${xb[@]}" copy --backend cuda --engine "$engine" --from "$from" --to "$to" -s 4M -n 8 -i 2 --warmup 1 --verify -q
      check "verify-odd-$engine-$from-$to" 0 "${xb[@]}" copy --backend cuda --engine "$engine" --from "$from" --to "$to" -s 1000003 -n 3 -i 2 --warmup 1 --verify -q
    done
  done
  for kind in "${kinds[@]}"; do
    check "verify-ce-$kind-device" 0 "${xb[@]}" copy --backend cuda --from "$kind" --to device -s 4M -n 4 -i 2 --warmup 1 --verify --odirect-dir "$work" -q
    check "verify-ce-device-$kind" 0 "${xb[@]}" copy --backend cuda --from device --to "$kind" -s 4M -n 4 -i 2 --warmup 1 --verify --odirect-dir "$work" -q
  done
  for path in api graph; do
    check "verify-batch-$path-fragments" 0 env "XFERBENCH_CUDA_BATCH=$path" "${xb[@]}" copy --backend cuda --batch -f 16 -s 4M -n 8 -i 2 --warmup 1 --verify -q
  done
  check_says sm-refuses-pageable 3 "the sm engine copies through device addresses" "${xb[@]}" copy --backend cuda --engine sm --from pageable --to device -s 4M -n 2 -i 1 -q
  check dev-sandbox-sdma 0 "${xb[@]}" dev-sandbox --model-type gqa --iodirect false --sdma true -s 64M -n 4 -i 8 -d 1 -f 4 --verify
  check dev-sandbox-ce 0 "${xb[@]}" dev-sandbox --model-type gqa --iodirect false --sdma false -s 64M -n 4 -i 8 -d 1 --verify

  # ---- 4. link with GPU memory on one side (staged through pinned memory), P2P where there are two GPUs
  check link-host-cuda-tcp 0 "${xb[@]}" link --transport tcp -M host:cuda -s 4K:8M -i 20 -x 5 --check
  check link-cuda-cuda-ucx 0 "${xb[@]}" link -M cuda:cuda -s 4K:8M -i 20 -x 5 --check
  if [ "$gpus" -ge 2 ]; then
    check p2p-verify 0 "${xb[@]}" p2p --backend cuda --ds 0 --dd 1 --direction both -s 64M --et 5 --verify
    check p2p-matrix 0 "${xb[@]}" p2p --backend cuda --all-pairs --direction both -s 256M --et 20 --format json -o "$results/p2p.json"
  else
    report "NOTE $gpus GPU(s) seen: P2P not measured"
  fi

  # ---- 5. io CPU_GPU on a local file: write, then read back into device memory with every byte checked
  # io_uring may be refused here (a container's seccomp profile): then the io checks use libaio.
  local io_engine=io_uring
  bounded "$logs/io-uring-probe.log" "${xb[@]}" io -D "$work" --rw write -s 64K -i 4K --engine io_uring "${io_mode[@]}" -q
  case $? in
    0) ;;
    200) ;;
    *) io_engine=libaio; report "NOTE io_uring is refused here (logs/io-uring-probe.log): the io checks use libaio" ;;
  esac
  rm -f "$work"/xferbench-io.*
  check io-cpu-gpu-write 0 "${xb[@]}" io --xfer cpu-gpu --backend cuda -D "$work" --rw write -s 1G -i 1M --engine "$io_engine" --qd 8 "${io_mode[@]}" --format json -o "$results/io_write.json" -q
  check io-cpu-gpu-read-verify 0 "${xb[@]}" io --xfer cpu-gpu --backend cuda -D "$work" --rw read -s 1G -i 1M --engine "$io_engine" --qd 8 "${io_mode[@]}" --verify -q
  check io-cpu-gpu-read 0 "${xb[@]}" io --xfer cpu-gpu --backend cuda -D "$work" --rw read -s 1G -i 1M --engine "$io_engine" --qd 8 "${io_mode[@]}" --format json -o "$results/io_read.json" -q
  if [ ${#io_mode[@]} -eq 0 ]; then  # gdsio always uses O_DIRECT; its read needs the files its write leaves
    check gdsio-cpu-gpu-write 0 "${xb[@]}" gdsio -D "$work" -d 0 -w 1 -s 1G -i 1M -x 2 -I 1
    check gdsio-cpu-gpu 0 "${xb[@]}" gdsio -D "$work" -d 0 -w 1 -s 1G -i 1M -x 2 -I 0
  fi
  rm -f "$work"/xferbench-io.*

  # ---- 6. GPUD through cuFile, which the module loads at run time (dlopen libcufile.so.0): from the
  # toolkit, the CUDA 13 wheels, the nvidia-cufile wheel or cuda-pathfinder, wherever this machine has it.
  local cufile='' how=''
  bounded "$logs/cufile-lookup.log" bash "$self" find-cufile
  IFS=$'\t' read -r cufile how < <(grep -m1 $'\t' "$logs/cufile-lookup.log")
  export CUFILE_LOGFILE_PATH="$logs/cufile.log"
  if [ -n "$cufile" ] && [ -z "$stop_reason" ]; then
    local mode_note="GPUDirect Storage (nvidia-fs loaded)"
    if [ ! -e /proc/driver/nvidia-fs ]; then
      # No nvidia-fs: cuFile can only move data with POSIX IO through its host buffers (compat
      # mode), which its configuration must allow (properties.allow_compat_mode).
      mode_note="compat mode (/proc/driver/nvidia-fs is absent: POSIX IO through cuFile's host buffers; cufile.json allows it)"
      printf '{\n  "logging": { "dir": "%s", "level": "INFO" },\n  "properties": { "allow_compat_mode": true }\n}\n' "$logs" >"$results/cufile.json"
      export CUFILE_ENV_PATH_JSON="$results/cufile.json"
    fi
    report "NOTE cuFile: $cufile (found through $how); GPUD runs in $mode_note"
    local gpud=(env "LD_LIBRARY_PATH=$lib:$(dirname "$cufile")${host_ld:+:$host_ld}" "$bundle/bin/xferbench")
    check io-gpud-write 0 "${gpud[@]}" io --xfer gpu-direct --backend cuda -D "$work" --rw write -s 1G -i 1M -w 4 "${io_mode[@]}" --format json -o "$results/io_gpud_write.json" -q
    check io-gpud-read-verify 0 "${gpud[@]}" io --xfer gpu-direct --backend cuda -D "$work" --rw randread -s 1G -i 1M -w 4 "${io_mode[@]}" --verify -q
    check io-gpud-read 0 "${gpud[@]}" io --xfer gpu-direct --backend cuda -D "$work" --rw read -s 1G -i 1M -w 4 "${io_mode[@]}" --format json -o "$results/io_gpud_read.json" -q
    if [ ${#io_mode[@]} -eq 0 ]; then
      check gdsio-gpud-write 0 "${gpud[@]}" gdsio -D "$work" -d 0 -w 4 -s 1G -i 1M -x 0 -I 1
      check gdsio-gpud 0 "${gpud[@]}" gdsio -D "$work" -d 0 -w 4 -s 1G -i 1M -x 0 -I 0
    fi
  else
    [ -z "$stop_reason" ] && report "NOTE no libcufile.so.0 on this machine (logs/cufile-lookup.log): GPUD is not measured, and must say why (exit 3)"
    check_says io-gpud-unavailable 3 "GPUD needs NVIDIA GPUDirect Storage's cuFile library" "${xb[@]}" io --xfer gpu-direct --backend cuda -D "$work" --rw write -s 64M -i 1M "${io_mode[@]}" -q
  fi
  rm -f "$work"/xferbench-io.*
  completed=1
}

case "$mode" in
  bundle) make_bundle ;;
  run) run_checks; exit 0 ;;  # the EXIT trap finishes and sets the exit code
  find-cufile) find_cufile ;;
  env-info) env_info ;;
  *) echo "usage: bash scripts/gpu_check.sh bundle|run" >&2; exit 2 ;;
esac
