#!/usr/bin/env bash
# Man pages from the program's own help (issue 18 item 9): xferbench(1) from `xferbench --help`,
# and xferbench-COMMAND(1) from `xferbench COMMAND --help` for every command it lists, each through
# Debian's help2man (a well-kept converter of --help output; nothing written by hand to drift
# from the program). Gzipped (Debian policy). Usage: make_man_pages.sh XFERBENCH VERSION OUT_DIR
set -euo pipefail
xb=$1 version=$2 out=$3
command -v help2man >/dev/null || { echo "make_man_pages: help2man is missing (scripts/setup.sh installs it)" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
page() {  # page NAME SUMMARY PROGRAM: PROGRAM's --help as NAME(1)
  help2man --no-info --no-discard-stderr --section 1 --version-string "$version" --name "$2" \
    --output "$work/$1.1" "$3"
  gzip -9n -c "$work/$1.1" >"$out/$1.1.gz"
}
page xferbench "measure every path data takes in an AI cluster" "$xb"
# A command's page: a program named xferbench-COMMAND that runs `xferbench COMMAND` (help2man names
# the page after the program it runs).
count=0
while read -r name summary; do
  [ -n "$name" ] || continue
  printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$xb" "$name" >"$work/xferbench-$name"
  chmod +x "$work/xferbench-$name"
  page "xferbench-$name" "$summary" "$work/xferbench-$name"
  count=$((count + 1))
done < <("$xb" --help | sed -n '/^commands:/,$p' | tail -n +2)
[ "$count" -gt 0 ] || { echo "make_man_pages: no command listed by $xb --help" >&2; exit 1; }
