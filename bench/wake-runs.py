#!/usr/bin/env python3
"""Runs per day and CPU per day of a data directory under the systemd units (docs/systemd.md) against cron.

Usage: bench/wake-runs.py [DATA] [DAYS] (defaults: data 7). Needs a release build (swift build -c release).

From 2026-11-21T00:00Z, on a copy of DATA, with TZ=Europe/Berlin:
- woken: a run at the plan's nextWakeAt or at the next hour (nudge-hourly.timer), whichever comes first;
- every minute, for the first day only (cron's schedule).
Prints the runs, the deliveries and the CPU time (user + system of the runs) of each.
"""
import datetime as dt
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile

BINARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "release", "nudge")
START = dt.datetime(2026, 11, 21, tzinfo=dt.timezone.utc)
ENV = dict(os.environ, TZ="Europe/Berlin")


def fresh_copy(source):
    directory = tempfile.mkdtemp(prefix="nudge-wake-runs-")
    shutil.rmtree(directory)
    shutil.copytree(source, directory)
    for name in ("plan.json", "state.json", "outbox.jsonl"):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            os.remove(path)
    return directory


def stamp(instant):
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


def run(directory, instant):
    """One run at `instant`; returns its CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([BINARY, "run", "--quiet", "--data", directory, "--now", stamp(instant)], env=ENV,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def deliveries(directory):
    path = os.path.join(directory, "outbox.jsonl")
    return sum(1 for _ in open(path)) if os.path.exists(path) else 0


def woken(source, days):
    directory = fresh_copy(source)
    instant, end, runs, cpu = START, START + dt.timedelta(days=days), 0, 0.0
    while instant < end:
        cpu += run(directory, instant)
        runs += 1
        with open(os.path.join(directory, "plan.json")) as plan_file:
            next_wake = json.load(plan_file).get("nextWakeAt")
        candidates = [instant.replace(minute=0, second=0, microsecond=0) + dt.timedelta(hours=1)]
        if next_wake:
            candidates.append(dt.datetime.strptime(next_wake, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc))
        instant = min(candidates)
    result = (runs, deliveries(directory), cpu)
    shutil.rmtree(directory)
    return result


def every_minute(source):
    directory = fresh_copy(source)
    cpu = sum(run(directory, START + dt.timedelta(minutes=minute)) for minute in range(1440))
    result = (1440, deliveries(directory), cpu)
    shutil.rmtree(directory)
    return result


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "data"
    days = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    runs, delivered, cpu = woken(source, days)
    print(f"woken:        {runs} runs over {days} days ({runs / days:.1f} a day), {delivered} deliveries, "
          f"CPU {cpu:.2f} s ({cpu / days:.2f} s a day, {cpu / runs * 1000:.1f} ms a run)")
    one_day = woken(source, 1)
    minute = every_minute(source)
    print(f"first day:    woken {one_day[0]} runs, {one_day[1]} deliveries, CPU {one_day[2]:.2f} s; "
          f"every minute {minute[0]} runs, {minute[1]} deliveries, CPU {minute[2]:.2f} s "
          f"({minute[2] / minute[0] * 1000:.1f} ms a run)")


if __name__ == "__main__":
    main()
