#!/usr/bin/env bash
# Crash test for `nudge run` (docs/promises.md: "exactly once", and "a crash at any point leaves every file either old or
# new"). Simulates cron running `nudge run --quiet` once per simulated step on a data directory full of due
# notifications, kills a share of the runs with SIGKILL at a random instant, and then checks that
#   (a) every file nudge wrote parses (plan.json, state.json, .last-good/*, each outbox line) and no temporary
#       file is left behind,
#   (b) every occurrence that fell due while a run completed is in outbox.jsonl, and
#   (c) no id is in outbox.jsonl twice,
#   (d) the desktop command got every delivery exactly once, and
#   (e) the badge counts every delivery once.
#
# usage: scripts/crash-test.sh [RUNS] [BINARY]
#   RUNS    simulated cron runs (default 300)
#   BINARY  the nudge executable (default: `swift build`, then .build/debug/nudge)
# environment:
#   CRASH_SEED=N            random seed (printed; reuse it to replay a run)
#   CRASH_KILL_SHARE=0.4    share of the runs that get a SIGKILL
#   CRASH_STEP_MINUTES=N    simulated minutes between runs (default: RUNS runs span about a day)
#   CRASH_KEEP=1            keep the data directory for inspection (its path is printed)
#
# Exit 0 when every check holds, 1 on any violation, 2 on a usage or setup problem. The last line of output is
# `SUMMARY {json}` with every figure, for tests that run this script.
set -euo pipefail

RUNS="${1:-300}"
BINARY="${2:-}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

case "$RUNS" in
    ''|*[!0-9]*) echo "usage: scripts/crash-test.sh [RUNS] [BINARY]" >&2; exit 2 ;;
esac
if [ -z "$BINARY" ]; then
    (cd "$ROOT" && swift build >&2)
    BINARY="$ROOT/.build/debug/nudge"
fi
if [ ! -x "$BINARY" ]; then
    echo "crash-test: no executable at $BINARY" >&2
    exit 2
fi
command -v python3 >/dev/null || { echo "crash-test: python3 is required" >&2; exit 2; }

exec python3 - "$RUNS" "$BINARY" <<'PYTHON'
import datetime as dt
import json
import math
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = int(sys.argv[1])
BINARY = os.path.abspath(sys.argv[2])
SEED = int(os.environ.get("CRASH_SEED") or random.SystemRandom().randrange(1 << 31))
KILL_SHARE = float(os.environ.get("CRASH_KILL_SHARE", "0.4"))
STEP = int(os.environ.get("CRASH_STEP_MINUTES") or 0) or max(1, math.ceil(1440 / max(RUNS, 1)))
KEEP = os.environ.get("CRASH_KEEP") == "1"
rng = random.Random(SEED)

UTC = dt.timezone.utc
DAY = dt.datetime(2026, 11, 21, tzinfo=UTC)          # a Saturday; settings.timeZone is UTC
PRIME = DAY - dt.timedelta(minutes=1)                 # the first run ever, never killed
SPAN = dt.timedelta(minutes=RUNS * STEP)
FINAL = DAY + SPAN                                    # one last unkilled run after everything
ENV = dict(os.environ, TZ="UTC")
ENV.pop("NUDGE_DATA", None)


def stamp(moment):
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_instant(text):
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


# ---------------------------------------------------------------------------------------------------------------
# Inputs, and the occurrences they make (computed here from the inputs, independently of nudge).
# Each occurrence: id -> (fireAt, expiresAt, kind).

universe = {}


def occurrence(oid, fire, expires, kind):
    universe[oid] = (fire, expires, kind)


span_seconds = int(SPAN.total_seconds())
pets = []
for i in range(40):
    # Completion instants spread over the simulated span, some off the minute.
    fire = DAY + dt.timedelta(seconds=int((i + 0.5) / 40 * span_seconds) + (i % 3) * 17)
    if i % 4 == 3:   # every fourth pet is drying: "Dry Complete!" and, 30 min later, the fold reminder
        minutes = 30 + (i * 13) % 90
        started = fire - dt.timedelta(minutes=minutes)
        pets.append({"id": f"pet{i:02d}", "name": f"Pet {i}", "dryMinutes": minutes,
                     "cycle": {"id": f"c{i}", "stage": "dry", "startedAt": stamp(started)}})
        occurrence(f"laundry.dryComplete:pet{i:02d}:c{i}", fire, fire + dt.timedelta(hours=6), "dry")
        fold = fire + dt.timedelta(minutes=30)
        occurrence(f"laundry.foldReminder:pet{i:02d}:c{i}", fold, fold + dt.timedelta(hours=24), "fold")
    else:
        minutes = 20 + (i * 11) % 70
        started = fire - dt.timedelta(minutes=minutes)
        pets.append({"id": f"pet{i:02d}", "name": f"Pet {i}", "washMinutes": minutes,
                     "cycle": {"id": f"c{i}", "stage": "wash", "startedAt": stamp(started)}})
        occurrence(f"laundry.washComplete:pet{i:02d}:c{i}", fire, fire + dt.timedelta(hours=6), "wash")

achievements, imports = [], []
for i in range(20):
    at = DAY + dt.timedelta(seconds=int((i + 0.3) / 20 * span_seconds) + 11 * (i % 2))
    achievements.append({"id": f"a{i}", "title": f"Feat {i}", "description": f"Did thing {i}",
                         "unlockedAt": stamp(at)})
    occurrence(f"streak.achievement:a{i}:unlocked", at, at + dt.timedelta(days=7), "achievement")
    at = DAY + dt.timedelta(seconds=int((i + 0.8) / 20 * span_seconds))
    imports.append({"id": f"i{i}", "game": "wordle", "importedAt": stamp(at), "summary": f"{i % 6 + 1}/6"})
    occurrence(f"streak.imported:i{i}:imported", at, at + dt.timedelta(days=7), "import")
streaks = {"games": [{"id": "wordle", "name": "Wordle", "streak": 12}], "plays": [],
           "achievements": achievements, "imports": imports}

alarms = []
weekday_names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
for i in range(30):
    minute_of_day = (i * 47 + 3) % 1440
    duration = [5, 15, 30, 45, 60][i % 5]
    alarm = {"id": f"al{i}", "title": f"Prayer {i}", "time": f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}",
             "durationMinutes": duration}
    days = set(weekday_names)
    if i % 6 == 5:
        days = {"sun"}
        alarm["weekdays"] = ["sun"]
    elif i % 6 == 4:
        days = {"mon", "tue"}
        alarm["weekdays"] = ["mon", "tue"]
    alarms.append(alarm)
    date = PRIME.date()
    while date <= FINAL.date():
        fire = dt.datetime.combine(date, dt.time(minute_of_day // 60, minute_of_day % 60), tzinfo=UTC)
        if weekday_names[date.weekday()] in days:
            occurrence(f"alarm.prayer:al{i}:{date.isoformat()}", fire,
                       fire + dt.timedelta(minutes=max(duration, 30)), "alarm")
        date += dt.timedelta(days=1)

# The streak reminder: wordle has a 12-day streak and no plays, so it is at risk every day at 19:00.
date = PRIME.date()
while date <= FINAL.date():
    fire = dt.datetime.combine(date, dt.time(19, 0), tzinfo=UTC)
    end = dt.datetime.combine(date + dt.timedelta(days=1), dt.time(0, 0), tzinfo=UTC)
    occurrence(f"streak.reminder:streaks:{date.isoformat()}", fire, end, "streak")
    date += dt.timedelta(days=1)

# Only occurrences from the first run on can ever be announced (the first run ever records older ones as seen).
universe = {oid: v for oid, v in universe.items() if PRIME <= v[0] <= FINAL}

# The desktop command records each call (id, NUDGE_BADGE, and the pid of the nudge that ran it) outside the data
# directory, so the channels after the outbox are checked too (docs/promises.md: each gets every delivery exactly once).
CALLS_DIRECTORY = tempfile.mkdtemp(prefix="nudge-crash-calls-")
CALLS_LOG = os.path.join(CALLS_DIRECTORY, "calls.log")
RECORDER = os.path.join(CALLS_DIRECTORY, "record.sh")
with open(RECORDER, "w") as handle:
    handle.write(f"#!/bin/sh\nprintf '%s %s %s\\n' \"$NUDGE_ID\" \"$NUDGE_BADGE\" \"$PPID\" >> '{CALLS_LOG}'\n")
os.chmod(RECORDER, 0o755)

settings = {"timeZone": "UTC", "notifications": {"enabled": True, "sound": True, "badge": True}, "maxPending": 64,
            "deliver": {"command": [RECORDER]}}


def make_directory():
    path = tempfile.mkdtemp(prefix="nudge-crash-")
    for name, content in [("settings.json", settings), ("laundry.json", {"pets": pets}),
                          ("alarms.json", {"alarms": alarms}), ("streaks.json", streaks)]:
        with open(os.path.join(path, name), "w") as handle:
            json.dump(content, handle, indent=1)
            handle.write("\n")
    return path


# ---------------------------------------------------------------------------------------------------------------
# Running nudge.

def command(data, now):
    return [BINARY, "run", "--data", data, "--now", stamp(now), "--quiet"]


def start(data, now):
    return subprocess.Popen(command(data, now), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=ENV, cwd=data)


def files_of(data):
    """Every file below the directory (hidden ones and .last-good included): relative path -> (inode, mtime, size)."""
    result = {}
    for folder, _, names in os.walk(data):
        for name in names:
            full = os.path.join(folder, name)
            try:
                info = os.stat(full)
            except FileNotFoundError:
                continue
            result[os.path.relpath(full, data)] = (info.st_ino, info.st_mtime_ns, info.st_size)
    return result


def is_temporary(relative):
    return ".tmp" in os.path.basename(relative)


def read_state(data):
    try:
        with open(os.path.join(data, "state.json"), "rb") as handle:
            return json.loads(handle.read())
    except FileNotFoundError:
        return None


violations = []
unparsable = 0


def violation(text):
    if len(violations) < 200:
        violations.append(text)


def check_whole_files(data, context):
    """plan.json, state.json and the .last-good copies must always parse: old or new, never torn."""
    global unparsable
    names = ["plan.json", "state.json"]
    last_good = os.path.join(data, ".last-good")
    if os.path.isdir(last_good):
        names += [os.path.join(".last-good", n) for n in os.listdir(last_good) if not is_temporary(n)]
    for name in names:
        path = os.path.join(data, name)
        if not os.path.exists(path):
            if name in ("plan.json", "state.json"):
                violation(f"{context}: {name} is missing")
            continue
        try:
            with open(path, "rb") as handle:
                value = json.loads(handle.read().decode("utf-8"))
            if not isinstance(value, dict):
                violation(f"{context}: {name} is not a JSON object")
        except Exception as error:                       # torn or garbage
            unparsable += 1
            violation(f"{context}: {name} does not parse: {error}")


def outbox_lines(data):
    """(complete lines, torn tail bytes)."""
    path = os.path.join(data, "outbox.jsonl")
    if not os.path.exists(path):
        return [], b""
    with open(path, "rb") as handle:
        content = handle.read()
    *lines, tail = content.split(b"\n")
    return lines, tail


# ---------------------------------------------------------------------------------------------------------------
# Setup: the first run, and the duration of a run (to aim the kills at the writes).

data = make_directory()
prime = subprocess.run(command(data, PRIME), stdin=subprocess.DEVNULL, capture_output=True, env=ENV, cwd=data)
if prime.returncode != 0:
    print(f"crash-test: the first run failed with {prime.returncode}: {prime.stderr.decode(errors='replace')}",
          file=sys.stderr)
    sys.exit(2)

probe = make_directory()
subprocess.run(command(probe, PRIME), stdin=subprocess.DEVNULL, capture_output=True, env=ENV, cwd=probe)
durations, write_starts, write_ends = [], [], []
for m in range(9):
    began_ns = time.time_ns()
    began = time.perf_counter()
    subprocess.run(command(probe, DAY + dt.timedelta(minutes=m * STEP)), stdin=subprocess.DEVNULL,
                   capture_output=True, env=ENV, cwd=probe)
    durations.append(time.perf_counter() - began)
    # When the writes happen, from the files' modification times: plan.json is written first, state.json last.
    write_starts.append((os.stat(os.path.join(probe, "plan.json")).st_mtime_ns - began_ns) / 1e9)
    write_ends.append((os.stat(os.path.join(probe, "state.json")).st_mtime_ns - began_ns) / 1e9)
shutil.rmtree(probe, ignore_errors=True)
if os.path.exists(CALLS_LOG):
    os.remove(CALLS_LOG)     # the probe's own calls
run_seconds = statistics.median(durations)
write_start = min(max(statistics.median(write_starts), 0.0), run_seconds)
write_end = min(max(statistics.median(write_ends), write_start), run_seconds)
max_delay = run_seconds * 1.3


def kill_delay():
    """Anywhere in the run and a little after it; but most of a run is starting, reading and planning, and its
    writes come last, so half of the kills aim at the measured write phase (widened by a few milliseconds), and a
    quarter at what follows state.json's save in a delivering run: the desktop command, which nudge starts through
    another nudge process (the probe runs deliver nothing, so that phase is not in their measure)."""
    roll = rng.random()
    if roll < 0.5:
        return rng.uniform(max(0.0, write_start - 0.003), min(max_delay, write_end + 0.002))
    if roll < 0.75:
        return rng.uniform(write_end, write_end + 0.04)
    return rng.uniform(0, max_delay)


# ---------------------------------------------------------------------------------------------------------------
# The simulated day.

completed = [PRIME]          # the `now` of every run that exited 0
killed_pids = set()          # the runs that died of SIGKILL
kills_during_channels = 0    # kills that left a channel program's note behind (it was running or unrecorded)
kills_attempted = kills_landed = 0
landed_before_write = landed_mid_write = landed_after_save = 0
mid_write_kinds = {}
torn_lines_seen = 0
temporary_seen = set()
unkilled_failures = 0
started_at = time.perf_counter()

for m in range(RUNS):
    now = DAY + dt.timedelta(minutes=m * STEP)
    before = files_of(data)
    lines_before, _ = outbox_lines(data)
    kill = rng.random() < KILL_SHARE
    process = start(data, now)
    if kill:
        kills_attempted += 1
        time.sleep(kill_delay())
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
    _, stderr = process.communicate()
    code = process.returncode
    after = files_of(data)
    lines_after, tail = outbox_lines(data)
    context = f"run {m} at {stamp(now)}" + (" (killed)" if code == -signal.SIGKILL else "")
    check_whole_files(data, context)
    new_temporary = sorted(n for n in after if is_temporary(n) and n not in before)
    temporary_seen.update(new_temporary)
    if tail:
        torn_lines_seen += 1

    if code == -signal.SIGKILL:
        kills_landed += 1
        killed_pids.add(process.pid)
        notes = os.path.join(data, ".channel-starts")
        if os.path.isdir(notes) and os.listdir(notes):
            kills_during_channels += 1
        state = read_state(data) or {}
        changed = sorted(n for n in after if n != ".lock" and before.get(n) != after[n])
        if state.get("lastRunAt") == stamp(now):
            landed_after_save += 1
        elif changed or new_temporary or tail:
            landed_mid_write += 1
            what = []
            if new_temporary:
                what.append("temporary file left: " + ", ".join(new_temporary))
            if tail:
                what.append("torn outbox line")
            if len(lines_after) > len(lines_before):
                what.append("outbox appended, state.json not saved")
            elif "plan.json" in changed:
                what.append("plan.json replaced, state.json not saved")
            if not what:
                what.append("changed: " + ", ".join(changed))
            for item in what:
                key = item.split(":")[0]
                mid_write_kinds[key] = mid_write_kinds.get(key, 0) + 1
        else:
            landed_before_write += 1
    elif code == 0:
        completed.append(now)
        if tail:
            violation(f"{context}: a completed run left a torn outbox line: {tail[:80]!r}")
        state = read_state(data) or {}
        if state.get("lastRunAt") != stamp(now):
            violation(f"{context}: exited 0 but state.json says lastRunAt {state.get('lastRunAt')}")
    else:
        if not kill:
            unkilled_failures += 1
        violation(f"{context}: exit {code}: {stderr.decode(errors='replace').strip()[:300]}")

final = subprocess.run(command(data, FINAL), stdin=subprocess.DEVNULL, capture_output=True, env=ENV, cwd=data)
if final.returncode == 0:
    completed.append(FINAL)
else:
    violation(f"final run at {stamp(FINAL)}: exit {final.returncode}: {final.stderr.decode(errors='replace')[:300]}")
elapsed = time.perf_counter() - started_at

# ---------------------------------------------------------------------------------------------------------------
# Checks.

# (a) every file parses; no temporary file is left.
check_whole_files(data, "after the final run")
lines, tail = outbox_lines(data)
if tail:
    violation(f"after the final run: torn outbox line {tail[:80]!r}")
records = []
for number, raw in enumerate(lines, 1):
    try:
        record = json.loads(raw.decode("utf-8"))
        for key in ("id", "kind", "fireAt", "expiresAt", "deliveredAt", "lateSeconds"):
            if key not in record:
                raise ValueError(f"no {key!r}")
        records.append(record)
    except Exception as error:
        unparsable += 1
        violation(f"outbox.jsonl line {number} does not parse: {error}: {raw[:120]!r}")
leftovers = sorted(n for n in files_of(data) if is_temporary(n))

# (c) no id twice; every delivery is a real occurrence, delivered inside its window.
counts = {}
for record in records:
    counts[record["id"]] = counts.get(record["id"], 0) + 1
duplicates = {oid: n for oid, n in counts.items() if n > 1}
# A "Missed while away" digest is no occurrence of the inputs: a run that recorded alarms as missed made it
# (docs/design.md, "Missed while away"), checked below.
unexpected = sorted(oid for oid in counts if oid not in universe and not oid.startswith("digest.missed:"))
outside_window = []
for record in records:
    if record["id"] not in universe:
        continue
    fire, expires, _ = universe[record["id"]]
    delivered = parse_instant(record["deliveredAt"])
    if parse_instant(record["fireAt"]) != fire:
        outside_window.append(f"{record['id']}: fireAt {record['fireAt']}, expected {stamp(fire)}")
    elif not (fire <= delivered <= expires):
        outside_window.append(f"{record['id']}: delivered {record['deliveredAt']} outside {stamp(fire)}..{stamp(expires)}")

# (b) every occurrence that a completed run saw inside its window [fireAt, expiresAt] must be in the outbox. An
# occurrence whose whole window fell between completed runs may be missed legitimately (or delivered by a run
# that was killed after appending to the outbox, which also counts).
expected = set()
for oid, (fire, expires, _) in universe.items():
    if any(fire <= now <= expires for now in completed):
        expected.add(oid)
lost = sorted(expected - set(counts))
legitimately_missed = len(universe) - len(expected)

for oid, n in sorted(duplicates.items()):
    violation(f"duplicate: {oid} is in outbox.jsonl {n} times")
for oid in lost:
    fire, expires, _ = universe[oid]
    violation(f"lost: {oid} (due {stamp(fire)}..{stamp(expires)}) was never delivered")
for oid in unexpected:
    violation(f"unexpected delivery: {oid} is no occurrence of the inputs")
# Each digest lists only occurrences that expired undelivered before it, and none is told twice: the items all
# digests list are at most the occurrences never delivered.
never_delivered = {oid: expires for oid, (_, expires, _) in universe.items() if oid not in counts}
digests = [record for record in records if record["kind"] == "digest.missed"]
told = 0
told_items = {}
delivered_items = {(record["title"], parse_instant(record["fireAt"])) for record in records}
for record in digests:
    body = record.get("body", "")
    shown, _, more = body.partition(" and ")
    items = len(shown.split(", ")) + (int(more.split()[0]) if more else 0)
    told += items
    # "Prayer 3 Time (02:24)" on the digest's own date (the zone is UTC), "Prayer 3 Time (Sat 21 Nov 02:24)" else.
    day = parse_instant(record["deliveredAt"])
    for item in shown.split(", "):
        title, _, when = item[:-1].rpartition(" (")
        if " " in when:
            moment = dt.datetime.strptime(f"{day.year} {when}", "%Y %a %d %b %H:%M").replace(tzinfo=UTC)
        else:
            moment = dt.datetime.combine(day.date(), dt.time.fromisoformat(when), tzinfo=UTC)
        if (title, moment) in told_items:
            violation(f"digest {record['id']} tells {item} again (told at {told_items[(title, moment)]})")
        if (title, moment) in delivered_items:
            violation(f"digest {record['id']} tells {item}, which was delivered")
        told_items[(title, moment)] = record["deliveredAt"]
    before = parse_instant(record["deliveredAt"])
    if items > sum(1 for expires in never_delivered.values() if expires < before):
        violation(f"digest {record['id']} at {record['deliveredAt']} lists {items}, more than expired undelivered")
if told > len(never_delivered):
    violation(f"the digests list {told} missed occurrences, {len(never_delivered)} were never delivered")
for text in outside_window:
    violation(f"delivered outside its window: {text}")
for name in leftovers:
    violation(f"leftover temporary file: {name} (never removed by any later run)")

# (d) the channel after the outbox: the command gets every delivery that a completed run could still hand it
# (one that ran between its delivery and its expiry), and each exactly once, also when the run that started it
# was killed before it could record the answer (the call logs the pid of the nudge that made it).
calls = []
if os.path.exists(CALLS_LOG):
    with open(CALLS_LOG) as handle:
        calls = [line.split() for line in handle if line.strip()]
calls_by_id = {}
for call in calls:
    calls_by_id.setdefault(call[0], []).append(call)
command_lost, command_duplicates = [], []
for record in records:
    delivered, expires = parse_instant(record["deliveredAt"]), parse_instant(record["expiresAt"])
    owed = any(delivered <= now <= expires for now in completed)
    made = calls_by_id.get(record["id"], [])
    if not made and owed:
        command_lost.append(record["id"])
    if len(made) > 1:
        command_duplicates.append(f"{record['id']} ({len(made)} calls, by the runs with pids "
                                  f"{', '.join(call[2] for call in made if len(call) > 2)}; killed: "
                                  f"{', '.join(str(pid) for pid in sorted(killed_pids) if str(pid) in [c[2] for c in made if len(c) > 2]) or 'none'})")
for oid in command_lost:
    violation(f"command lost: {oid} is in outbox.jsonl, but the desktop command never got it")
for text in command_duplicates:
    violation(f"command duplicate: {text}")

# (e) the badge counts every delivery once (no `nudge ack` in this test).
final_state = read_state(data) or {}
badge_expected = sum(1 for record in records if record.get("badge"))
if final_state.get("badge") != badge_expected:
    violation(f"badge: state.json says {final_state.get('badge')}, the outbox holds {badge_expected} deliveries "
              "with badge: true")

by_kind = {}
for record in records:
    by_kind[record["kind"]] = by_kind.get(record["kind"], 0) + 1

summary = {
    "seed": SEED, "runs": RUNS, "stepMinutes": STEP, "span": f"{stamp(DAY)}..{stamp(FINAL)}",
    "runMillis": round(run_seconds * 1000, 1), "maxKillDelayMillis": round(max_delay * 1000, 1),
    "writePhaseMillis": [round(write_start * 1000, 1), round(write_end * 1000, 1)],
    "completedRuns": len(completed) - 1, "killsAttempted": kills_attempted, "killsLanded": kills_landed,
    "killsBeforeAnyWrite": landed_before_write, "killsMidWrite": landed_mid_write,
    "killsAfterStateSaved": landed_after_save, "midWriteKinds": mid_write_kinds,
    "tornOutboxLinesSeen": torn_lines_seen, "temporaryFilesSeen": len(temporary_seen),
    "occurrences": len(universe), "expected": len(expected), "legitimatelyMissed": legitimately_missed,
    "deliveries": len(records), "deliveriesByKind": by_kind, "duplicates": len(duplicates), "lost": len(lost),
    "unexpected": len(unexpected), "digests": len(digests), "digestItems": told, "outsideWindow": len(outside_window), "leftoverTemporaryFiles": leftovers,
    "unparsable": unparsable,
    "commandCalls": len(calls), "killsDuringChannels": kills_during_channels, "commandLost": len(command_lost), "commandDuplicates": len(command_duplicates),
    "badge": final_state.get("badge"),
    "badgeExpected": badge_expected,
    "unkilledFailures": unkilled_failures, "violations": len(violations), "seconds": round(elapsed, 1),
}

print(f"nudge crash test: {RUNS} runs every {STEP} min over {summary['span']} (seed {SEED})")
print(f"  binary                {BINARY}")
print(f"  one run takes         {summary['runMillis']} ms, writing from {summary['writePhaseMillis'][0]} to "
      f"{summary['writePhaseMillis'][1]} ms; kill delays 0..{summary['maxKillDelayMillis']} ms")
print(f"  runs completed        {summary['completedRuns']} (+ the first and the final run)")
print(f"  kills attempted       {kills_attempted}")
print(f"  kills landed          {kills_landed} (process died of SIGKILL)")
print(f"    before any write    {landed_before_write}")
print(f"    mid-write           {landed_mid_write} {json.dumps(mid_write_kinds)}")
print(f"    after state saved   {landed_after_save}")
print(f"  torn outbox lines     {torn_lines_seen} seen after kills (each must be cut by the next run)")
print(f"  occurrences           {len(universe)} in the span; {len(expected)} reached by a completed run; "
      f"{legitimately_missed} expired between completed runs")
print(f"  deliveries            {len(records)} {json.dumps(by_kind, sort_keys=True)}")
print(f"  duplicates            {len(duplicates)}")
print(f"  command calls         {len(calls)}: lost {len(command_lost)}, duplicates {len(command_duplicates)}")
print(f"  badge                 {final_state.get('badge')} (outbox: {badge_expected})")
print(f"  kills in the channels {kills_during_channels} (a channel program's note left behind)")
print(f"  lost                  {len(lost)}")
print(f"  unexpected/outside    {len(unexpected)}/{len(outside_window)}")
print(f"  leftover temp files   {len(leftovers)}" + (f": {', '.join(leftovers[:8])}" + (" …" if len(leftovers) > 8 else "") if leftovers else ""))
print(f"  wall time             {summary['seconds']} s")
if violations:
    print(f"VIOLATIONS ({len(violations)}):")
    for text in violations[:40]:
        print(f"  - {text}")
    if len(violations) > 40:
        print(f"  … and {len(violations) - 40} more")
else:
    print("OK: every file parses, every due occurrence delivered exactly once, nothing left behind")
if KEEP:
    print(f"  data directory kept at {data}")
else:
    shutil.rmtree(data, ignore_errors=True)
if not KEEP:
    shutil.rmtree(CALLS_DIRECTORY, ignore_errors=True)
else:
    print(f"  command calls kept at {CALLS_LOG}")
print("SUMMARY " + json.dumps(summary, sort_keys=True))
sys.exit(1 if violations else 0)
PYTHON
