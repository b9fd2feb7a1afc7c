#!/usr/bin/env python3
"""Checks that every program the tests started comes from something a new machine installs.

    check_programs.py TRACE PACKAGES REPOSITORY

TRACE is strace's log of the test run (`strace -f -z -e trace=execve,execveat`): every successful exec of the tests
and of what they started — servers, the D-Bus services a bus activated for them, units a user manager ran. PACKAGES
is .ci/packages.txt. Each program (and the interpreter named on a script's #! line) must be one of:

- a file of a Debian package on the list, of a package those depend on (Depends, Pre-Depends; apt installs
  those whatever the mode), or of an Essential package (every Debian system has them);
- a file of the Swift toolchain (/opt/swift), of this repository (the built binary, scripts/), of the image's
  CPython (pyenv, which runs the prayer-time oracles) or of the temporary directory (scripts the tests write).

Anything else — a program of a package that is installed here only by chance, or by hand — fails, with the
package that would cover it. Prints one line per package used, then the verdict; exits 1 on a failure.
"""
import os
import re
import subprocess
import sys
import tempfile

EXEC = re.compile(r'^\d+\s+(?:execve|execveat)\((?:[A-Z_]+, )?"((?:[^"\\]|\\.)*)".* = 0$')


def started_programs(trace_path):
    programs = set()
    with open(trace_path, errors="replace") as trace:
        for line in trace:
            match = EXEC.match(line.strip())
            if match:
                programs.add(match.group(1).encode().decode("unicode_escape"))
    return programs


def interpreter(path):
    """The program named on a script's #! line, or None."""
    try:
        with open(path, "rb") as script:
            first = script.readline(256)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode(errors="replace").split()
    return words[0] if words else None


def listed_packages(list_path):
    packages = []
    with open(list_path) as listing:
        for line in listing:
            words = line.split()
            if words and not words[0].startswith("#"):
                packages.append(words[0])
    return packages


def closure(packages):
    """The listed packages and everything apt installs with them, whatever the recommendations."""
    answer = subprocess.run(
        ["apt-cache", "depends", "--recurse", "--installed", "--no-recommends", "--no-suggests", "--no-conflicts",
         "--no-breaks", "--no-replaces", "--no-enhances", *packages],
        capture_output=True, text=True, check=True)
    return {line.strip().split(":")[0] for line in answer.stdout.splitlines()
            if line and not line.startswith(" ") and not line.startswith("<")}


def base_packages():
    """The packages every Debian system has: Essential, or of Priority required (what debootstrap's minbase
    installs)."""
    answer = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Essential} ${Priority}\n"],
                            capture_output=True, text=True, check=True)
    return {words[0] for words in map(str.split, answer.stdout.splitlines())
            if len(words) == 3 and (words[1] == "yes" or words[2] == "required")}


def spellings(path):
    """`path` and its /usr-merged twin: dpkg knows /bin/mount, the trace shows /usr/bin/mount."""
    for prefix in ("/usr/bin/", "/usr/sbin/", "/usr/lib/", "/usr/lib64/"):
        if path.startswith(prefix):
            return [path, path[len("/usr"):]]
    for prefix in ("/bin/", "/sbin/", "/lib/", "/lib64/"):
        if path.startswith(prefix):
            return [path, "/usr" + path]
    return [path]


def owners(paths):
    """The Debian package that owns each path that one does, in one query of dpkg's database."""
    candidates = sorted({spelling for path in paths for spelling in spellings(path)})
    answer = subprocess.run(["dpkg-query", "-S", *candidates], capture_output=True, text=True)
    owned = {}
    for line in answer.stdout.splitlines():
        if line.startswith("diversion "):
            continue
        names, _, file = line.partition(": ")
        owned[file.strip()] = names.split(",")[0].split(":")[0].strip()
    return {path: next((owned[s] for s in spellings(path) if s in owned), None) for path in paths}


def main():
    trace_path, list_path, repository = sys.argv[1:4]
    roots = {
        "/opt/swift/": "the Swift toolchain",
        os.path.realpath(repository) + "/": "this repository",
        os.path.realpath(tempfile.gettempdir()) + "/": "a script a test wrote",
    }
    pyenv = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    roots[os.path.realpath(pyenv) + "/"] = "the image's CPython (pyenv)"

    programs = set()
    pending = sorted(started_programs(trace_path))
    while pending:
        path = os.path.realpath(pending.pop())
        if path in programs:
            continue
        programs.add(path)
        named = interpreter(path)
        if named:
            pending.append(named)
    if not programs:
        print("check-programs: the trace holds no program; was it written?", file=sys.stderr)
        return 1

    listed = listed_packages(list_path)
    covered = closure(listed)
    base = base_packages()
    by_package, outside, uncovered = {}, [], []
    package_of = owners([path for path in programs if not any(path.startswith(root) for root in roots)])
    for path in sorted(programs):
        root = next((root for root in roots if path.startswith(root)), None)
        if root:
            by_package.setdefault(f"({roots[root]})", []).append(path)
            continue
        package = package_of[path]
        if package is None:
            outside.append(path)
        elif package in listed or package in covered or package in base:
            by_package.setdefault(package, []).append(path)
        else:
            uncovered.append((path, package))

    for package, paths in sorted(by_package.items()):
        how = "listed" if package in listed else "base system" if package in base else \
            "a dependency" if package in covered else "not a package"
        print(f"check-programs: {package} ({how}): {' '.join(os.path.basename(path) for path in paths[:8])}"
              + (f" and {len(paths) - 8} more" if len(paths) > 8 else ""))
    for path, package in uncovered:
        print(f"check-programs: {path} comes from the Debian package {package}, which {list_path} does not cover "
              f"(neither listed nor a dependency of a listed one): a new machine would not have it", file=sys.stderr)
    for path in outside:
        print(f"check-programs: {path} belongs to no Debian package and lies outside the toolchain, the repository "
              f"and the temporary directory: a new machine would not have it", file=sys.stderr)
    if uncovered or outside:
        return 1
    print(f"check-programs: {len(programs)} programs started by the tests, all covered by {list_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
