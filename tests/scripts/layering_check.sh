#!/usr/bin/env bash
# The layering of src/ (DESIGN.md's folders), kept by ctest: each folder includes only from the
# folders below it. core is the floor; report reads results (core) and never a job; jobs never
# include report, dialects or cli; dialects and cli sit on top and may include anything.
#   bash tests/scripts/layering_check.sh SRC_DIR
# Prints one line per include that breaks the rule (file:line, the folder it may not reach) and
# exits 1; exit 0 and one line when every include keeps it; exit 2 on bad usage.
set -euo pipefail
src=${1:?usage: layering_check.sh SRC_DIR}
[ -d "$src" ] || { echo "layering_check.sh: $src is not a directory" >&2; exit 2; }

declare -A allowed=(
  [core]="core"
  [memory]="core memory"
  [storage]="core memory storage"
  [backends]="core memory backends"
  [transport]="core memory backends transport"
  [runtime]="core memory transport runtime"
  [report]="core report"
  [jobs]="core memory storage backends transport runtime jobs"
)

bad=0
checked=0
for layer in "${!allowed[@]}"; do
  [ -d "$src/$layer" ] || continue
  # Every project include ("folder/…") in the layer's sources and headers, with file and line.
  while IFS=: read -r file line text; do
    target=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]+"([a-z_]+)\/.*/\1/' <<<"$text")
    checked=$((checked + 1))
    case " ${allowed[$layer]} " in
      *" $target "*) ;;
      *) echo "layering: ${file#"$src"/}:$line: $layer/ may not include $target/ (it may include: ${allowed[$layer]})"
         bad=1 ;;
    esac
  done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[a-z_]+/' "$src/$layer" \
             --include='*.hpp' --include='*.cpp' --include='*.h' --include='*.cu' --include='*.cuh' || true)
done
((bad)) && exit 1
echo "layering: $checked includes, every one from a folder its layer may reach"
