#!/usr/bin/env python3
"""nudge's performance benchmark: ratios against Remind and CPython, peak memory, linearity, delivery accuracy
with --linger, the binary's size and instruction counts (callgrind), each printed with its goal beside it. Run it
through bench/run.sh, which builds the release binary first.

    bench.py NUDGE_BINARY [--pairs N] [--out DIR] [--skip-linger] [--skip-callgrind]

Each comparison runs the two commands interleaved, N pairs, and reports the medians and the median of the
per-pair ratios. Timings are wall-clock of whole processes (start-up included), as cron pays them. Both sides of a
comparison run in the same environment: first with TZ=Europe/Berlin (the figure held to its goal), then with TZ
unset, printed beside it (glibc then checks /etc/localtime at every localtime() call, which slows Remind down).
"""
import argparse
import calendar
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
NOW = "2026-11-21T10:00:00Z"
DATE = "2026-11-21"


ZONE = "Europe/Berlin"


def environment(tz):
    """The benchmark's environment with TZ set to `tz`, or without TZ (None)."""
    env = {key: value for key, value in os.environ.items() if key != "TZ"}
    if tz:
        env["TZ"] = tz
    return env


def timed(argv, env=None):
    """Wall seconds and peak RSS (KiB) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - start
    if completed.returncode not in (0,):
        sys.exit("failed (%d): %s\n%s" % (completed.returncode, " ".join(argv), completed.stderr.decode()[-2000:]))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, after.ru_maxrss if after.ru_maxrss > before.ru_maxrss else peak_rss(argv)


def peak_rss(argv):
    """Peak RSS in KiB through /usr/bin/time (ru_maxrss of RUSAGE_CHILDREN is the maximum over all children)."""
    completed = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=environment(ZONE))
    return int(completed.stderr.decode().strip().splitlines()[-1])


# The goals each figure is held to (docs/performance.md), with TZ set on both sides.
GOALS = {
    "1. example data vs remind -q": 1.3,
    "2. 10,000 alarms vs remind -q": 2.0,
    "3. scale --dry-run vs json.load": 0.8,
    "3. scale-indented --dry-run vs json.load": 0.8,
}
PLAN_BYTES_GOAL = 1.5e6          # plan.json of the 10,000 alarms
INSTRUCTIONS_GOAL = 1.6e6        # one quiet minute of the example household


def verdict(value, goal, unit=""):
    return "goal ≤ %s%s: %s" % (goal, unit, "met" if value <= goal else "MISSED")


def instructions(argv):
    """Instructions of one process under callgrind (repeatable, unlike timings on a shared machine), TZ set."""
    with tempfile.TemporaryDirectory() as scratch:
        completed = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + scratch + "/out"]
                                   + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment(ZONE))
        for line in completed.stderr.decode().splitlines():
            if "Collected :" in line:
                return int(line.split(":")[-1].strip())
    sys.exit("callgrind printed no count for " + " ".join(argv))


def argv_of(command):
    """A command is an argv list, or a function that gives the argv of its next run."""
    return command() if callable(command) else command


def interleaved(left, right, count, env):
    """Medians of `count` interleaved pairs, and the median of their ratios."""
    for _ in range(2):  # warm the page cache and the dynamic loader
        timed(argv_of(left), env), timed(argv_of(right), env)
    lefts, rights, ratios = [], [], []
    for _ in range(count):
        a, _ = timed(argv_of(left), env)
        b, _ = timed(argv_of(right), env)
        lefts.append(a)
        rights.append(b)
        ratios.append(a / b)
    return statistics.median(lefts), statistics.median(rights), statistics.median(ratios)


def pairs(name, left, right, count, left_label, right_label):
    """The comparison with TZ set on both sides (held to its goal), and with TZ unset on both sides beside it."""
    a, b, ratio = interleaved(left, right, count, environment(ZONE))
    result = {"name": name, left_label: a, right_label: b, "ratio": ratio}
    goal = GOALS.get(name) or GOALS.get(name.replace("scale2x", "scale"))
    print("%-34s TZ=%s: %s %7.2f ms  %s %7.2f ms  ratio %.2f   %s" % (
        name, ZONE, left_label, a * 1000, right_label, b * 1000, ratio, verdict(ratio, goal) if goal else ""))
    a, b, ratio = interleaved(left, right, count, environment(None))
    result.update({"tzUnset": {left_label: a, right_label: b, "ratio": ratio}})
    print("%-34s TZ unset:  %s %7.2f ms  %s %7.2f ms  ratio %.2f" % (
        "", left_label, a * 1000, right_label, b * 1000, ratio))
    return result


def minutes(start=NOW):
    """The next minute on each call, from `start`: the household runs as cron runs it, each run a minute after the
    one before. (Runs at one fixed --now would rewrite files whose content did not change, which never happens
    under cron, where each run writes its own time.) The example household has nothing due before 11:15Z."""
    count = [0]

    def next_minute():
        count[0] += 1
        seconds = calendar.timegm(time.strptime(start, "%Y-%m-%dT%H:%M:%SZ")) + 60 * count[0]
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))
    return next_minute


def steady(directory):
    """A data directory that has been run once at NOW, so the measured runs are ordinary per-minute runs."""
    subprocess.run([NUDGE, "run", "--data", directory, "--now", NOW, "--quiet"], check=True, env=environment(ZONE))
    return directory


def quiet_minute(directory, minute):
    """The household's next minute in which nothing falls due: each minute with a delivery (a dry run says so) is
    run for real, as cron would, so that the measured run has only its own minute to plan."""
    while True:
        now = minute()
        due = subprocess.run([NUDGE, "run", "--data", directory, "--now", now, "--dry-run", "--json"],
                             capture_output=True, text=True, env=environment(ZONE)).stdout
        if not due.strip():
            return now
        subprocess.run([NUDGE, "run", "--data", directory, "--now", now, "--quiet"], check=True,
                       env=environment(ZONE))


def linger_accuracy(workdir):
    """Starts a real timer due 20 s ahead, runs `nudge run --linger 59` as cron would, and records when the
    delivery line appears; also the CPU the lingering process used."""
    directory = os.path.join(workdir, "linger")
    os.makedirs(directory, exist_ok=True)
    start = time.time()
    started_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + 20 - 60))  # one-minute wash, due in 20 s
    with open(os.path.join(directory, "settings.json"), "w") as handle:
        json.dump({"timeZone": "UTC"}, handle)
    with open(os.path.join(directory, "laundry.json"), "w") as handle:
        json.dump({"pets": [{"id": "snowy", "washMinutes": 1,
                             "cycle": {"id": "c1", "stage": "wash", "startedAt": started_at}}]}, handle)
    due = time.mktime(time.strptime(started_at, "%Y-%m-%dT%H:%M:%SZ")) - time.timezone + 60
    subprocess.run([NUDGE, "run", "--data", directory, "--quiet"], check=True)  # the first run: plans it
    process = subprocess.Popen(["/usr/bin/time", "-f", "%U %S", NUDGE, "run", "--data", directory, "--json",
                                "--linger", "59"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = process.stdout.readline()
    seen = time.time()
    process.wait()
    cpu = sum(float(x) for x in process.stderr.read().decode().split()[-2:])
    record = json.loads(line)
    delay = seen - due
    print("%-34s due %s, line after %+.3f s, deliveredAt %s, CPU %.3f s over %.1f s"
          % ("linger: timer due in 20 s", record["fireAt"], delay, record["deliveredAt"], cpu, time.time() - start))
    return {"delaySeconds": delay, "cpuSeconds": cpu}


def main():
    global NUDGE
    parser = argparse.ArgumentParser()
    parser.add_argument("nudge")
    parser.add_argument("--pairs", type=int, default=21)
    parser.add_argument("--out", default=None)
    parser.add_argument("--skip-linger", action="store_true")
    parser.add_argument("--skip-callgrind", action="store_true")
    options = parser.parse_args()
    NUDGE = os.path.abspath(options.nudge)
    workdir = options.out or tempfile.mkdtemp(prefix="nudge-bench-")
    subprocess.run([sys.executable, os.path.join(HERE, "fixtures.py"), workdir], check=True, stdout=subprocess.DEVNULL)
    remind = shutil.which("remind")
    results = []

    # For the instruction count: a copy that the timed runs leave alone, so its quiet minute (10:01Z, after the
    # one run at NOW) is the same whatever --pairs is.
    example_quiet = os.path.join(workdir, "example-quiet")
    shutil.copytree(os.path.join(workdir, "example"), example_quiet)
    example = steady(os.path.join(workdir, "example"))
    minute = minutes()
    results.append(pairs("1. example data vs remind -q",
                         lambda: [NUDGE, "run", "--data", example, "--now", minute(), "--quiet"],
                         [remind, "-q", os.path.join(workdir, "example.rem"), DATE], options.pairs, "nudge", "remind"))
    # The same run without writing (its time stamps in state.json and plan.json): the work alone, against the
    # whole of Remind's; no goal, it shows how much of figure 1 is the writing that Remind does not do.
    results.append(pairs("1. the same, --dry-run (no writes)",
                         lambda: [NUDGE, "run", "--data", example, "--now", minute(), "--quiet", "--dry-run"],
                         [remind, "-q", os.path.join(workdir, "example.rem"), DATE], options.pairs, "nudge", "remind"))
    alarms = steady(os.path.join(workdir, "alarms10k"))
    alarms_steady = os.path.join(workdir, "alarms10k-steady")  # for callgrind: the state of one run at NOW
    shutil.copytree(alarms, alarms_steady)
    # About seven of the 10,000 alarms ring each minute: each run delivers them (outbox and state.json flushed).
    alarm_minute = minutes()
    results.append(pairs("2. 10,000 alarms vs remind -q",
                         lambda: [NUDGE, "run", "--data", alarms, "--now", alarm_minute(), "--quiet"],
                         [remind, "-q", os.path.join(workdir, "alarms10k.rem"), DATE], options.pairs, "nudge",
                         "remind"))
    plan_bytes = os.path.getsize(os.path.join(alarms, "plan.json"))
    print("%-34s %.2f MB   %s" % ("2. plan.json of 10,000 alarms", plan_bytes / 1e6,
                                  verdict(round(plan_bytes / 1e6, 2), PLAN_BYTES_GOAL / 1e6, " MB")))
    loader = "import json,glob,sys\nfor f in sorted(glob.glob(sys.argv[1] + '/*.json')): json.load(open(f))"
    sizes = {}
    for name in ("scale", "scale2x", "scale-indented"):
        directory = os.path.join(workdir, name)
        sizes[name] = sum(os.path.getsize(os.path.join(directory, f)) for f in os.listdir(directory)
                          if f.endswith(".json"))
        result = pairs("3. %s --dry-run vs json.load" % name,
                       [NUDGE, "run", "--data", directory, "--now", NOW, "--dry-run", "--quiet"],
                       [sys.executable, "-c", loader, directory], max(5, options.pairs // 2), "nudge", "python")
        rss = peak_rss([NUDGE, "run", "--data", directory, "--now", NOW, "--dry-run", "--quiet"])
        result.update({"inputBytes": sizes[name], "peakRSSKiB": rss, "memoryRatio": rss * 1024 / sizes[name]})
        print("%-34s input %.1f MB, peak RSS %.1f MB, %.2f× the input"
              % ("", sizes[name] / 1e6, rss / 1024, result["memoryRatio"]))
        results.append(result)
    time_growth = results[-2]["nudge"] / results[-3]["nudge"]
    memory_growth = results[-2]["peakRSSKiB"] / results[-3]["peakRSSKiB"]
    print("%-34s time ×%.2f, memory ×%.2f for ×%.2f input"
          % ("4. linearity (scale2x / scale)", time_growth, memory_growth, sizes["scale2x"] / sizes["scale"]))
    if not options.skip_linger:
        results.append(linger_accuracy(workdir))
    size = os.path.getsize(NUDGE)
    stripped = os.path.join(workdir, "nudge-stripped")
    subprocess.run(["strip", "-o", stripped, NUDGE], check=True)
    print("%-34s %.1f MB stripped (%.1f MB as built)   %s" % ("6. binary size", os.path.getsize(stripped) / 1e6,
                                                          size / 1e6, verdict(round(os.path.getsize(stripped) / 1e6, 1), 15, " MB")))
    if not options.skip_callgrind and shutil.which("valgrind"):
        # The household's first quiet minute after a run at NOW; the 10,000 alarms again at NOW, after the one run
        # at NOW (delivering nothing): the count is their planning and writing alone, comparable from one version
        # to the next.
        example_quiet = steady(example_quiet)
        for name, directory, now, rem in (("7. instructions, example data", example_quiet,
                                           quiet_minute(example_quiet, minutes()), "example.rem"),
                                          ("8. instructions, 10,000 alarms", alarms_steady, NOW, "alarms10k.rem")):
            ours = instructions([NUDGE, "run", "--data", directory, "--now", now, "--quiet"])
            theirs = instructions([remind, "-q", os.path.join(workdir, rem), DATE])
            text = "%-34s nudge %.2f M   remind %.2f M   ×%.2f" % (name, ours / 1e6, theirs / 1e6, ours / theirs)
            if name.startswith("7."):
                text += "   " + verdict(round(ours / 1e6, 2), INSTRUCTIONS_GOAL / 1e6, " M")
            print(text)
    if not options.out:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
