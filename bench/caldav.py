#!/usr/bin/env python3
"""The calendar channel's figures (docs/performance.md, "The calendar"), against Debian's Radicale started here on a
free loopback port with a checked password:

- requests per day: the example household run every minute for a day (2026-11-21, 1,440 runs, TZ=Europe/Berlin),
  with the wash, the dryer started, a snooze and a stopped cycle on the way; each request counted in Radicale's log;
- the added time of a run that writes one change (the dryer started): wall time of `nudge run` with the calendar
  against the same run without it, median of 21 pairs;
- what `khal list` shows of the day (vdirsyncer + khal, configured in a scratch directory).

    bench/calendar.py NUDGE      a nudge executable (a static release build)
"""
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(os.environ, TZ="Europe/Berlin", XDG_STATE_HOME="/nonexistent", NUDGE_DATA="")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def radicale(scratch):
    port = free_port()
    with open(os.path.join(scratch, "users"), "w") as users:
        users.write("sam:secret\n")
    with open(os.path.join(scratch, "config"), "w") as config:
        config.write(f"[server]\nhosts = 127.0.0.1:{port}\n[auth]\ntype = htpasswd\nhtpasswd_filename = "
                     f"{scratch}/users\nhtpasswd_encryption = plain\ndelay = 0\n[storage]\nfilesystem_folder = "
                     f"{scratch}/storage\n[web]\ntype = none\n[logging]\nlevel = info\n")
    log = open(os.path.join(scratch, "radicale.log"), "w")
    server = subprocess.Popen(["/usr/bin/radicale", "--config", os.path.join(scratch, "config")], stdout=log,
                              stderr=subprocess.STDOUT)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    subprocess.run(["curl", "-sf", "-u", "sam:secret", "-X", "MKCALENDAR", f"http://127.0.0.1:{port}/sam/nudge/"],
                   check=True)
    return server, f"http://127.0.0.1:{port}/sam/nudge/", log.name


def household(target, url):
    shutil.copytree(os.path.join(ROOT, "data"), target)
    path = os.path.join(target, "settings.json")
    with open(path) as file:
        settings = json.load(file)
    if url:
        settings["deliver"] = {"calendar": {"url": url, "user": "sam", "passwordCommand": ["printf", "secret\\n"]}}
    with open(path, "w") as file:
        json.dump(settings, file, indent=2)


def nudge(binary, directory, *arguments):
    return subprocess.run([binary, *arguments, "--data", directory], env=ENV, capture_output=True, text=True)


def requests(log):
    with open(log) as file:
        return re.findall(r"\] (\w+) response status for '([^']*)' in [\d.]+ seconds: (\d+)", file.read())


def day(binary, scratch, url, log):
    directory = os.path.join(scratch, "day")
    household(directory, url)
    before = len(requests(log))
    start = datetime(2026, 11, 21, tzinfo=timezone.utc)
    edits = {"11:20": ["laundry", "start", "snowy", "dry"], "11:32": ["snooze", "dhuhr"],
             "11:50": ["laundry", "stop", "snowy"]}
    busy = 0
    for minute in range(24 * 60):
        now = start + timedelta(minutes=minute)
        stamp = now.strftime("%H:%M")
        if stamp in edits:
            nudge(binary, directory, *edits[stamp], "--now", now.strftime("%Y-%m-%dT%H:%M:%SZ"))
        count = len(requests(log))
        result = nudge(binary, directory, "run", "--quiet", "--now", now.strftime("%Y-%m-%dT%H:%M:%SZ"))
        if result.stderr:
            print(f"{stamp}: {result.stderr.strip()}", file=sys.stderr)
        busy += len(requests(log)) != count
    made = requests(log)[before:]
    methods = {}
    for method, _, status in made:
        methods[f"{method} {status}"] = methods.get(f"{method} {status}", 0) + 1
    print(f"a day of the example household, 1,440 runs: {len(made)} requests in {busy} runs: {methods}")
    return directory


def added_time(binary, scratch, url):
    pairs = []
    for index in range(21):
        timings = []
        for with_calendar in (True, False):
            directory = os.path.join(scratch, f"pair-{index}-{with_calendar}")
            household(directory, url if with_calendar else None)
            nudge(binary, directory, "run", "--quiet", "--now", "2026-11-21T11:19:00Z")
            nudge(binary, directory, "laundry", "start", "snowy", "dry", "--now", "2026-11-21T11:20:00Z")
            began = time.perf_counter()
            nudge(binary, directory, "run", "--quiet", "--now", "2026-11-21T11:20:30Z")
            timings.append(time.perf_counter() - began)
        pairs.append(timings)
    with_calendar = statistics.median(p[0] for p in pairs)
    without = statistics.median(p[1] for p in pairs)
    print(f"a run that writes one change: {with_calendar * 1000:.1f} ms with the calendar, {without * 1000:.1f} ms "
          f"without (median of 21 pairs): +{(with_calendar - without) * 1000:.1f} ms")


def khal(scratch, url):
    home = os.path.join(scratch, "khal")
    os.makedirs(os.path.join(home, "calendar"))
    os.makedirs(os.path.join(home, "status"))
    with open(os.path.join(home, "vdirsyncer.conf"), "w") as config:
        config.write(f'[general]\nstatus_path = "{home}/status"\n[pair nudge]\na = "server"\nb = "local"\n'
                     f'collections = null\n[storage server]\ntype = "caldav"\nurl = "{url}"\nusername = "sam"\n'
                     f'password = "secret"\nread_only = true\n[storage local]\ntype = "filesystem"\n'
                     f'path = "{home}/calendar"\nfileext = ".ics"\n')
    with open(os.path.join(home, "khal.conf"), "w") as config:
        config.write(f"[calendars]\n[[nudge]]\npath = {home}/calendar\n[locale]\ntimeformat = %H:%M\n"
                     f"dateformat = %Y-%m-%d\nlongdateformat = %Y-%m-%d\ndatetimeformat = %Y-%m-%d %H:%M\n"
                     f"longdatetimeformat = %Y-%m-%d %H:%M\nlocal_timezone = Europe/Berlin\n"
                     f"default_timezone = Europe/Berlin\n[sqlite]\npath = {home}/khal.db\n")
    environment = dict(os.environ, HOME=home)
    for step in (["discover", "nudge"], ["sync", "nudge"]):
        subprocess.run(["vdirsyncer", "-c", f"{home}/vdirsyncer.conf", *step], env=environment, check=True,
                       capture_output=True, input="y\n", text=True)
    listed = subprocess.run(["khal", "-c", f"{home}/khal.conf", "list", "--format",
                             "{start-end-time-style} {title}{alarm-symbol}", "2026-11-21", "2d"],
                            env=environment, capture_output=True, text=True, check=True)
    print("khal list 2026-11-21 2d (Europe/Berlin) after the day:\n" + listed.stdout)


def main():
    binary = os.path.abspath(sys.argv[1])
    scratch = tempfile.mkdtemp(prefix="nudge-calendar-bench-")
    server, url, log = radicale(scratch)
    try:
        day(binary, scratch, url, log)
        khal(scratch, url)
        added_time(binary, scratch, url)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
