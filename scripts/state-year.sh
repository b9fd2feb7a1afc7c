#!/usr/bin/env bash
# How large state.json grows (docs/promises.md): runs `nudge run --quiet` on a copy of data/ every
# STEP minutes for DAYS simulated days from 2026-11-21 (--now), and prints state.json's size as it goes.
#   scripts/state-year.sh [DAYS] [STEP] [BINARY]     (defaults: 365 days, every minute, .build/release/nudge)
set -euo pipefail
DAYS="${1:-365}"
STEP="${2:-1}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BINARY="${3:-$ROOT/.build/release/nudge}"
[ -x "$BINARY" ] || { echo "state-year: no executable at $BINARY (swift build -c release)" >&2; exit 2; }
exec python3 - "$DAYS" "$STEP" "$BINARY" "$ROOT/data" <<'PYTHON'
import datetime as dt, os, shutil, subprocess, sys, tempfile
days, step, binary, example = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
work = tempfile.mkdtemp(prefix="nudge-year-")
data = os.path.join(work, "data")
shutil.copytree(example, data)
now = dt.datetime(2026, 11, 21, tzinfo=dt.timezone.utc)
end = now + dt.timedelta(days=days)
runs = 0
next_report = now
while now < end:
    subprocess.run([binary, "run", "--quiet", "--data", data, "--now", now.strftime("%Y-%m-%dT%H:%M:%SZ")],
                   check=True, stdout=subprocess.DEVNULL, env={"PATH": os.environ.get("PATH", ""), "TZ": "UTC"})
    runs += 1
    if now >= next_report:
        print(f"{now:%Y-%m-%d}  {runs:7d} runs  state.json {os.path.getsize(os.path.join(data, 'state.json')):6d} bytes"
              f"  outbox.jsonl {os.path.getsize(os.path.join(data, 'outbox.jsonl')) if os.path.exists(os.path.join(data, 'outbox.jsonl')) else 0:8d} bytes",
              flush=True)
        next_report += dt.timedelta(days=30)
    now += dt.timedelta(minutes=step)
size = os.path.getsize(os.path.join(data, "state.json"))
print(f"after {days:g} days, {runs} runs every {step} min: state.json {size} bytes")
shutil.rmtree(work)
PYTHON
