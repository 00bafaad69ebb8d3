#!/usr/bin/env bash
# Man pages from the program's own help (issue 18 item 9): xferbench(1) from `xferbench --help`,
# and xferbench-COMMAND(1) from `xferbench COMMAND --help` for every command it lists, each through
# Debian's help2man (a well-kept converter of --help output; nothing written by hand to drift
# from the program). Gzipped (Debian policy).
# Usage: make_man_pages.sh HELP2MAN XFERBENCH VERSION OUT_DIR
# Fails (and so the build) when a command's --help fails: help2man itself takes any output.
set -euo pipefail
help2man=$1 xb=$2 version=$3 out=$4
mkdir -p "$out"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
# A program named NAME that runs `xferbench ARGS...`: help2man names the page after the program it
# runs, and runs it through the shell unquoted, so the program's own path has no space in it.
wrapper() {
  local name=$1
  shift
  {
    printf '#!/bin/sh\nexec %q' "$xb"
    for arg in "$@"; do printf ' %q' "$arg"; done
    printf ' "$@"\n'
  } >"$work/$name"
  chmod +x "$work/$name"
}
page() {  # page NAME SUMMARY: the wrapper NAME's --help as NAME(1)
  if ! "$work/$1" --help >/dev/null 2>"$work/help.err"; then
    echo "make_man_pages: $1 --help failed: $(head -c 300 "$work/help.err")" >&2
    exit 1
  fi
  (cd "$work" && "$help2man" --no-info --section 1 --version-string "$version" --name "$2" --output "$1.1" "./$1")
  gzip -9n -c "$work/$1.1" >"$out/$1.1.gz"
}
wrapper xferbench
page xferbench "measure every path data takes in an AI cluster"
count=0
while read -r name summary; do
  [ -n "$name" ] || continue
  wrapper "xferbench-$name" "$name"
  page "xferbench-$name" "$summary"
  count=$((count + 1))
done < <("$xb" --help | sed -n '/^commands:/,$p' | tail -n +2)
[ "$count" -gt 0 ] || { echo "make_man_pages: no command listed by $xb --help" >&2; exit 1; }
