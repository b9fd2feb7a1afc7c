#!/usr/bin/env python3
"""The differential soak (`SOAK_MODE=differential scripts/soak.sh DAYS`; docs/promises.md, "Woken only when
something is due"): the same simulated household on two data directories from one seed, one run every minute
(as cron runs nudge), the other only at each `nextWakeAt` of its own plan.json (to the second) and right after
each change of a file, of the clock or of the zone (as the systemd units run it). Both must deliver the same
notifications at the same instants (the outbox lines equal, field by field, `deliveredAt` and `lateSeconds` too;
every delivery on time but the ones an event made late: a suspend, a clock step, a zone change, or an edit that
brought a record already due, in both alike) and record the same seen, missed and suppressed outcomes.

Events, on both directories at the same instants: edits through nudge's commands (laundry started, moved to the
dryer, folded, stopped; plays; trips logged, departed and arrived; snoozes of a delivery), edits by hand
(achievements; notifications switched off and on; the zone changed, across Berlin's, New York's and Sydney's DST
days), suspends of hours to days (the schedule's wakes that fall inside are not run: the first run is at the
resume), and clock steps back (minutes to days) and forward. Not included: kills (a killed run's timing is its
own, so the two directories would differ by chance, not by the schedule; scripts/soak.sh covers them) and runs
lingering (`--linger`), which cron needs and the schedule replaces.

The household: the soak's three alarms (02:30 does not exist on Berlin's 29 March), three pets, quiet hours
21:15-02:30, plus a budget of 4 records (so records are deferred and enter the plan as it frees up), the learned
streak reminder, the morning message, and a weekday trip to the office with a travel history that ages.

usage: soak-differential.py DAYS BINARY; environment SOAK_SEED, SOAK_EVENTS (multiplies the events' rates),
SOAK_START (an RFC 3339 instant; default 2026-03-20T00:00:00Z), SOAK_KEEP=1. Exit 0 when both agree, 1 on any difference. The last line is `SUMMARY {json}`.
"""
import datetime as dt
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

DAYS = float(sys.argv[1])
BINARY = os.path.abspath(sys.argv[2])
SEED = int(os.environ.get("SOAK_SEED") or random.SystemRandom().randrange(1 << 31))
EVENTS = float(os.environ.get("SOAK_EVENTS", "1"))
KEEP = os.environ.get("SOAK_KEEP") == "1"
rng = random.Random(SEED)
UTC = dt.timezone.utc
MINUTE = dt.timedelta(minutes=1)
# From 20 March: a month crosses Europe's spring forward (29 March) and Sydney's fall back (5 April).
START = dt.datetime.fromisoformat(os.environ["SOAK_START"].replace("Z", "+00:00")) if os.environ.get("SOAK_START") \
    else dt.datetime(2026, 3, 20, 0, 0, tzinfo=UTC)
STEPS = int(DAYS * 1440)
ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "UTC"]
QUIET = ("21:15", "02:30")
ALARMS = [("fajr", "02:30"), ("dhuhr", "12:00"), ("isha", "19:45")]
PETS = ["p0", "p1", "p2"]
ENV = {k: v for k, v in os.environ.items() if k not in ("NUDGE_DATA", "TZ")}
ENV["TZ"] = "UTC"
# The per-run fields of state.json that legitimately differ: when the last run was, and what it did.
# lastGood hashes settings.json, which names each directory's own recorder.
RUN_FIELDS = ("lastGood", "lastRunAt", "lastRunCommandAt", "lastDelivered", "lastMissed", "lastSuppressed", "lastBudget",
              "outboxBytes", "outboxLastLine", "commandQueue", "latestRunAt")


def stamp(moment):
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_instant(text):
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


class Directory:
    """One data directory and what its runs did."""

    def __init__(self, work, name):
        self.name = name
        self.path = os.path.join(work, name)
        os.mkdir(self.path)
        self.calls = os.path.join(work, name + "-calls.log")
        self.recorder = os.path.join(work, name + "-record.sh")
        with open(self.recorder, "w") as handle:
            handle.write(f"#!/bin/sh\nprintf '%s\\n' \"$NUDGE_ID\" >> '{self.calls}'\n")
        os.chmod(self.recorder, 0o755)
        self.runs = 0
        self.wake = None            # nextWakeAt of the last plan.json
        self.outcomes = {}          # id -> (outcome, fireAt) of every seen, missed or suppressed outcome
        self.deferred_seen = 0      # plans that deferred a record
        self.outbox_offset = 0
        self.outbox_lines = []
        self.state_seen = None      # (mtime, size) of the state.json note_outcomes last read

    def nudge(self, arguments, now):
        process = subprocess.run([BINARY] + arguments + ["--data", self.path, "--now", stamp(now)],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 env=ENV)
        self.read_plan()
        return process.returncode, process.stderr.decode(errors="replace")

    def run(self, now):
        self.runs += 1
        return self.nudge(["run", "--quiet"], now)

    def read_plan(self):
        try:
            with open(os.path.join(self.path, "plan.json")) as handle:
                plan = json.load(handle)
        except FileNotFoundError:
            return
        self.wake = parse_instant(plan["nextWakeAt"]) if plan.get("nextWakeAt") else None
        self.deferred_seen += bool(plan.get("deferred"))

    def json(self, name):
        with open(os.path.join(self.path, name)) as handle:
            return json.load(handle)

    def write(self, name, content):
        with open(os.path.join(self.path, name), "w") as handle:
            json.dump(content, handle, indent=1)
            handle.write("\n")

    def outbox(self):
        """Every line of outbox.jsonl so far, read on from where the last call stopped (nothing here kills a run,
        so the file only grows by whole lines)."""
        path = os.path.join(self.path, "outbox.jsonl")
        if os.path.exists(path):
            with open(path) as handle:
                handle.seek(self.outbox_offset)
                chunk = handle.read()
            self.outbox_offset += len(chunk.encode())
            self.outbox_lines += [json.loads(line) for line in chunk.splitlines() if line.strip()]
        return self.outbox_lines

    def note_outcomes(self):
        """Every outcome state.json holds now, accumulated: the ledger is pruned at different runs."""
        status = os.stat(os.path.join(self.path, "state.json"))
        if (status.st_mtime_ns, status.st_size) == self.state_seen:
            return
        self.state_seen = (status.st_mtime_ns, status.st_size)
        for oid, entry in self.json("state.json").get("ledger", {}).items():
            if entry.get("outcome") in ("seen", "missed", "suppressed"):
                self.outcomes.setdefault((oid, entry["outcome"], entry["fireAt"]), len(self.outcomes))

    def command_calls(self):
        if not os.path.exists(self.calls):
            return []
        with open(self.calls) as handle:
            return handle.read().split()


work = tempfile.mkdtemp(prefix="nudge-differential-")
every = Directory(work, "every-minute")
woken = Directory(work, "woken")
both = (every, woken)


def settings_for(directory, zone):
    return {"timeZone": zone, "deliver": {"command": [directory.recorder]}, "maxPending": 4,
            "quietHours": {"start": QUIET[0], "end": QUIET[1]}, "notifications": {"enabled": True},
            "personalized": {"enabled": True, "firstName": "Sam", "time": "07:30"},
            "streaks": {"enabled": True, "time": "19:00", "smart": True},
            "commute": {"enabled": True, "defaultBufferMinutes": 10}}


zone = "Europe/Berlin"
for directory in both:
    directory.write("settings.json", settings_for(directory, zone))
    directory.write("alarms.json", {"alarms": [{"id": a, "title": a.title(), "time": t, "durationMinutes": 30}
                                               for a, t in ALARMS]})
    directory.write("laundry.json", {"pets": [{"id": p, "name": p.upper(), "washMinutes": 45, "dryMinutes": 60}
                                              for p in PETS]})
    directory.write("streaks.json", {"games": [{"id": "wordle", "name": "Wordle"}],
                                     "plays": [{"at": stamp(START - dt.timedelta(days=d, hours=h))}
                                               for d, h in ((1, 5), (2, 6), (29, 4))],
                                     "achievements": []})
    # Observations that leave the 56-day history during the month, one at a time: the leave-time moves.
    directory.write("trips.json", {"trips": [{
        "id": "office", "destination": "Office", "arriveBy": "08:45", "weekdays": ["mon", "tue", "wed", "thu", "fri"],
        "travelMinutes": 25, "observations": [
            {"departedAt": stamp(START - dt.timedelta(days=56 - 3 * k, hours=-7, minutes=3 * k)), "minutes": 20 + 7 * k}
            for k in range(6)]}]})

differences = []


def differ(text):
    if len(differences) < 200:
        differences.append(text)


def edit_both(arguments, now):
    codes = [directory.nudge(arguments, now) for directory in both]
    if codes[0][0] != codes[1][0]:
        differ(f"{stamp(now)}: `nudge {' '.join(arguments)}` exits {codes[0][0]} every minute, {codes[1][0]} "
               f"woken ({codes[1][1].strip()[:200]})")


def hand_edit(name, change):
    for directory in both:
        content = directory.json(name)
        change(directory, content)
        directory.write(name, content)


stats = {"steps": 0, "edits": 0, "handEdits": 0, "snoozes": 0, "suspends": 0, "clockBack": 0, "clockForward": 0,
         "zoneChanges": 0, "switchedOff": 0, "wakeRuns": 0, "eventRuns": 0, "idleWakes": 0}
now = START
latest = START                 # the latest clock reading so far
switched_on = True
switch_back_at = None
started = time.perf_counter()
compared = 0                 # outbox lines found equal so far
reported = set()             # ids whose difference was reported
caused = set()               # instants of an edit, a suspend, a clock step or a zone change: lateness has a cause
for directory in both:
    directory.run(now)
for step in range(STEPS):
    stats["steps"] += 1
    roll = rng.random()
    event = None
    if now < latest and roll < 0.003 * EVENTS:
        # Behind the latest reading (a step back): corrected to the true time, within minutes.
        target, event = latest + rng.randrange(0, 10) * MINUTE, "clock corrected"
        stats["clockForward"] += 1
    elif roll < 0.0002 * EVENTS:
        target, event = now + dt.timedelta(minutes=rng.randrange(60, 3 * 1440)), "suspend"
        stats["suspends"] += 1
    elif roll < 0.0005 * EVENTS:
        target = now - rng.choice([dt.timedelta(seconds=60), dt.timedelta(minutes=rng.randrange(2, 120)),
                                   dt.timedelta(hours=rng.randrange(2, 72)), dt.timedelta(days=rng.randrange(3, 20))])
        event = "clock back"
        stats["clockBack"] += 1
    elif roll < 0.0006 * EVENTS:
        target, event = now + dt.timedelta(minutes=rng.randrange(2, 600)), "clock forward"
        stats["clockForward"] += 1
    else:
        target = now + MINUTE
        # The woken directory runs at each wake inside the minute, to the second, before the minute's edits.
        while woken.wake is not None and now < woken.wake < target:
            before = len(woken.outbox())
            woken.run(woken.wake)
            stats["wakeRuns"] += 1
            stats["idleWakes"] += len(woken.outbox()) == before
    now = target
    latest = max(latest, now)
    changed = event is not None

    if switched_on and rng.random() < 0.0001 * EVENTS or not switched_on and step >= switch_back_at:
        switched_on = not switched_on
        switch_back_at = step + rng.randrange(30, 600)
        stats["switchedOff"] += not switched_on
        hand_edit("settings.json", lambda d, s: s.update(notifications={"enabled": switched_on}))
        changed = True
    if rng.random() < 0.0002 * EVENTS:
        zone = rng.choice([z for z in ZONES if z != zone])
        hand_edit("settings.json", lambda d, s: s.update(timeZone=zone))
        stats["zoneChanges"] += 1
        changed = True
    if rng.random() < min(0.5, 0.01 * EVENTS):
        kind = rng.choice(["wash", "wash", "dry", "fold", "stop", "play", "achievement", "log", "depart",
                           "arrive", "snooze"])
        pet = rng.choice(PETS)
        arguments = {"wash": ["laundry", "start", pet, "wash"], "dry": ["laundry", "start", pet, "dry"],
                     "fold": ["laundry", "fold", pet], "stop": ["laundry", "stop", pet], "play": ["play", "wordle"],
                     "log": ["trip", "log", "office", str(rng.randrange(15, 60))],
                     "depart": ["trip", "depart", "office"], "arrive": ["trip", "arrive", "office"]}.get(kind)
        if kind == "snooze":
            recent = [r["id"] for r in every.outbox() if now - parse_instant(r["deliveredAt"]) < dt.timedelta(hours=2)]
            arguments = ["snooze", rng.choice(recent), "--minutes", str(rng.randrange(1, 30))] if recent else None
            stats["snoozes"] += bool(recent)
        if kind == "achievement":
            hand_edit("streaks.json", lambda d, s: s["achievements"].append(
                {"id": f"a{step}", "title": f"A{step}", "description": "differential", "unlockedAt": stamp(now)}))
            stats["handEdits"] += 1
            changed = True
        elif arguments:
            edit_both(arguments, now)
            stats["edits"] += 1
            changed = True

    every.run(now)
    if changed or woken.wake is not None and woken.wake <= now:
        before = len(woken.outbox())
        woken.run(now)
        stats["eventRuns" if changed else "wakeRuns"] += 1
        stats["idleWakes"] += not changed and len(woken.outbox()) == before
    # After every step both have run through `now`: the same outbox, line for line.
    lines = [every.outbox(), woken.outbox()]
    if len(lines[0]) != len(lines[1]) or lines[0][compared:] != lines[1][compared:]:
        twins = {r["id"]: r for r in lines[1]}
        for record in lines[0]:
            twin = twins.pop(record["id"], None)
            if twin != record and record["id"] not in reported:
                reported.add(record["id"])
                differ(f"step {step} ({stamp(now)}, {zone}{', ' + event if event else ''}): every minute "
                       f"delivered {record['id']} at {record['deliveredAt']} ({record['lateSeconds']} s late), "
                       f"woken: {(twin['deliveredAt'], twin['lateSeconds']) if twin else 'not delivered'}")
        for oid, twin in twins.items():
            if oid not in reported:
                reported.add(oid)
                differ(f"step {step} ({stamp(now)}): woken delivered {oid} at {twin['deliveredAt']}, every "
                       f"minute did not")
    if changed:
        caused.add(stamp(now))
    if len(lines[0]) == len(lines[1]) and lines[0][compared:] == lines[1][compared:]:
        compared = len(lines[0])
    for directory in both:
        directory.note_outcomes()

# A last run of both at the same instant, then the files compared.
now += MINUTE
for directory in both:
    directory.run(now)
    directory.note_outcomes()
outcome_sets = [set(d.outcomes) for d in both]
for oid, outcome, fire in sorted(outcome_sets[0] - outcome_sets[1]):
    differ(f"every minute recorded {oid} {outcome} (fireAt {fire}), woken did not")
for oid, outcome, fire in sorted(outcome_sets[1] - outcome_sets[0]):
    differ(f"woken recorded {oid} {outcome} (fireAt {fire}), every minute did not")
# The delivery memory says once what each occurrence came to, in one of two forms: a ledger entry, and, two days
# after the entry's expiry by a run's clock, the compact form `DeliveryMemory.prune` moves it to. When a run
# crosses that horizon depends on when runs happen: a run every minute during a clock that ran ahead crosses it
# where a woken directory, with no run then, does not (seed 1257007199). So the memory is compared by what it
# says: every ledger entry in its compact form, and the entries both ledgers still hold, whole.
MEMORY_FIELDS = ("ledger", "deliveredIDs", "deliveredDates", "settledIDs", "settledDates")


def expand_dates(text):
    """The dates of a deliveredDates value: `2026-03-20/2026-03-22 2026-03-26`."""
    for piece in text.split():
        first, _, last = piece.partition("/")
        day, end = dt.date.fromisoformat(first), dt.date.fromisoformat(last or first)
        while day <= end:
            yield day.isoformat()
            day += dt.timedelta(days=1)


def compact_memory(state):
    """(id, "delivered") and (id, "missed" or "settled", instant) for everything the memory holds."""
    memory = set()
    for oid, entry in state.get("ledger", {}).items():
        if entry["outcome"] == "delivered":
            memory.add((oid, "delivered"))
        else:
            instant = min(parse_instant(entry["at"]), parse_instant(entry["fireAt"]))
            memory.add((oid, "missed" if entry["outcome"] == "missed" else "settled", instant))
    memory.update((oid, "delivered") for oid in state.get("deliveredIDs", []))
    for thread, dates in state.get("deliveredDates", {}).items():
        memory.update((f"{thread}:{date}", "delivered") for date in expand_dates(dates))
    for oid, text in state.get("settledIDs", {}).items():
        memory.add((oid, "missed" if text[0] == "!" else "settled", parse_instant(text[1:])))
    for thread, dates in state.get("settledDates", {}).items():
        for piece in dates.split():
            mark = next(i for i, c in enumerate(piece) if c in "@!")
            date, at = piece[:mark], piece[mark + 1:]
            instant = parse_instant(f"{date}T{at}:00Z" if len(at) == 5 else at)
            memory.add((f"{thread}:{date}", "missed" if piece[mark] == "!" else "settled", instant))
    return memory


final = [d.json("state.json") for d in both]
memories = [compact_memory(state) for state in final]
for item in sorted(memories[0] - memories[1], key=str):
    differ(f"final memory: every minute holds {item[0]} {item[1:]}, woken does not")
for item in sorted(memories[1] - memories[0], key=str):
    differ(f"final memory: woken holds {item[0]} {item[1:]}, every minute does not")
ledgers = [state.get("ledger", {}) for state in final]
for oid in sorted(set(ledgers[0]) & set(ledgers[1])):
    if ledgers[0][oid] != ledgers[1][oid]:
        differ(f"final ledger entry {oid}: every minute {ledgers[0][oid]}, woken {ledgers[1][oid]}")
states = [{k: v for k, v in state.items() if k not in RUN_FIELDS + MEMORY_FIELDS} for state in final]
for key in sorted(set(states[0]) | set(states[1])):
    if states[0].get(key) != states[1].get(key):
        differ(f"final state.json differs in {key}: every minute {json.dumps(states[0].get(key))[:300]}, woken "
               f"{json.dumps(states[1].get(key))[:300]}")
if every.command_calls() != woken.command_calls():
    differ(f"the command got {len(every.command_calls())} calls every minute, {len(woken.command_calls())} woken")

outbox = every.outbox()
late = [r for r in outbox if r["lateSeconds"] != 0]
for record in late:
    if record["deliveredAt"] not in caused:
        differ(f"{record['id']} delivered {record['lateSeconds']} s late at {record['deliveredAt']}, with no edit, "
               f"suspend, clock step or zone change then")
outcomes = {}
for _, outcome, _ in outcome_sets[0]:
    outcomes[outcome] = outcomes.get(outcome, 0) + 1
by_kind = {}
for record in outbox:
    by_kind[record["kind"]] = by_kind.get(record["kind"], 0) + 1
summary = dict(stats)
summary.update({
    "seed": SEED, "days": DAYS, "eventRate": EVENTS, "span": f"{stamp(START)}..{stamp(now)}",
    "runsEveryMinute": every.runs, "runsWoken": woken.runs, "deliveries": len(outbox), "deliveriesByKind": by_kind,
    "lateDeliveries": len(late), "outcomes": outcomes,
    "plansWithDeferred": woken.deferred_seen, "differences": len(differences),
    "seconds": round(time.perf_counter() - started, 1),
})
print(f"nudge differential soak: {DAYS:g} simulated days (seed {SEED})")
print(f"  runs                  every minute {every.runs}, woken {woken.runs} ({stats['wakeRuns']} at nextWakeAt, "
      f"{stats['idleWakes']} of them delivering nothing; {stats['eventRuns']} after an edit, a clock step or a resume)")
print(f"  events                {stats['edits']} edits by command ({stats['snoozes']} snoozes), {stats['handEdits']} "
      f"achievements by hand, {stats['zoneChanges']} zone changes, {stats['switchedOff']} switched off, "
      f"{stats['suspends']} suspends, {stats['clockBack']} steps back, {stats['clockForward']} forward")
print(f"  deliveries            {len(outbox)} {json.dumps(by_kind, sort_keys=True)}; {len(late)} late (at an edit, a "
      f"suspend, a clock step or a zone change, in both)")
print(f"  outcomes              {json.dumps(outcomes, sort_keys=True)}; {woken.deferred_seen} woken plans deferred "
      f"a record")
print(f"  wall time             {summary['seconds']} s")
if differences:
    print(f"DIFFERENCES ({len(differences)}):")
    for text in differences[:40]:
        print(f"  - {text}")
else:
    print("OK: the same deliveries at the same seconds, the same outcomes")
if KEEP:
    print(f"  kept at {work}")
else:
    shutil.rmtree(work, ignore_errors=True)
print("SUMMARY " + json.dumps(summary, sort_keys=True))
sys.exit(1 if differences else 0)
