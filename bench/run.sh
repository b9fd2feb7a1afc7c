#!/usr/bin/env bash
# nudge's benchmark (README "Performance"): builds the release binary, installs Remind from Debian's packages
# if it is missing, generates the fixtures and prints every ratio, peak memory and the --linger accuracy.
#   bench/run.sh [--pairs N] [--skip-linger]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v remind >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq remind
fi
[ -x /usr/bin/time ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time; }
# The install build of the README: release, statically linked against the Swift runtime and Foundation, which
# halves start-up (about 5 ms to 2.5 ms on the 2-core machine).
swift build -c release --static-swift-stdlib >/dev/null
exec python3 bench/bench.py .build/release/nudge "$@"
