#!/usr/bin/env bash
# nudge's benchmark (docs/performance.md): builds the release binary, installs Remind from Debian's packages
# if it is missing, generates the fixtures and prints every ratio, peak memory, the --linger accuracy, the
# binary size and callgrind instruction counts, each with its goal.
#   bench/run.sh [--pairs N] [--skip-linger] [--skip-callgrind]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v remind >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq remind
fi
[ -x /usr/bin/time ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time; }
# The install build of the README: release and fully static (Swift runtime, Foundation and glibc), so the
# dynamic loader has no symbols to resolve: a start costs about what a C program's does (0.9 ms here, against
# 1.8 ms with only the Swift libraries static and 5 ms dynamic).
swift build -c release -Xswiftc -static-executable >/dev/null
exec python3 bench/bench.py .build/release/nudge "$@"
