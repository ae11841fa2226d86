#!/usr/bin/env bash
# Assess every corpus in corpora.txt (or those named) with BIN and keep one JSON report each
# in OUT/NAME.json: the "before" or "after" of a rule change.
#   bench/corpus/snapshot.sh build/app/cnready /tmp/base [NAME...]
set -uo pipefail
bin=$(readlink -f "$1"); out=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
grep -v '^#' "$here/corpora.txt" | while read -r name path _; do
  [ -n "$name" ] || continue
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  [ -d "$path" ] || { echo "skip $name: $path missing" >&2; continue; }
  "$bin" assess "$path" --format json > "$out/$name.json" 2>/dev/null
  echo "$name exit $?" >&2
done
