#!/usr/bin/env bash
# Soak test for nudge (docs/promises.md): simulates DAYS of minute-by-minute `nudge run`s on one data directory,
# with random edits through nudge's own commands (laundry cycles started, moved to the dryer, folded and
# stopped; plays; achievements added by hand; while the clock is behind its latest reading, laundry cycles written
# by hand with a past start, their stage already finished but not expired), zone changes (Sydney, Berlin and New
# York across their DST days, with quiet hours), notifications switched off and on, suspends of hours and days,
# random SIGKILLs of runs, and clock excursions: the clock set back (a second to 40 days), stepped back and forth
# several times behind its latest reading, then corrected forward again. Snoozes of recent deliveries (some made
# while the clock is behind, some missed, some crossed by a later set back), and laundry cycles that leave the
# file by hand and come back (the same cycle restored, maybe after the clock went back). Travel comes with the clock: some zone changes bring a set
# back of minutes to hours on arrival or a correction forward, and some come while the clock is inside an
# excursion. After every run it checks the promises:
#   - no file torn: state.json, plan.json and every outbox line parse; no temporary file stays behind;
#   - exactly once per channel: no id twice in outbox.jsonl, no id twice in the desktop command's calls;
#   - nothing lost: a run that follows the previous one by one minute (same zone, no clock step) has delivered
#     every alarm whose local time fell in that minute, and every laundry stage that a completed run saw inside
#     its window is in the outbox and was handed to the command;
#   - nothing lost that is written in late (docs/promises.md): a cycle written by hand after a set back, its stage
#     finished but not expired, is delivered, or recorded (suppressed, missed, or seen if the first run to see it
#     came after its expiry), by the first completed run that sees it, whatever runs at later clocks settled;
#   - nothing lost after travel (docs/travelling.md, docs/promises.md): a completed run whose zone differs from the zone of the run
#     state.json last recorded leaves every alarm occurrence accounted for whose instant is at or before now and
#     that fell due since that run: by its instant, or because its local date-time (new zone) is later than that
#     run's wall-clock reading (old zone). Accounted for: delivered (in the outbox, once), or recorded in
#     state.json (a ledger entry, `deliveredDates`, `settledDates`); only dates before the 31-day catch-up limit
#     are exempt;
#   - never a replay (docs/promises.md, exactly once): an occurrence recorded as seen, missed or suppressed is delivered
#     later only if the clock has since been set back before its fireAt (and, for a snooze, not before the moment
#     it was made or last moved); a cycle restored to the file brings back nothing already handled;
#   - a snooze's id is never one that an earlier snooze, delivered or recorded, already had;
#   - quiet hours (docs/design.md, quiet hours): a low or medium delivery never fires inside them, an achievement never before
#     it was unlocked;
#   - the badge counts every delivery once;
#   - no process left behind once the runs are over.
#
# usage: scripts/soak.sh [DAYS] [BINARY]
#   DAYS    simulated days (default 30); a day is 1,440 runs plus edits
#   BINARY  the nudge executable (default: `swift build -c release`, then .build/release/nudge)
# environment:
#   SOAK_SEED=N           random seed (printed; reuse it to replay)
#   SOAK_KILL_SHARE=0.03  share of the runs killed with SIGKILL at a random instant
#   SOAK_EVENTS=1         multiplies how often edits, suspends, clock steps, excursions, switching off and zone
#                         changes come (a short soak
#                         raises it so that every kind of event happens)
#   SOAK_KEEP=1           keep the data directory (its path is printed)
#   SOAK_MODE=differential  instead, runs only at each nextWakeAt against runs every minute, on two data
#                         directories (scripts/soak-differential.py: its events, its checks, SOAK_START)
#
# Exit 0 when every check holds, 1 on any violation, 2 on a usage or setup problem. The last line is
# `SUMMARY {json}` with every figure.
set -euo pipefail

DAYS="${1:-30}"
BINARY="${2:-}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "$DAYS" in
    ''|*[!0-9.]*) echo "usage: scripts/soak.sh [DAYS] [BINARY]" >&2; exit 2 ;;
esac
if [ -z "$BINARY" ]; then
    (cd "$ROOT" && swift build -c release >&2)
    BINARY="$ROOT/.build/release/nudge"
fi
[ -x "$BINARY" ] || { echo "soak: no executable at $BINARY" >&2; exit 2; }
command -v python3 >/dev/null || { echo "soak: python3 is required" >&2; exit 2; }
# The differential mode: two data directories side by side, one run every minute, one only at each nextWakeAt
# and after each change (scripts/soak-differential.py says which events it includes and what it compares).
if [ "${SOAK_MODE:-}" = differential ]; then
    exec python3 "$ROOT/scripts/soak-differential.py" "$DAYS" "$BINARY"
fi

exec python3 - "$DAYS" "$BINARY" <<'PYTHON'
import datetime as dt
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from zoneinfo import ZoneInfo

DAYS = float(sys.argv[1])
BINARY = os.path.abspath(sys.argv[2])
SEED = int(os.environ.get("SOAK_SEED") or random.SystemRandom().randrange(1 << 31))
KILL_SHARE = float(os.environ.get("SOAK_KILL_SHARE", "0.03"))
KEEP = os.environ.get("SOAK_KEEP") == "1"
EVENTS = float(os.environ.get("SOAK_EVENTS", "1"))
rng = random.Random(SEED)
# The clock steps that come with travel draw from their own stream, so a seed's other events stay as they were
# until the first of them.
travel_rng = random.Random(f"travel-{SEED}")
UTC = dt.timezone.utc
MINUTE = dt.timedelta(minutes=1)
# From 20 March: a month crosses Europe's spring forward (29 March) and Lord Howe's 30-minute fall back (5 April).
START = dt.datetime(2026, 3, 20, 0, 0, tzinfo=UTC)
STEPS = int(DAYS * 1440)
# From 20 March, with excursions up to 40 days back: New York's spring forward (8 March), Berlin's (29 March),
# Sydney's fall back (5 April) and Lord Howe's 30-minute one (5 April).
ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]
QUIET = ("21:15", "02:30")     # ends inside the hours Sydney repeats and Berlin and New York skip
MAX_BACK = dt.timedelta(days=40)
CATCH_UP = dt.timedelta(days=31)     # Candidates.catchUpLimit: older daily occurrences are not looked at
ALARMS = [("fajr", "02:30"), ("dhuhr", "12:00"), ("isha", "19:45")]   # 02:30 does not exist on Berlin's 29 March
PETS = ["p0", "p1", "p2"]
STAGE_MINUTES = {"wash": 45, "dry": 60}     # the pets' washMinutes and dryMinutes
STAGE_EXPIRY = dt.timedelta(hours=6)
ENV = {k: v for k, v in os.environ.items() if k not in ("NUDGE_DATA", "TZ")}
ENV["TZ"] = "UTC"


def stamp(moment):
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_instant(text):
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def stage_id(kind, pet, cycle):
    """The id of the completion of a `wash` or `dry` stage of `pet`'s cycle."""
    return f"laundry.{'washComplete' if kind == 'wash' else 'dryComplete'}:{pet}:{cycle}"


work = tempfile.mkdtemp(prefix="nudge-soak-")
data = os.path.join(work, "data")
os.mkdir(data)
calls_log = os.path.join(work, "calls.log")
recorder = os.path.join(work, "record.sh")
with open(recorder, "w") as handle:
    handle.write(f"#!/bin/sh\nprintf '%s %s\\n' \"$NUDGE_ID\" \"$NUDGE_BADGE\" >> '{calls_log}'\n")
os.chmod(recorder, 0o755)


def write_json(name, content):
    with open(os.path.join(data, name), "w") as handle:
        json.dump(content, handle, indent=1)
        handle.write("\n")


zone = "Europe/Berlin"
write_json("settings.json", {"timeZone": zone, "deliver": {"command": [recorder]},
                             "quietHours": {"start": QUIET[0], "end": QUIET[1]},
                             "notifications": {"enabled": True}})
write_json("alarms.json", {"alarms": [{"id": a, "title": a.title(), "time": t, "durationMinutes": 30}
                                      for a, t in ALARMS]})
write_json("laundry.json", {"pets": [{"id": p, "name": p.upper(), "washMinutes": STAGE_MINUTES["wash"],
                                      "dryMinutes": STAGE_MINUTES["dry"]} for p in PETS]})
# An achievement from the day before the first run: that run records it as seen, never to be announced.
write_json("streaks.json", {"games": [{"id": "wordle", "name": "Wordle"}], "plays": [],
                            "achievements": [{"id": "a-seen", "title": "Before", "description": "soak",
                                              "unlockedAt": stamp(START - dt.timedelta(days=1))}]})
unlocked = {"streak.achievement:a-seen:unlocked": START - dt.timedelta(days=1)}

violations = []


def violation(text):
    violations.append(text)


durations = []                 # seconds of recent completed runs, to aim the kills inside a run


def kill_delay():
    """Anywhere inside a typical run: from its start to a little past its median length."""
    typical = sorted(durations)[len(durations) // 2] if durations else 0.02
    return rng.uniform(0, typical * 1.3)


def nudge(arguments, now, kill_after=None, output=None):
    """Runs nudge; returns (exit code, stderr). kill_after: seconds after which it gets SIGKILL. output: a list
    that gets its stdout."""
    began = time.perf_counter()
    process = subprocess.Popen([BINARY] + arguments + ["--data", data, "--now", stamp(now)],
                               stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL if output is None else subprocess.PIPE,
                               stderr=subprocess.PIPE, env=ENV, cwd=work)
    if kill_after is not None:
        time.sleep(kill_after)
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
    stdout, stderr = process.communicate()
    if output is not None:
        output.append(stdout.decode(errors="replace"))
    if kill_after is None and arguments[0] == "run" and process.returncode == 0:
        durations.append(time.perf_counter() - began)
        del durations[:-50]
    return process.returncode, stderr.decode(errors="replace")


def local_instant(date, hhmm, zone_name):
    """The instant of local `hhmm` on `date` by the wall-clock rule (docs/promises.md): a time in a gap fires at the first instant after the
    gap, a repeated time at the first of the two."""
    zone_info = ZoneInfo(zone_name)
    hour, minute = map(int, hhmm.split(":"))
    wall = dt.datetime(date.year, date.month, date.day, hour, minute)
    first = wall.replace(tzinfo=zone_info, fold=0)
    if first.astimezone(UTC).astimezone(zone_info).replace(tzinfo=None) == wall:
        return first.astimezone(UTC)
    # In a gap: the first whole minute (UTC) whose local time is at or after the wall time.
    probe = wall.replace(tzinfo=zone_info, fold=0).astimezone(UTC) - dt.timedelta(hours=3)
    probe = probe.replace(second=0, microsecond=0)
    while probe.astimezone(zone_info).replace(tzinfo=None) < wall:
        probe += MINUTE
    return probe


# Incremental readers of the outbox and the calls log.
outbox_offset = 0
outbox_ids = {}
outbox_records = []
calls_offset = 0
call_counts = {}


def read_new_outbox(context):
    global outbox_offset
    path = os.path.join(data, "outbox.jsonl")
    if not os.path.exists(path):
        return
    size = os.path.getsize(path)
    if size < outbox_offset:
        violation(f"{context}: outbox.jsonl shrank from {outbox_offset} to {size} bytes")
        outbox_offset = 0
    with open(path, "rb") as handle:
        handle.seek(outbox_offset)
        chunk = handle.read()
    complete = chunk.rfind(b"\n") + 1
    for raw in chunk[:complete].split(b"\n")[:-1]:
        try:
            record = json.loads(raw)
        except Exception as error:
            violation(f"{context}: outbox line does not parse: {error}: {raw[:100]!r}")
            continue
        if record["id"] in outbox_ids:
            violation(f"{context}: duplicate in outbox.jsonl: {record['id']}")
        record["_step"] = current_step
        check_delivery(record, context)
        outbox_ids[record["id"]] = record
        outbox_records.append(record)
    outbox_offset += complete


def read_new_calls(context):
    global calls_offset
    if not os.path.exists(calls_log):
        return
    with open(calls_log) as handle:
        handle.seek(calls_offset)
        chunk = handle.read()
    complete = chunk.rfind("\n") + 1
    for line in chunk[:complete].splitlines():
        oid = line.split(" ")[0]
        call_counts[oid] = call_counts.get(oid, 0) + 1
        if call_counts[oid] == 2:
            violation(f"{context}: the desktop command got {oid} twice")
    calls_offset += complete


ledger = {}
settled_ids = []
settled_dates = {}
delivered_dates = {}
state_clock = (None, None)     # (lastRunAt, timeZone) of the run state.json last recorded
recorded = {}                  # id → (outcome, fireAt, step) of every seen, missed or suppressed outcome
record_log = {}                # id → every (outcome, fireAt, step) recorded[id] has held
recorded_before = set()        # the ids state.json recorded at the previous check
outcome_counts = {"seen": 0, "missed": 0, "suppressed": 0}
all_nows = []                  # (step, now) of every run and edit, killed ones too
seen_steps = set()             # the steps whose clock state.json recorded (a killed run may not have saved it)
snooze_made = {}               # snooze id → when a `nudge snooze` made it or last moved it
snooze_steps = {}              # snooze id → the step that made it
switched_off_steps = set()     # the steps that ran with notifications switched off
step_zones = {}                # step → the zone of its run


def check_files(context):
    global ledger, settled_ids, settled_dates, delivered_dates, state_clock
    for name in ("state.json", "plan.json"):
        path = os.path.join(data, name)
        if os.path.exists(path):
            try:
                with open(path) as handle:
                    content = json.load(handle)
                if name == "state.json":
                    ledger = content.get("ledger", {})
                    settled_ids = content.get("settledIDs", {})
                    settled_dates = content.get("settledDates", {})
                    delivered_dates = content.get("deliveredDates", {})
                    last_run = content.get("lastRunAt")
                    state_clock = (parse_instant(last_run) if last_run else None, content.get("timeZone"))
                    if all_nows and all_nows[-1] == (current_step, state_clock[0]):
                        seen_steps.add(current_step)
            except Exception as error:
                violation(f"{context}: {name} does not parse: {error}")
    # What state.json records now, by id: a ledger outcome, or a date pruned into settledDates (a run far ahead
    # of the last one records and prunes an old occurrence at once, so this may be the first the soak sees of it).
    present = {}
    for oid, entry in ledger.items():
        if entry.get("outcome") in outcome_counts:
            present[oid] = (entry["outcome"], parse_instant(entry["fireAt"]))
    # A one-off pruned keeps its id and an instant: the fireAt recorded for it, or the instant kept (its fireAt,
    # or when it was recorded if that was earlier; an earlier version kept none).
    for oid, text in (settled_ids.items() if isinstance(settled_ids, dict) else ((o, "") for o in settled_ids)):
        kept = parse_instant(text[1:]) if text[:1] in ("@", "!") else stage_fires.get(oid)
        fire = recorded[oid][1] if oid in recorded else kept
        if fire is not None:
            present.setdefault(oid, ("settled", fire))
    for thread, text in settled_dates.items():
        for item in text.split():
            date, instant = item.replace("!", "@", 1).split("@", 1)  # "!" marks a missed date, "@" another
            present.setdefault(f"{thread}:{date}",
                               ("settled", parse_instant(instant if "T" in instant else f"{date}T{instant}:00Z")))
    # A record dates from the step it appeared at. It is new when its id was absent at the previous check (a clock
    # set back made the product forget it, and a later run recorded it again, maybe at the same instant), or when
    # its instant or ledger outcome changed; a ledger entry pruned into settledDates or settledIDs is the same record.
    for oid, (outcome, fire) in present.items():
        old = recorded.get(oid)
        if oid not in recorded_before or old[1] != fire or outcome != "settled" and old[0] != outcome:
            recorded[oid] = (outcome, fire, current_step)
            record_log.setdefault(oid, []).append(recorded[oid])
            if outcome in outcome_counts:
                outcome_counts[outcome] += 1
    recorded_before.clear()
    recorded_before.update(present)


def reopened(step, fire, date=None, hhmm=None, made=None):
    """Whether a run or edit after `step` had its clock before `fire` (due again at its time: docs/promises.md); for
    the alarm at `hhmm` on local `date`, also before that date's instant in the zone of that run (the product
    forgets a record only when the occurrence lies ahead of the corrected clock both as recorded and where the
    clock now is); for a snooze `made` (or last moved) then, also not before that moment (one made after the
    corrected clock's time keeps its outcome)."""
    return any(later > step and moment < fire
               and (date is None or moment < local_instant(date, hhmm, step_zones[later]))
               and (made is None or moment >= made)
               for later, moment in all_nows)


def check_delivery(record, context):
    """Never a replay, and quiet hours kept, for one new outbox line."""
    oid = record["id"]
    if oid in recorded:
        outcome, fire, step = recorded[oid]
        if not reopened(step, fire, made=snooze_made.get(oid)):
            violation(f"{context}: replay: {oid} was recorded {outcome} at step {step} (fireAt {stamp(fire)}), "
                      f"and no clock since went back before it; delivered at {record['deliveredAt']}")
    fire = parse_instant(record["fireAt"])
    if oid in unlocked and fire < unlocked[oid]:
        violation(f"{context}: {oid} fires at {record['fireAt']}, before it was unlocked ({stamp(unlocked[oid])})")
    if record["priority"] in ("low", "medium"):
        local = fire.astimezone(ZoneInfo(zone)).strftime("%H:%M")
        if local >= QUIET[0] or local < QUIET[1]:
            violation(f"{context}: {oid} ({record['priority']}) fires at {local} in {zone}, inside quiet hours")


def delivered_on(thread, date):
    """Whether state.json's `deliveredDates` holds `date` for `thread` (`<kind>:<source>`)."""
    for text in delivered_dates.get(thread, "").split():
        first, _, last = text.partition("/")
        if first <= date.isoformat() <= (last or first):
            return True
    return False


def settled_on(thread, date):
    """Whether state.json's `settledDates` holds `date` for `thread` (each item a date, a mark, an instant)."""
    return any(item[:10] == date.isoformat() for item in settled_dates.get(thread, "").split())


def check_travel(previous_now, previous_zone, context):
    """Nothing lost after travel (docs/travelling.md; DueWindow's wall-clock rule): after a run in a zone other than the
    previous run's, every alarm occurrence whose instant is at or before now and that fell due since the previous
    run, by its instant or because its local date-time in the new zone is later than the previous run's
    wall-clock reading in the old zone, is delivered or recorded."""
    stats["travelRunsChecked"] += 1
    new_zone = ZoneInfo(zone)
    previous_local = previous_now.astimezone(ZoneInfo(previous_zone)).replace(tzinfo=None, microsecond=0)
    # The run looks at local dates from the day before the earlier of its clock and the previous run's, but no
    # further back than the catch-up limit (Candidates.collect).
    start = max(min(previous_now, now), now - CATCH_UP)
    first_listed = start.astimezone(new_zone).date() - dt.timedelta(days=1)
    date, last = min(previous_local.date(), first_listed), now.astimezone(new_zone).date()
    while date <= last:
        for alarm, hhmm in ALARMS:
            hour, minute = map(int, hhmm.split(":"))
            fire = local_instant(date, hhmm, zone)
            passed = dt.datetime(date.year, date.month, date.day, hour, minute) > previous_local
            if fire > now or not passed and fire <= previous_now:
                continue
            if date < first_listed:
                stats["travelAlarmsBeyondCatchUp"] += 1
                continue
            stats["travelAlarmsChecked"] += 1
            stats["travelAlarmsByInstantOnly"] += not passed
            oid = f"alarm.prayer:{alarm}:{date.isoformat()}"
            thread = f"alarm.prayer:{alarm}"
            deliveries = [r for r in outbox_records if r["id"] == oid] if oid in outbox_ids else []
            if len(deliveries) > 1:
                violation(f"{context}: after travel from {previous_zone}, {oid} was delivered "
                          f"{len(deliveries)} times: {[(r['fireAt'], r['deliveredAt']) for r in deliveries]}")
            if deliveries:
                stats["travelAlarmsDelivered"] += 1
            elif oid in ledger or delivered_on(thread, date) or settled_on(thread, date):
                stats["travelAlarmsRecorded"] += 1
            else:
                clocks = [(s, stamp(m)) for s, m in all_nows if current_step - 3 <= s <= current_step]
                owed = "delivery" if now <= fire + dt.timedelta(minutes=30) else "record as missed"
                violation(f"{context}: lost after travel: {oid} due {stamp(fire)} "
                          f"({date.isoformat()} {hhmm} in {zone}, owed a {owed}) fell due since the previous run "
                          f"({'its wall clock' if passed else 'its instant'}: {previous_local.isoformat()} in "
                          f"{previous_zone}, at {stamp(previous_now)}) and is not after now, but is neither "
                          f"delivered nor recorded (history: {recorded.get(oid)}; "
                          f"ledger: {ledger.get(oid)}; neither in deliveredDates nor in settledDates; clocks of the "
                          f"last steps: {clocks})")
        date += dt.timedelta(days=1)


# The simulation.
now = START
previous_completed = None      # (now, zone) of the previous completed run
clock_stepped = False          # a step or zone change since the previous completed run
completed_nows = []            # (step, now) of every completed run, for the end checks
laundry_events = []            # (pet, time of the edit, what, step, the cycle's id after it) for the laundry check
hand_cycles = []               # (index in laundry_events, stage id, fireAt) of each cycle written by hand
stage_fires = {}               # laundry stage id → its fireAt, for an id that state.json keeps without its instant
# The cycles written by hand draw from their own stream, so a seed's other events stay as they were; so do the
# snoozes and the cycles that leave the file and come back.
hand_rng = random.Random(f"hand-{SEED}")
move_rng = random.Random(f"moves-{SEED}")
left_cycles = {}               # pet → (its cycle as it was when removed by hand, the clock then)
snooze_ids = set()             # every snooze id a `nudge snooze` printed as made
current_step = 0
kills_attempted = 0
stats = {"runs": 0, "completedRuns": 0, "killsLanded": 0, "edits": 0, "suspends": 0, "clockBack": 0,
         "clockForward": 0, "zoneChanges": 0, "alarmMinutesChecked": 0, "excursions": 0, "switchedOff": 0,
         "zoneChangesWithStepBack": 0, "zoneChangesWithStepForward": 0, "zoneChangesInExcursionSteps": 0,
         "zoneChangesWhileBehind": 0, "travelRunsChecked": 0, "travelAlarmsChecked": 0,
         "travelAlarmsDelivered": 0, "travelAlarmsRecorded": 0, "travelAlarmsBeyondCatchUp": 0,
         "travelAlarmsByInstantOnly": 0, "handWrittenCycles": 0, "snoozes": 0, "snoozesWhileBehind": 0,
         "snoozesMoved": 0, "cyclesLeft": 0, "cyclesReturned": 0, "cyclesReturnedBehind": 0}
latest = START                 # the latest clock reading so far
excursion_steps = 0            # steps back and forth inside the current excursion
most_steps_in_excursion = 0
longest_excursion = dt.timedelta(0)
switched_on = True
switch_back_at = None
started = time.perf_counter()
exit_codes = {}

for step in range(STEPS):
    current_step = step
    roll = rng.random()
    behind = now < latest
    excursion_step = behind and roll < 0.004 * EVENTS
    if excursion_step:
        # Inside an excursion: corrected to the true time (the latest reading, a little later), or one more step
        # back or forth behind it.
        clock_stepped = True
        choice = rng.random()
        if choice < 0.4:
            now = latest + dt.timedelta(seconds=rng.randrange(0, 600))
            stats["clockForward"] += 1
        elif choice < 0.7:
            now = max(latest - MAX_BACK, now - rng.choice([dt.timedelta(minutes=rng.randrange(1, 180)),
                                                           dt.timedelta(hours=rng.randrange(3, 96)),
                                                           dt.timedelta(days=rng.randrange(4, 40))]))
            stats["clockBack"] += 1
            excursion_steps += 1
        else:
            now = min(latest - MINUTE, now + rng.choice([dt.timedelta(minutes=rng.randrange(2, 600)),
                                                         dt.timedelta(days=rng.randrange(1, 20))]))
            stats["clockForward"] += 1
            excursion_steps += 1
    elif roll < 0.0002 * EVENTS:
        now += dt.timedelta(minutes=rng.randrange(60, 3 * 1440))
        stats["suspends"] += 1
        clock_stepped = True
    elif roll < 0.0005 * EVENTS:
        # A step back: a second, minutes, hours, or days up to 40 (a dead CMOS battery, a wrong NTP server).
        now -= rng.choice([dt.timedelta(seconds=1), dt.timedelta(minutes=rng.randrange(1, 120)),
                           dt.timedelta(hours=rng.randrange(2, 72)), dt.timedelta(days=rng.randrange(3, 41))])
        now = max(now, latest - MAX_BACK)
        stats["clockBack"] += 1
        if not behind:
            stats["excursions"] += 1
            excursion_steps = 0
        excursion_steps += 1
        clock_stepped = True
    elif roll < 0.0006 * EVENTS:
        now += dt.timedelta(minutes=rng.randrange(2, 600))
        stats["clockForward"] += 1
        clock_stepped = True
    else:
        now += MINUTE
    # Notifications switched off for a while: what falls due meanwhile is recorded as suppressed.
    if switched_on and rng.random() < 0.0001 * EVENTS or not switched_on and step >= switch_back_at:
        switched_on = not switched_on
        switch_back_at = step + rng.randrange(30, 600)
        stats["switchedOff"] += not switched_on
        with open(os.path.join(data, "settings.json")) as handle:
            settings = json.load(handle)
        settings["notifications"] = {"enabled": switched_on}
        write_json("settings.json", settings)
        clock_stepped = True
    if not switched_on:
        switched_off_steps.add(step)

    # Travel: the zone changes now and then; half the time the clock steps on arrival (set back by minutes to
    # hours, or corrected forward), and a step inside an excursion sometimes comes with a zone change.
    travelling = rolled = rng.random() < 0.0002 * EVENTS
    if excursion_step and not travelling and travel_rng.random() < 0.12:
        travelling = True
        stats["zoneChangesInExcursionSteps"] += 1
    elif travelling:
        companion = travel_rng.random()
        if companion < 0.3:
            if now >= latest:
                stats["excursions"] += 1
                excursion_steps = 0
            back = travel_rng.choice([dt.timedelta(minutes=travel_rng.randrange(1, 120)),
                                      dt.timedelta(hours=travel_rng.randrange(2, 13))])
            now = max(latest - MAX_BACK, now - back)
            excursion_steps += 1
            stats["clockBack"] += 1
            stats["zoneChangesWithStepBack"] += 1
        elif companion < 0.5:
            if now < latest:
                now = latest + dt.timedelta(seconds=travel_rng.randrange(0, 600))
            else:
                now += dt.timedelta(minutes=travel_rng.randrange(2, 600))
            stats["clockForward"] += 1
            stats["zoneChangesWithStepForward"] += 1
    if travelling:
        zone = (rng if rolled else travel_rng).choice([z for z in ZONES if z != zone])
        with open(os.path.join(data, "settings.json")) as handle:
            settings = json.load(handle)
        settings["timeZone"] = zone
        write_json("settings.json", settings)
        stats["zoneChanges"] += 1
        stats["zoneChangesWhileBehind"] += now < latest
        clock_stepped = True
    if now >= latest:
        latest = now
    else:
        longest_excursion = max(longest_excursion, latest - now)
        most_steps_in_excursion = max(most_steps_in_excursion, excursion_steps)
    all_nows.append((step, now))
    step_zones[step] = zone
    # An edit through nudge's own commands, now and then.
    if rng.random() < min(0.5, 0.01 * EVENTS):
        pet = rng.choice(PETS)
        kind = rng.choice(["wash", "wash", "dry", "fold", "stop", "play", "achievement"])
        if kind in ("wash", "dry"):
            arguments = ["laundry", "start", pet, kind]
        elif kind in ("fold", "stop"):
            arguments = ["laundry", kind, pet]
        elif kind == "play":
            arguments = ["play", "wordle"]
        else:
            arguments = None
            with open(os.path.join(data, "streaks.json")) as handle:
                streaks = json.load(handle)
            streaks["achievements"].append({"id": f"a{step}", "title": f"A{step}", "description": "soak",
                                            "unlockedAt": stamp(now)})
            write_json("streaks.json", streaks)
            unlocked[f"streak.achievement:a{step}:unlocked"] = now
        if arguments:
            code, stderr = nudge(arguments, now)
            if code not in (0, 65):
                violation(f"edit {' '.join(arguments)} at {stamp(now)}: exit {code}: {stderr.strip()[:200]}")
            if code == 0 and arguments[0] == "laundry":
                with open(os.path.join(data, "laundry.json")) as handle:
                    cycle = next(p for p in json.load(handle)["pets"] if p["id"] == pet).get("cycle") or {}
                laundry_events.append((pet, now, kind, step, cycle.get("id", stamp(now))))
                if kind in ("wash", "dry"):
                    stage_fires[stage_id(kind, pet, laundry_events[-1][4])] = now + STAGE_MINUTES[kind] * MINUTE
        stats["edits"] += 1
    elif now < latest and hand_rng.random() < min(0.5, 0.005 * EVENTS):
        # After a set back, a cycle written by hand (a person catching up on the laundry they started): its stage
        # finished up to six hours ago, so it is due now and not expired. No run has seen it; the runs at the later
        # clock must not have settled it (docs/promises.md).
        pet = hand_rng.choice(PETS)
        kind = hand_rng.choice(["wash", "dry"])
        fire = now - hand_rng.randrange(0, 6 * 60) * MINUTE
        started_at = fire - STAGE_MINUTES[kind] * MINUTE
        with open(os.path.join(data, "laundry.json")) as handle:
            laundry = json.load(handle)
        cycle_id = f"h{step}"
        for entry in laundry["pets"]:
            if entry["id"] == pet:
                entry["cycle"] = {"id": cycle_id, "stage": kind, "startedAt": stamp(started_at)}
        write_json("laundry.json", laundry)
        laundry_events.append((pet, started_at, "hand " + kind, step, cycle_id))
        stage_fires[stage_id(kind, pet, cycle_id)] = fire
        hand_cycles.append((len(laundry_events) - 1, stage_id(kind, pet, cycle_id), fire))
        stats["handWrittenCycles"] += 1
    elif move_rng.random() < min(0.5, (0.02 if now < latest else 0.004) * EVENTS):
        # A snooze of a recent delivery (more often while the clock is behind, where set backs cross it), or a
        # cycle removed from the file by hand and, later, the same cycle put back.
        move = move_rng.choice(["snooze", "snooze", "leave", "return"])
        if move == "snooze" and outbox_records:
            # Alarms and laundry stages expire within hours, so a clock step can make their snoozes missed.
            brief = [r for r in outbox_records[-40:] if r["kind"] != "streak.achievement"]
            target = move_rng.choice(brief or outbox_records[-20:])["id"]
            printed = []
            code, stderr = nudge(["snooze", target, "--minutes", str(move_rng.randrange(1, 120))], now,
                                 output=printed)
            if code not in (0, 65):
                violation(f"snooze {target} at {stamp(now)}: exit {code}: {stderr.strip()[:200]}")
            made = re.search(r"\(([^()]*:snooze-[0-9]+)\)\.?\s*$", printed[0].strip()) if code == 0 else None
            if made:
                sid = made.group(1)
                if printed[0].startswith("Snoozed"):
                    if sid in snooze_ids or sid in outbox_ids or sid in recorded:
                        violation(f"snooze at {stamp(now)}: {sid} was already a snooze's id "
                                  f"(delivered: {sid in outbox_ids}, recorded: {recorded.get(sid)})")
                    snooze_ids.add(sid)
                else:
                    stats["snoozesMoved"] += 1
                snooze_made[sid] = now
                snooze_steps.setdefault(sid, step)
                stats["snoozes"] += 1
                stats["snoozesWhileBehind"] += now < latest
            stats["edits"] += 1
        elif move in ("leave", "return"):
            with open(os.path.join(data, "laundry.json")) as handle:
                laundry = json.load(handle)
            pets = [entry for entry in laundry["pets"]
                    if (entry.get("cycle") if move == "leave" else entry["id"] in left_cycles)]
            if pets:
                entry = move_rng.choice(pets)
                if move == "leave":
                    left_cycles[entry["id"]] = (entry.pop("cycle"), now)
                    stats["cyclesLeft"] += 1
                else:
                    cycle, left_at = left_cycles.pop(entry["id"])
                    entry["cycle"] = cycle
                    stats["cyclesReturned"] += 1
                    stats["cyclesReturnedBehind"] += now < left_at
                write_json("laundry.json", laundry)
                laundry_events.append((entry["id"], now, move, step, (entry.get("cycle") or {}).get("id")))

    # The run the product compares with: the one state.json recorded last (a killed run may have saved it).
    run_base = state_clock
    kill = rng.random() < KILL_SHARE
    kills_attempted += kill
    code, stderr = nudge(["run", "--quiet"], now, kill_after=kill_delay() if kill else None)
    stats["runs"] += 1
    exit_codes[code] = exit_codes.get(code, 0) + 1
    context = f"run {step} at {stamp(now)} in {zone}" + (" (killed)" if code == -signal.SIGKILL else "")
    check_files(context)
    read_new_outbox(context)
    read_new_calls(context)
    if code == -signal.SIGKILL:
        stats["killsLanded"] += 1
        continue
    if code != 0:
        violation(f"{context}: exit {code}: {stderr.strip()[:300]}")
        continue
    stats["completedRuns"] += 1
    completed_nows.append((step, now))
    # Nothing lost, minute by minute: a run one minute after the previous completed one, in the same zone with no
    # clock step between, has delivered every alarm whose local time fell in that minute.
    if previous_completed and not clock_stepped and switched_on and previous_completed[1] == zone \
            and now - previous_completed[0] == MINUTE:
        stats["alarmMinutesChecked"] += 1
        local_date = now.astimezone(ZoneInfo(zone)).date()
        for date in (local_date - dt.timedelta(days=1), local_date):
            for alarm, hhmm in ALARMS:
                fire = local_instant(date, hhmm, zone)
                if previous_completed[0] < fire <= now:
                    oid = f"alarm.prayer:{alarm}:{date.isoformat()}"
                    if oid in outbox_ids:
                        continue
                    # Its local date seen, missed or suppressed in another zone stays so (one per date), unless a
                    # clock since went back before the instant it was recorded at and before the date's instant
                    # in that run's zone.
                    outcome, recorded_fire, recorded_step = recorded.get(oid, (None, None, None))
                    if outcome and recorded_fire != fire and not reopened(recorded_step, recorded_fire, date, hhmm):
                        continue
                    violation(f"{context}: lost: {oid} due {stamp(fire)} was not delivered "
                              f"(recorded: {outcome or 'nothing'}, ledger: {ledger.get(oid) or 'nothing'})")
    if run_base[0] is not None and run_base[1] != zone:
        check_travel(run_base[0], run_base[1], context)
    previous_completed = (now, zone)
    clock_stepped = False

# A last run, then the end checks.
final_now = now + MINUTE
code, stderr = nudge(["run", "--quiet"], final_now)
current_step = STEPS
if code == 0:
    completed_nows.append((STEPS, final_now))
else:
    violation(f"final run: exit {code}: {stderr.strip()[:300]}")
read_new_outbox("final run")
time.sleep(1)
read_new_calls("final run")
check_files("final run")

# Every laundry stage that a completed run saw inside its window reached the outbox and the command.
cycle_checks = 0
state = {}
try:
    with open(os.path.join(data, "state.json")) as handle:
        state = json.load(handle)
except Exception as error:
    violation(f"state.json after the final run: {error}")
for record in outbox_records:
    delivered, expires = parse_instant(record["deliveredAt"]), parse_instant(record["expiresAt"])
    # Owed: a completed run from the delivering one on, while the notification had not expired.
    owed = any(step >= record["_step"] and delivered <= moment <= expires for step, moment in completed_nows)
    if owed and record["id"] not in call_counts:
        violation(f"lost by the command: {record['id']} is in outbox.jsonl, the command never got it")
def next_edit(index):
    """The step of the next edit of the pet of `laundry_events[index]` (the cycle stays as it was until then)."""
    pet = laundry_events[index][0]
    following = [e[3] for e in laundry_events[index + 1:] if e[0] == pet]
    return following[0] if following else STEPS + 1


def stage_marks(oid, fire):
    """(outcome, step) of each record of the stage `oid` at its fireAt."""
    return [(outcome, recorded_at) for outcome, moment, recorded_at in record_log.get(oid, []) if moment == fire]


def recorded_by(marks, fire, step):
    """Whether the run at `step` suppressed the stage with notifications switched off, or an earlier run recorded
    it, and no clock that state.json saw since went back before its fireAt (docs/promises.md: only that makes it due
    again; a run killed before saving state.json changed nothing)."""
    return any((mark < step or mark == step and outcome == "suppressed" and step in switched_off_steps)
               and all(clock >= fire for at_step, clock in all_nows[mark + 1:step + 1] if at_step in seen_steps)
               for outcome, mark in marks)


def delivered_since(oid, fire, edit_step):
    """Whether the stage was delivered after the edit: a cycle named like an earlier one would find that one's
    line."""
    return oid in outbox_ids and parse_instant(outbox_ids[oid]["fireAt"]) == fire \
        and outbox_ids[oid]["_step"] >= edit_step


lost_stages = []
for index, (pet, at, kind, edit_step, cycle) in enumerate(laundry_events):
    if kind not in ("wash", "dry"):
        continue
    fire = at + STAGE_MINUTES[kind] * MINUTE
    # The cycle stays as started until the pet's next edit: a completed run in between, inside the stage's
    # window (due, 6 h), must have delivered it (or a run before it that was killed after its outbox line),
    # unless that run or an earlier one recorded it: suppressed while notifications were switched off, or seen or
    # missed by a clock past its window, then set back into it (docs/promises.md).
    inside = [step for step, moment in completed_nows
              if edit_step < step < next_edit(index) and fire <= moment <= fire + STAGE_EXPIRY]
    oid = stage_id(kind, pet, cycle)
    if inside:
        cycle_checks += 1
        marks = stage_marks(oid, fire)
        if not delivered_since(oid, fire, edit_step) and not all(recorded_by(marks, fire, step) for step in inside):
            earlier = outbox_ids.get(oid)
            lost_stages.append(f"{oid} due {stamp(fire)}, started {stamp(at)}; in the outbox: "
                               f"{(earlier['fireAt'], earlier['_step']) if earlier else 'no'}, edit at step "
                               f"{edit_step}; records: {marks}")
# Every cycle written by hand after a set back was due when written, and no run had seen it. The completed runs
# from that step on, while it stays in the file, inside its window (due, 6 h) must have delivered it, or recorded
# it as for a started one; if the first of them came after its expiry, that run recorded it: missed, or seen when
# it had fired before the previous run (docs/promises.md: a span of runs at a later clock settles nothing of it).
hand_counts = {"handWrittenStagesChecked": 0, "handWrittenStagesDelivered": 0, "handWrittenStagesRecorded": 0,
               "handWrittenStagesNotSeenDue": 0}
for index, oid, fire in hand_cycles:
    edit_step = laundry_events[index][3]
    runs = [(step, moment) for step, moment in completed_nows if edit_step <= step < next_edit(index)]
    inside = [step for step, moment in runs if fire <= moment <= fire + STAGE_EXPIRY]
    after = [step for step, moment in runs if moment > fire + STAGE_EXPIRY]
    if not inside and not after:
        hand_counts["handWrittenStagesNotSeenDue"] += 1    # the cycle left the file first, or the clock went back
        continue
    hand_counts["handWrittenStagesChecked"] += 1
    marks = stage_marks(oid, fire)
    if delivered_since(oid, fire, edit_step):
        hand_counts["handWrittenStagesDelivered"] += 1
    elif inside and all(recorded_by(marks, fire, step) for step in inside) \
            or not inside and any(edit_step <= mark <= after[0] for _, mark in marks):
        hand_counts["handWrittenStagesRecorded"] += 1
    else:
        clocks = [stamp(moment) for step, moment in runs[:3]]
        lost_stages.append(f"{oid} written by hand at step {edit_step} ({stamp(all_nows[edit_step][1])}), due "
                           f"{stamp(fire)}: neither delivered nor recorded; the first completed runs after it at "
                           f"{clocks}; records: {marks}")
for text in lost_stages:
    violation(f"lost: {text}")

badge_expected = sum(1 for record in outbox_records if record.get("badge"))
if state.get("badge") != badge_expected:
    violation(f"badge: state.json says {state.get('badge')}, the outbox holds {badge_expected} badged deliveries")

leftovers = []
for root, _, names in os.walk(data):
    leftovers += [os.path.join(root, n) for n in names if ".tmp-" in n]
for name in leftovers:
    violation(f"temporary file left behind: {name}")

left_processes = []
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            cmdline = handle.read()
    except OSError:
        continue
    if work.encode() in cmdline:
        words = cmdline.replace(bytes(1), b" ")[:120]
        left_processes.append(f"{pid}: {words!r}")
for text in left_processes:
    violation(f"process left behind: {text}")

# How often the moves that matter after a set back happened: a snooze missed, and a snooze whose making a later
# clock preceded (a set back across it).
snoozes_missed = sum(1 for sid in snooze_steps if any(o == "missed" for o, _, _ in record_log.get(sid, [])))
snoozes_crossed = sum(1 for sid, made_step in snooze_steps.items()
                      if any(later > made_step and moment < snooze_made[sid] for later, moment in all_nows))
elapsed = time.perf_counter() - started
by_kind = {}
for record in outbox_records:
    by_kind[record["kind"]] = by_kind.get(record["kind"], 0) + 1
summary = dict(stats)
summary.update({
    "snoozesMissed": snoozes_missed, "snoozesCrossedBySetBack": snoozes_crossed,
    "killsAttempted": kills_attempted, "seed": SEED, "days": DAYS, "span": f"{stamp(START)}..{stamp(final_now)}", "killShare": KILL_SHARE,
    "eventRate": EVENTS,
    "exitCodes": {str(k): v for k, v in sorted(exit_codes.items())},
    "deliveries": len(outbox_records), "deliveriesByKind": by_kind, "commandCalls": sum(call_counts.values()),
    "commandDuplicates": sum(1 for n in call_counts.values() if n > 1), "laundryStagesChecked": cycle_checks,
    **hand_counts,
    "badge": state.get("badge"), "badgeExpected": badge_expected, "leftoverTemporaryFiles": len(leftovers),
    "processesLeft": len(left_processes), "violations": len(violations), "seconds": round(elapsed, 1),
    "longestExcursionDays": round(longest_excursion.total_seconds() / 86400, 2),
    "mostStepsInOneExcursion": most_steps_in_excursion, "outcomesRecorded": outcome_counts,
    "stateBytes": os.path.getsize(os.path.join(data, "state.json")) if os.path.exists(os.path.join(data, "state.json")) else 0,
})
print(f"nudge soak: {DAYS:g} simulated days, {stats['runs']} runs (seed {SEED})")
print(f"  binary                {BINARY}")
print(f"  runs                  {stats['runs']}: {stats['completedRuns']} completed, {stats['killsLanded']} killed "
      f"({kills_attempted} kills attempted); "
      f"exit codes {json.dumps(summary['exitCodes'])}")
print(f"  edits                 {stats['edits']} (laundry, plays, achievements, {stats['snoozes']} snoozes: "
      f"{stats['snoozesWhileBehind']} while behind, {stats['snoozesMoved']} moved, {snoozes_missed} missed, "
      f"{snoozes_crossed} crossed by a set back)")
print(f"  cycles left, back     {stats['cyclesLeft']} removed by hand, {stats['cyclesReturned']} put back "
      f"({stats['cyclesReturnedBehind']} with the clock behind the removal)")
print(f"  clock                 {stats['suspends']} suspends, {stats['clockBack']} steps back, "
      f"{stats['clockForward']} forward, {stats['zoneChanges']} zone changes")
print(f"  travel                {stats['zoneChangesWithStepBack']} zone changes with a set back on arrival, "
      f"{stats['zoneChangesWithStepForward']} with a correction forward, {stats['zoneChangesInExcursionSteps']} "
      f"with a step inside an excursion; {stats['zoneChangesWhileBehind']} while behind the latest reading")
print(f"  excursions            {stats['excursions']}, longest {summary['longestExcursionDays']} days behind the "
      f"latest reading, up to {most_steps_in_excursion} steps back and forth inside one")
print(f"  outcomes              {json.dumps(outcome_counts, sort_keys=True)} recorded and held; "
      f"notifications switched off {stats['switchedOff']} times")
print(f"  deliveries            {len(outbox_records)} {json.dumps(by_kind, sort_keys=True)}")
print(f"  command calls         {summary['commandCalls']}, duplicates {summary['commandDuplicates']}")
print(f"  written by hand       {stats['handWrittenCycles']} cycles after a set back, their stage due; "
      f"{hand_counts['handWrittenStagesChecked']} checked: {hand_counts['handWrittenStagesDelivered']} delivered, "
      f"{hand_counts['handWrittenStagesRecorded']} recorded ({hand_counts['handWrittenStagesNotSeenDue']} left "
      f"the file or the clock went back before their time)")
print(f"  checked               {stats['alarmMinutesChecked']} alarm minutes, {cycle_checks} laundry stages; "
      f"{stats['travelRunsChecked']} runs after travel with {stats['travelAlarmsChecked']} alarms fallen due "
      f"({stats['travelAlarmsByInstantOnly']} by their instant only, the rest passed by the new wall clock; "
      f"{stats['travelAlarmsDelivered']} delivered, {stats['travelAlarmsRecorded']} recorded; "
      f"{stats['travelAlarmsBeyondCatchUp']} beyond the catch-up limit)")
print(f"  badge                 {state.get('badge')} (outbox: {badge_expected})")
print(f"  left behind           {len(leftovers)} temporary files, {len(left_processes)} processes")
print(f"  state.json            {summary['stateBytes']} bytes at the end")
print(f"  wall time             {summary['seconds']} s")
if violations:
    print(f"VIOLATIONS ({len(violations)}):")
    for text in violations[:40]:
        print(f"  - {text}")
else:
    print("OK: no file torn, every channel exactly once, nothing lost (after travel too), nothing left behind")
if KEEP:
    print(f"  kept at {work}")
else:
    shutil.rmtree(work, ignore_errors=True)
print("SUMMARY " + json.dumps(summary, sort_keys=True))
sys.exit(1 if violations else 0)
PYTHON
