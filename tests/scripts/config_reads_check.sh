#!/usr/bin/env bash
# Renderers, dialects and commands read a case's configuration through the job's typed record
# (`case.config.get<CopyConfig>()`, jobs/*/..._config.hpp), not by string keys (issue 16, item 7):
# a key spelled in a reader drifts from the job that writes it. This check lists the files under
# src/report, src/dialects, src/cli and src/judge that still read `config` by key, and fails on one that is not
# in the list below, and on one in the list that no longer does (so the list only shrinks).
# Usage: config_reads_check.sh SRC_DIR
set -euo pipefail
src=${1:?usage: config_reads_check.sh SRC_DIR}
[ -d "$src" ] || { echo "config_reads_check.sh: $src is not a directory" >&2; exit 2; }

# report_model.cpp reads whichever size key a case of any job has: a generic reader, by design.
allowed=(
  report/report_model.cpp
)

mapfile -t found < <(cd "$src" && grep -rlE 'config(\.at|\.value|\.contains|\.find)\(|config\["|= *[a-z_.]*\bconfig;' \
  report dialects cli judge --include='*.cpp' | sort)
bad=0
for f in "${found[@]}"; do
  case " ${allowed[*]} " in
    *" $f "*) ;;
    *) grep -nE 'config(\.at|\.value|\.contains|\.find)\(|config\["|= *[a-z_.]*\bconfig;' "$src/$f" |
         sed "s|^|config reads: $f:|; s|\$| (read the job's typed config record instead)|"
       bad=1 ;;
  esac
done
for f in "${allowed[@]}"; do
  case " ${found[*]} " in
    *" $f "*) ;;
    *) echo "config reads: $f no longer reads config by key: take it off the list in $0"; bad=1 ;;
  esac
done
((bad)) && exit 1
echo "config reads: ${#found[@]} files still read config by key, each one listed"
