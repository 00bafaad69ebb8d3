#!/usr/bin/env bash
# The help people read (issue 18 item 3): every native command's options name their values from the
# one vocabulary (src/cli/flag_vocabulary.cpp: SIZE, N, SECONDS, FILE…), never CLI11's bare TEXT;
# and no help's columns run together (the top-level list once printed "sharp_coll_testNVIDIA").
# Exit 0 when all hold; 1 naming each line that does not.
#   help_check.sh XFERBENCH
set -uo pipefail
xb=$1
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# An option line: "  -s,--size SIZE   text"; its names and value end where two spaces begin, or the
# line ends (a long column puts the text on the next line).
check_columns() {
  local what=$1 text=$2
  while IFS= read -r line; do
    [[ $line =~ ^\ \ [-A-Za-z] ]] || continue
    local rest=${line#  }
    local head=${rest%%  *}
    if [ "$head" != "$rest" ]; then continue; fi  # two spaces separate the columns
    # No two-space gap: the line must be a lone option column (its text follows on the next line).
    if [[ $rest =~ [[:space:]][a-z]+[[:space:]][a-z]+[[:space:]][a-z] ]]; then fail "$what: columns run together: '$line'"; fi
  done <<<"$text"
}

top=$("$xb" --help)
while IFS= read -r line; do
  # "  name   description": the command list.
  if [[ $line =~ ^\ \ ([a-z_-]+)(\ +)(.*)$ ]] && [ "${#BASH_REMATCH[2]}" -lt 2 ]; then
    fail "top-level help: columns run together: '$line'"
  fi
done <<<"$top"
grep -q "^  sharp_coll_test  " <<<"$top" || fail "top-level help: no 'sharp_coll_test' line with its description apart"

for c in copy io kv p2p link xfer fleet survey devices report compare; do
  text=$("$xb" "$c" --help) || { fail "$c --help: exit $?"; continue; }
  while IFS= read -r line; do fail "$c --help: a value named TEXT: '$line'"; done < <(grep -E '(^|[ ,])[-A-Za-z]+ TEXT( |$)' <<<"$text")
  check_columns "$c --help" "$text"
done
[ "$fails" -eq 0 ] && echo "help_check: every native option names its value; no columns run together"
exit $((fails > 0))
