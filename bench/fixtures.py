#!/usr/bin/env python3
"""Writes the benchmark data directories and the matching Remind files.

    fixtures.py OUT_DIR

OUT_DIR/example      the repository's data/ and example.rem (one REM ... AT line per alarm and timer)
OUT_DIR/alarms10k    10,000 daily alarms and alarms10k.rem (the same 10,000 reminders)
OUT_DIR/scale        10,000 pets (half mid-cycle), 10,000 alarms, 10,000 trips with 50 observations each,
                     100 games with 200,000 plays (about 40 MB)
OUT_DIR/scale2x      the same at twice the size, for the linearity check
Deterministic: the same files every time.
"""
import json
import os
import random
import shutil
import sys

NOW = "2026-11-21T10:00:00Z"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(path, value):
    with open(path, "w") as handle:
        json.dump(value, handle, separators=(",", ":"))


def hhmm(minutes):
    return "%02d:%02d" % ((minutes // 60) % 24, minutes % 60)


def alarms(count, prefix="a"):
    return {"alarms": [{"id": "%s%05d" % (prefix, i), "title": "Alarm %d" % i, "time": hhmm(i * 7 % 1440),
                        "durationMinutes": 15} for i in range(count)]}


def remind_lines(times):
    return "".join("REM AT %s MSG %s\n" % (time, text) for time, text in times)


def example(out):
    target = os.path.join(out, "example")
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "data"), target,
                    ignore=shutil.ignore_patterns("plan.json", "state.json", "outbox.jsonl", ".lock", ".last-good"))
    with open(os.path.join(target, "alarms.json")) as handle:
        # An alarm that follows a prayer rings at its computed time; Remind gets that day's time (maghrib in
        # Berlin on 2026-11-21: 16:05).
        times = [(a.get("time", "16:05"), a["title"]) for a in json.load(handle)["alarms"]]
    times.append(("12:15", "Snowy wash complete"))  # the example's one running timer (11:15Z = 12:15 Berlin)
    with open(os.path.join(out, "example.rem"), "w") as handle:
        handle.write(remind_lines(times))


def alarms10k(out):
    target = os.path.join(out, "alarms10k")
    os.makedirs(target, exist_ok=True)
    write(os.path.join(target, "settings.json"), {"timeZone": "Europe/Berlin"})
    document = alarms(10_000)
    write(os.path.join(target, "alarms.json"), document)
    with open(os.path.join(out, "alarms10k.rem"), "w") as handle:
        handle.write(remind_lines((a["time"], a["title"]) for a in document["alarms"]))


def scale(out, name, factor):
    rng = random.Random(42)
    target = os.path.join(out, name)
    os.makedirs(target, exist_ok=True)
    n = 10_000 * factor
    write(os.path.join(target, "settings.json"), {"timeZone": "Europe/Berlin", "streaks": {"smart": True}})
    pets = []
    for i in range(n):
        pet = {"id": "p%06d" % i, "name": "Pet %d" % i, "washMinutes": 45, "dryMinutes": 60,
               "lastCompletedAt": "2026-11-%02dT08:00:00Z" % (10 + i % 10)}
        if i % 2 == 0:
            pet["cycle"] = {"id": "c%06d" % i, "stage": "wash" if i % 4 == 0 else "dry",
                            "startedAt": "2026-11-21T%02d:%02d:00Z" % (8 + i % 4, i % 60)}
        pets.append(pet)
    write(os.path.join(target, "laundry.json"), {"pets": pets})
    write(os.path.join(target, "alarms.json"), alarms(n))
    trips = []
    for i in range(n):
        observations = [{"departedAt": "2026-%02d-%02dT07:%02d:00Z" % (10 + (d // 30), 1 + d % 28, rng.randrange(60)),
                         "minutes": rng.randrange(20, 45)} for d in range(50)]
        trips.append({"id": "t%06d" % i, "destination": "Place %d" % i, "arriveBy": hhmm(480 + i % 120),
                      "weekdays": ["mon", "tue", "wed", "thu", "fri"], "travelMinutes": 25,
                      "observations": observations})
    write(os.path.join(target, "trips.json"), {"trips": trips})
    games = [{"id": "g%03d" % g, "name": "Game %d" % g, "streak": g % 7} for g in range(100 * factor)]
    plays = []
    for i in range(200_000 * factor):
        day = 1 + i % 20
        plays.append({"game": "g%03d" % (i % (100 * factor)),
                      "at": "2026-11-%02dT%02d:%02d:%02dZ" % (day, 17 + i % 5, i % 60, (i * 7) % 60)})
    write(os.path.join(target, "streaks.json"), {"games": games, "plays": plays})


def indented(out, source, name):
    """The same files written with two-space indentation, as a person or `python3 -m json.tool` writes them: more
    bytes of white space per value (about 1.8 times the compact size)."""
    target = os.path.join(out, name)
    os.makedirs(target, exist_ok=True)
    for file in os.listdir(os.path.join(out, source)):
        if file.endswith(".json"):
            with open(os.path.join(out, source, file)) as handle:
                value = json.load(handle)
            with open(os.path.join(target, file), "w") as handle:
                json.dump(value, handle, indent=2)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/nudge-bench"
    os.makedirs(out, exist_ok=True)
    example(out)
    alarms10k(out)
    scale(out, "scale", 1)
    scale(out, "scale2x", 2)
    indented(out, "scale", "scale-indented")
    print(out)


if __name__ == "__main__":
    main()
