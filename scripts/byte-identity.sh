#!/usr/bin/env bash
# The byte-identity guard of a change that must not change behaviour (CONTRIBUTING.md, "Refactoring"): runs the
# soak (scripts/soak.sh) with the same seed on two builds and compares what they leave: plan.json, state.json,
# outbox.jsonl, the desktop command's calls and the soak's report (wall time masked).
#
# usage: scripts/byte-identity.sh BEFORE AFTER [DAYS]
#   BEFORE, AFTER  two nudge executables (e.g. release builds of the commit before and after the change)
#   DAYS           simulated days (default 7)
# environment: SOAK_SEED (default 20261127), SOAK_EVENTS (default 4). Kills are off (SOAK_KILL_SHARE=0): where a
# SIGKILL lands depends on timing, so two runs with kills differ whatever the builds.
#
# Both builds run from the same path and in the same data directory path: state.json holds the hash of
# settings.json (`lastGood`), which names the desktop command by its path. Exit 0 when identical, 1 when not.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: scripts/byte-identity.sh BEFORE AFTER [DAYS]" >&2; exit 2; }
BEFORE="$(realpath "$1")"
AFTER="$(realpath "$2")"
DAYS="${3:-7}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BASE="$(mktemp -d /tmp/nudge-identity.XXXXXX)"
trap 'rm -rf "$BASE"' EXIT
mkdir -p "$BASE/site" "$BASE/bin"
cat > "$BASE/site/sitecustomize.py" <<PYTHON
import os, shutil, tempfile
def fixed(prefix="tmp", **_):
    path = os.path.join("$BASE", "work")
    shutil.rmtree(path, ignore_errors=True)
    os.mkdir(path)
    return path
tempfile.mkdtemp = fixed
PYTHON

for side in before after; do
    binary="$BEFORE"; [ "$side" = after ] && binary="$AFTER"
    cp "$binary" "$BASE/bin/nudge"
    set +e
    PYTHONPATH="$BASE/site" SOAK_SEED="${SOAK_SEED:-20261127}" SOAK_KEEP=1 SOAK_KILL_SHARE=0 \
        SOAK_EVENTS="${SOAK_EVENTS:-4}" bash "$ROOT/scripts/soak.sh" "$DAYS" "$BASE/bin/nudge" \
        > "$BASE/$side.report" 2>&1
    echo "$side: soak exit $?" >&2
    set -e
    mkdir "$BASE/$side"
    for file in data/plan.json data/state.json data/outbox.jsonl calls.log; do
        cp "$BASE/work/$file" "$BASE/$side/$(basename "$file")" 2>/dev/null || : > "$BASE/$side/$(basename "$file")"
    done
    sed -E 's/wall time +[0-9.]+ s/wall time (masked)/; s/"seconds": [0-9.]+/"seconds": 0/' "$BASE/$side.report" \
        > "$BASE/$side/report.txt"
done
if diff -r "$BASE/before" "$BASE/after" > "$BASE/diff"; then
    echo "identical: plan.json, state.json, outbox.jsonl, calls.log and the report ($(wc -l < "$BASE/after/outbox.jsonl") outbox lines, $(grep -m1 '  runs ' "$BASE/after/report.txt" | sed 's/^ *//'))"
else
    head -40 "$BASE/diff"
    echo "DIFFERENT" >&2
    exit 1
fi
