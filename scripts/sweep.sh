#!/usr/bin/env bash
# The seed sweep (docs/promises.md, "Seeds"): runs N month soaks and N differential months, each on a new random
# seed, and prints every seed that fails. CI runs only the fixed seeds that SoakTests lists, so that a submission
# is never failed by a seed no change of its own touched; discovery is this script's, run before an issue that
# touches planning, delivery or the soaks is called resolved. A failing seed is fixed and joins SoakTests' list.
#
# usage: scripts/sweep.sh N [BINARY]
#   N       seeds of each kind (the differential months and the month soaks; see SWEEP_SOAKS)
#   BINARY  the nudge executable (default: `swift build -c release`, then .build/release/nudge)
# environment:
#   SWEEP_DAYS=30        simulated days of each run
#   SWEEP_SOAKS=N        how many month soaks (default N): the soak takes longer than the differential month
#   SWEEP_JOBS=2         runs at once (each is one process at a time: one core)
#   SWEEP_LOGS=DIR       where each failing run's whole output is kept (default: a new directory under /tmp)
#
# Prints a line per run as it ends (`ok` or `FAIL`, kind, seed, seconds, the run's headline figure), each
# failure's differences or violations, and at the end `SWEEP {json}` with the counts and the failing seeds.
# Exit 0 when every run passed, 1 when any failed, 2 on a usage problem.
set -euo pipefail

N="${1:-}"
BINARY="${2:-}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "$N" in
    ''|*[!0-9]*) echo "usage: scripts/sweep.sh N [BINARY]" >&2; exit 2 ;;
esac
if [ -z "$BINARY" ]; then
    (cd "$ROOT" && swift build -c release >&2)
    BINARY="$ROOT/.build/release/nudge"
fi
[ -x "$BINARY" ] || { echo "sweep: no executable at $BINARY" >&2; exit 2; }
BINARY="$(cd "$(dirname "$BINARY")" && pwd)/$(basename "$BINARY")"
DAYS="${SWEEP_DAYS:-30}"
SOAKS="${SWEEP_SOAKS:-$N}"
JOBS="${SWEEP_JOBS:-2}"
LOGS="${SWEEP_LOGS:-$(mktemp -d /tmp/nudge-sweep.XXXXXX)}"
mkdir -p "$LOGS"

exec python3 - "$N" "$SOAKS" "$DAYS" "$JOBS" "$BINARY" "$ROOT" "$LOGS" <<'PYTHON'
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import time

count, soaks, days, jobs, binary, root, logs = sys.argv[1:]
count, soaks, jobs = int(count), int(soaks), int(jobs)
system = random.SystemRandom()
runs = [("differential", system.randrange(1 << 31)) for _ in range(count)]
runs += [("soak", system.randrange(1 << 31)) for _ in range(soaks)]
# The longer soaks first, so that the two kinds finish together.
runs.sort(key=lambda run: run[0] != "soak")


def one(kind, seed):
    environment = dict(os.environ, SOAK_SEED=str(seed))
    environment.pop("SOAK_KEEP", None)
    if kind == "differential":
        environment["SOAK_MODE"] = "differential"
    else:
        environment.pop("SOAK_MODE", None)
    started = time.monotonic()
    process = subprocess.run(["bash", os.path.join(root, "scripts", "soak.sh"), days, binary], env=environment,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = process.stdout.decode(errors="replace")
    summary = {}
    for line in output.splitlines():
        if line.startswith("SUMMARY "):
            summary = json.loads(line[len("SUMMARY "):])
    return kind, seed, process.returncode, round(time.monotonic() - started), output, summary


failing = []
done = {"differential": 0, "soak": 0}
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    futures = [pool.submit(one, *run) for run in runs]
    for future in concurrent.futures.as_completed(futures):
        kind, seed, status, seconds, output, summary = future.result()
        done[kind] += 1
        figure = (f"{summary.get('runsEveryMinute')} runs against {summary.get('runsWoken')} woken, "
                  f"{summary.get('differences')} differences") if kind == "differential" else \
                 (f"{summary.get('runs')} runs, {summary.get('killsLanded')} killed, "
                  f"{summary.get('violations')} violations")
        print(f"{'ok' if status == 0 else 'FAIL'} {kind} seed {seed} ({seconds} s): {figure}", flush=True)
        if status != 0:
            failing.append({"kind": kind, "seed": seed})
            path = os.path.join(logs, f"{kind}-{seed}.log")
            with open(path, "w") as handle:
                handle.write(output)
            lines = output.splitlines()
            shown = [line for line in lines if line.startswith(("  - ", "DIFFERENCES", "VIOLATIONS"))]
            for line in (shown or lines[-15:])[:20]:
                print(f"    {line}")
            replay = ("SOAK_MODE=differential " if kind == "differential" else "") + \
                f"SOAK_SEED={seed} scripts/soak.sh {days} BINARY"
            print(f"    replay: {replay}; whole output: {path}", flush=True)
print("SWEEP " + json.dumps({"differentialMonths": done["differential"], "monthSoaks": done["soak"], "days": days,
                             "failing": failing}, sort_keys=True))
sys.exit(1 if failing else 0)
PYTHON
