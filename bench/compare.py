#!/usr/bin/env python3
"""Two nudge builds side by side on bench.py's two everyday figures (docs/performance.md, "Against an earlier build"):
the instructions (callgrind) and the peak memory (median of 5 runs) of one `nudge run` on 10,000 daily alarms and
of the example household's first quiet minute, each build on fresh copies of the same fixtures, TZ=Europe/Berlin.
At the end, whether the two builds left byte-identical plan.json and outbox.jsonl after the same runs.

    bench/compare.py BEFORE AFTER      two nudge executables (static release builds of the two commits)
"""
import filecmp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench      # noqa: E402
import fixtures   # noqa: E402

RUNS = 5


def prepare(binary, pristine, name, target):
    """A fresh copy of fixture `name`, run once at bench.NOW; returns it and the minute to measure: the next one
    for the alarms, the first in which nothing falls due for the household (what falls due before runs for real)."""
    shutil.copytree(os.path.join(pristine, name), target)
    bench.NUDGE = binary
    bench.steady(target)
    minute = bench.minutes()
    return target, (bench.quiet_minute(target, minute) if name == "example" else minute())


def measure(binary, pristine, name, scratch, label):
    directory, now = prepare(binary, pristine, name, os.path.join(scratch, label, name, "counted"))
    argv = [binary, "run", "--data", directory, "--now", now, "--quiet"]
    instructions = bench.instructions(argv)
    memory = []
    for index in range(RUNS):
        copy, again = prepare(binary, pristine, name, os.path.join(scratch, label, name, "rss%d" % index))
        assert again == now
        memory.append(bench.peak_rss([binary, "run", "--data", copy, "--now", now, "--quiet"]))
    return instructions, statistics.median(memory), directory


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    builds = {"before": os.path.abspath(sys.argv[1]), "after": os.path.abspath(sys.argv[2])}
    scratch = tempfile.mkdtemp(prefix="nudge-compare-")
    pristine = os.path.join(scratch, "fixtures")
    os.makedirs(pristine)
    fixtures.example(pristine)
    fixtures.alarms10k(pristine)
    try:
        for name in ("alarms10k", "example"):
            figures = {label: measure(binary, pristine, name, scratch, label) for label, binary in builds.items()}
            (i0, m0, d0), (i1, m1, d1) = figures["before"], figures["after"]
            print("%-10s instructions %12d -> %12d (%+.1f%%)   peak RSS %6d -> %6d KiB (%+.1f%%)" % (
                name, i0, i1, 100.0 * (i1 - i0) / i0, m0, m1, 100.0 * (m1 - m0) / m0))
            for file in ("plan.json", "outbox.jsonl"):
                same = [os.path.exists(os.path.join(d, file)) for d in (d0, d1)]
                identical = same == [False, False] or (all(same) and filecmp.cmp(
                    os.path.join(d0, file), os.path.join(d1, file), shallow=False))
                print("%-10s %s %s" % ("", file, "byte-identical" if identical else "DIFFERS"))
    finally:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
