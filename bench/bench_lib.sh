# Sourced by the bench/ scripts: our figures read from the result JSON by name (never a column's
# place or a table's header), every compared figure checked before a ratio is printed, medians.
# SMOKE=1 (set by the caller): tiny sizes, one round, no warm-up, for CI, where a figure that is
# missing, zero or unparsable fails the script exactly as in a full run.

# xb_metric FILE NAME [CASE]: metric NAME of case CASE (an index, default 0; or a case name) of our
# --format json document FILE, in the JSON's unit (B/s, s, …). Exit 1 naming what is missing.
xb_metric() { XB_SHOWN=0 xb_figure "$@"; }
# xb_shown FILE NAME [CASE]: the same metric as our table shows it (its display unit).
xb_shown() { XB_SHOWN=1 xb_figure "$@"; }
xb_figure() {
  python3 - "$@" <<'PY'
import json, os, sys
path, name = sys.argv[1], sys.argv[2]
which = sys.argv[3] if len(sys.argv) > 3 else "0"
key = "display_value" if os.environ.get("XB_SHOWN") == "1" else "value"
try:
    cases = json.load(open(path))["cases"]
    case = cases[int(which)] if which.isdigit() else next(c for c in cases if c["name"] == which)
    print(repr(float(next(m.get(key, m["value"]) for m in case["metrics"] if m["name"] == name))))
except (OSError, ValueError, KeyError, IndexError, StopIteration) as e:
    sys.exit(f"bench: no metric {name} in case {which} of {path} ({type(e).__name__}: {e})")
PY
}

# xb_series FILE NAME STAT [CASE]: statistic STAT (avg, p50, min, …) of series NAME of case CASE
# (as xb_metric) of our JSON document FILE, in the series' unit. Exit 1 naming what is missing.
xb_series() {
  python3 - "$@" <<'PY'
import json, sys
path, name, stat = sys.argv[1], sys.argv[2], sys.argv[3]
which = sys.argv[4] if len(sys.argv) > 4 else "0"
try:
    cases = json.load(open(path))["cases"]
    case = cases[int(which)] if which.isdigit() else next(c for c in cases if c["name"] == which)
    print(repr(float(next(s["summary"][stat] for s in case["series"] if s["name"] == name))))
except (OSError, ValueError, KeyError, IndexError, StopIteration) as e:
    sys.exit(f"bench: no series {name} ({stat}) in case {which} of {path} ({type(e).__name__}: {e})")
PY
}

# need_figure WHAT VALUE: VALUE when it is a positive finite number; otherwise exit 1 naming WHAT
# (a missing figure must never become a ratio).
need_figure() {
  if ! awk -v v="$2" 'BEGIN { exit !(v ~ /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/ && v + 0 > 0) }'; then
    echo "bench: $1 is missing, zero or not a number: '$2'" >&2
    exit 1
  fi
  printf '%s' "$2"
}

# ratio A B: A / B to three decimals, both checked first.
ratio() {
  need_figure "the figure over" "$1" >/dev/null
  need_figure "the figure under" "$2" >/dev/null
  awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# need_tool TOOL PACKAGE: TOOL on PATH, installing Debian's PACKAGE where it is not; exit 1 naming
# both when that fails.
need_tool() {
  command -v "$1" >/dev/null && return 0
  apt-get install -y -qq --no-install-recommends "$2" >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq --no-install-recommends "$2" >/dev/null 2>&1; } || true
  command -v "$1" >/dev/null || { echo "bench: $1 is needed (Debian package $2) and could not be installed" >&2; exit 1; }
}

# xb_build TARGET...: where BUILD is unset, the project's setup and a release build of TARGETs,
# then BUILD=build/release; a BUILD given is used as it is.
xb_build() {
  [[ -z ${BUILD:-} ]] || return 0
  bash scripts/setup.sh
  cmake --preset release >/dev/null
  cmake --build --preset release --target "$@" >/dev/null
  BUILD=build/release
}

# iperf3_write_size BLOCK: iperf3's -l for our BLOCK: the same, at most its 1 MiB limit ("block
# size too large (maximum = 1048576 bytes)"); a larger block of ours is compared with 1 MiB writes.
iperf3_write_size() { echo $(($1 < 1048576 ? $1 : 1048576)); }

# iperf3_client PORT OUT ARGS...: one iperf3 client run against the server iperf3_server started on
# PORT, its output into OUT; when it fails, that server is stopped (it would wait for ever) and the
# script exits 1 naming the run.
iperf3_client() {
  local port=$1 out=$2
  shift 2
  iperf3 -c 127.0.0.1 -p "$port" "$@" >"$out" 2>&1 && return 0
  kill "$IPERF3_SERVER" 2>/dev/null
  # Its error line, not the usage text it prints after a bad parameter.
  echo "bench: iperf3 -c 127.0.0.1 -p $port $* failed: $(grep -m1 'error' "$out" || tail -c 300 "$out")" >&2
  exit 1
}

# iperf3_server PORT LOG: an iperf3 server for exactly one test on PORT, started in the background
# (its pid in IPERF3_SERVER) and waited for until it listens (its LOG says so), never a fixed sleep.
# Exit 1 when it does not listen within 10 s.
iperf3_server() {
  : >"$2"
  # --forceflush: its stdout is a file, which it would otherwise write only at its end.
  iperf3 -s -1 -p "$1" --forceflush >"$2" 2>&1 &
  IPERF3_SERVER=$!
  local n=0
  until grep -q "Server listening" "$2"; do
    ((n++ < 1000)) && kill -0 "$IPERF3_SERVER" 2>/dev/null || {
      kill "$IPERF3_SERVER" 2>/dev/null
      echo "bench: iperf3 -s -p $1 did not listen: $(head -c 300 "$2")" >&2
      exit 1
    }
    sleep 0.01
  done
}
