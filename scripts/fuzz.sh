#!/bin/sh
# Long fuzzing run: the deterministic mutation fuzzer (Tests/NudgeCoreTests/Decoding/MutationFuzzTests.swift) in a release
# build, then the libFuzzer harnesses (Fuzz/) for a bounded time each, if the toolchain can build them.
#
#   scripts/fuzz.sh                       # 200,000 mutants in 4 shards, then 60 s per libFuzzer harness
#   FUZZ_ITERATIONS=20000 FUZZ_SECONDS=10 scripts/fuzz.sh
#
# Environment:
#   FUZZ_ITERATIONS  mutants in total (default 200000), split into FUZZ_SHARDS processes (default 4), so a trap
#                    (which kills the test process) loses one shard, and its input is printed from the last case
#   FUZZ_SEED        seed of the mutation fuzzer (default: the one `swift test` uses)
#   FUZZ_SHARD_TIMEOUT  seconds before a shard counts as hung (default 1800)
#   FUZZ_SECONDS     libFuzzer time per harness (default 60); 0 skips libFuzzer
#   FUZZ_SCRATCH     SwiftPM scratch path for the release build (default .build-fuzz/swiftpm)
# Results: a summary at the end; failing inputs in .build-fuzz/artifacts/. Exit 1 if anything failed.
set -u

cd "$(dirname "$0")/.."
ITERATIONS=${FUZZ_ITERATIONS:-200000}
SHARDS=${FUZZ_SHARDS:-4}
SECONDS_PER_HARNESS=${FUZZ_SECONDS:-60}
SCRATCH=${FUZZ_SCRATCH:-.build-fuzz/swiftpm}
SHARD_TIMEOUT=${FUZZ_SHARD_TIMEOUT:-1800}
OUT=.build-fuzz
ARTIFACTS=$OUT/artifacts
LOGS=$OUT/logs
mkdir -p "$ARTIFACTS" "$LOGS"
if [ -n "${FUZZ_SEED:-}" ]; then
    NUDGE_FUZZ_SEED=$FUZZ_SEED
    export NUDGE_FUZZ_SEED
fi
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    PATH=/opt/swift/usr/bin:$PATH
    export PATH
fi
failed=0
summary=""
note() { summary="$summary
$*"; }

# ---------------------------------------------------------------------------------------------------------------
# 1. The mutation fuzzer, release build (`@testable import` needs -enable-testing).
SWIFT_TEST="swift test -c release --scratch-path $SCRATCH -Xswiftc -enable-testing"
echo "fuzz: building the tests (release)"
attempt=1
until swift build -c release --scratch-path "$SCRATCH" -Xswiftc -enable-testing --build-tests >"$LOGS/build.log" 2>&1; do
    # Someone saving a source file mid-build is not a failure: build again.
    if [ "$attempt" -lt 3 ] && grep -q "was modified during the build" "$LOGS/build.log"; then
        attempt=$(( attempt + 1 ))
        sleep 5
        continue
    fi
    tail -30 "$LOGS/build.log"
    echo "fuzz: the release build failed (see $LOGS/build.log)"
    exit 1
done

per_shard=$(( (ITERATIONS + SHARDS - 1) / SHARDS ))
executed=0
crashes=0
partial=0
max_case=0
shard=0
started=$(date +%s)
while [ "$shard" -lt "$SHARDS" ]; do
    start=$(( shard * per_shard ))
    count=$per_shard
    [ $(( start + count )) -gt "$ITERATIONS" ] && count=$(( ITERATIONS - start ))
    [ "$count" -le 0 ] && break
    log=$LOGS/shard-$shard.log
    echo "fuzz: shard $shard: iterations $start..$(( start + count - 1 ))"
    NUDGE_FUZZ_START=$start NUDGE_FUZZ_ITERATIONS=$count NUDGE_FUZZ_LAST_CASE=$OUT/last-case-$shard.txt \
        NUDGE_FUZZ_ARTIFACTS=$ARTIFACTS timeout "$SHARD_TIMEOUT" $SWIFT_TEST --skip-build \
        --filter MutationFuzzTests.testMutatedFilesThroughWholePipeline >"$log" 2>&1
    status=$?
    grep -A6 "^MutationFuzzTests:" "$log" | grep -v "^--"
    done_cases=$(sed -n 's/^MutationFuzzTests: \([0-9]*\) mutants.*/\1/p' "$log" | tail -1)
    if [ -n "$done_cases" ]; then
        executed=$(( executed + done_cases ))
        p=$(sed -n 's/.*partial\/torn applications \([0-9]*\).*/\1/p' "$log" | tail -1)
        partial=$(( partial + ${p:-0} ))
        m=$(sed -n 's/.*, max \([0-9.]*\) s (.*/\1/p' "$log" | tail -1)
        max_case=$(printf '%s\n%s\n' "$max_case" "${m:-0}" | sort -g | tail -1)
    fi
    if [ "$status" -eq 124 ]; then
        crashes=$(( crashes + 1 ))
        failed=1
        echo "fuzz: shard $shard HUNG (no end after ${SHARD_TIMEOUT}s); the case it was running:"
        cat "$OUT/last-case-$shard.txt"
    elif [ -z "$done_cases" ]; then
        crashes=$(( crashes + 1 ))
        failed=1
        echo "fuzz: shard $shard CRASHED (exit $status); the case it was running:"
        cat "$OUT/last-case-$shard.txt"
        grep -E "Fatal error|Crash|error:" "$log" | head -5
    elif [ "$status" -ne 0 ]; then
        failed=1
        echo "fuzz: shard $shard found broken invariants:"
        grep -E "error: |broken: |input: " "$log" | head -30
    fi
    shard=$(( shard + 1 ))
done
elapsed=$(( $(date +%s) - started ))

echo "fuzz: truncation sweep, regression inputs and each setting broken alone (release, full-size hostile inputs)"
FIXED='MutationFuzzTests.test(TruncationAtEveryOffset|RegressionAndHostileInputs|EachSettingBrokenAloneFallsBackAlone)'
NUDGE_FUZZ_ARTIFACTS=$ARTIFACTS $SWIFT_TEST --skip-build --filter "$FIXED" >"$LOGS/fixed.log" 2>&1
status=$?
grep -E "^MutationFuzzTests:|^  time per case|Executed [0-9]+ tests" "$LOGS/fixed.log" | head -8
if [ "$status" -ne 0 ]; then
    failed=1
    grep -E "error: |broken: " "$LOGS/fixed.log" | head -20
fi
note "mutation fuzzer: $executed of $ITERATIONS mutants executed in ${elapsed}s, crashes/hangs $crashes," \
    "partial/torn applications $partial, max time per case ${max_case}s"

# ---------------------------------------------------------------------------------------------------------------
# 2. libFuzzer, if the toolchain builds the harnesses (-sanitize=fuzzer on Linux).
if [ "$SECONDS_PER_HARNESS" -gt 0 ]; then
    if Fuzz/build.sh; then
        for harness in json pipeline; do
            corpus=$OUT/corpus-$harness
            mkdir -p "$corpus"
            log=$LOGS/libfuzzer-$harness.log
            before=$(ls "$ARTIFACTS" | grep -c -E '^(crash|timeout|oom|slow-unit)-' || true)
            echo "fuzz: libFuzzer $harness-fuzzer for ${SECONDS_PER_HARNESS}s (seeds: data/)"
            # Leak checking is off: Swift's lazily initialised globals look like leaks to LeakSanitizer.
            ASAN_OPTIONS=detect_leaks=0 "$OUT/$harness-fuzzer" -max_total_time="$SECONDS_PER_HARNESS" \
                -max_len=16384 -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
                -artifact_prefix="$ARTIFACTS/$harness-" "$corpus" data/ >"$log" 2>&1
            status=$?
            after=$(ls "$ARTIFACTS" | grep -c -E '^(crash|timeout|oom|slow-unit)-' || true)
            runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -1)
            last=$(grep -E '^#[0-9]+' "$log" | grep 'cov:' | tail -1)
            cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
            ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
            found=$(( ${after:-0} - ${before:-0} ))
            echo "  $last"
            if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
                failed=1
                grep -E "ERROR|Fatal error|SUMMARY|Test unit written" "$log" | head -8
            fi
            note "libFuzzer $harness-fuzzer: ${runs:-?} executions in ${SECONDS_PER_HARNESS}s, cov ${cov:-?}," \
                "ft ${ft:-?}, crashes $found (exit $status; corpus $corpus)"
        done
    else
        note "libFuzzer: the harnesses did not build (see $OUT/*.log)"
    fi
fi

echo
echo "fuzz: summary$summary"
[ "$failed" -eq 0 ] && echo "fuzz: no failures" || echo "fuzz: FAILURES (inputs in $ARTIFACTS, logs in $LOGS)"
exit $failed
