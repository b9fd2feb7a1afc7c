#!/bin/sh
# Builds the libFuzzer harnesses into .build-fuzz/ (ignored by git through `.build-*/`).
#
#   Fuzz/build.sh [all|json|pipeline]     # default: both harnesses
#   Fuzz/build.sh check                   # type-check both against the current sources (no sanitizers, quick)
#   .build-fuzz/json-fuzzer -max_total_time=60 .build-fuzz/corpus-json data/
#   .build-fuzz/pipeline-fuzzer -max_total_time=60 .build-fuzz/corpus-pipeline data/
#
# They are not SwiftPM targets: swiftc compiles the product sources together with the harness in one module,
# with `-sanitize=fuzzer,address` (libFuzzer + AddressSanitizer, both shipped in the Swift toolchain for Linux).
# Exit status: 0 when both built, 1 otherwise (with the compiler's message).
set -eu

cd "$(dirname "$0")/.."
SWIFTC=${SWIFTC:-swiftc}
if [ -x /opt/swift/usr/bin/swiftc ] && ! command -v "$SWIFTC" >/dev/null 2>&1; then
    SWIFTC=/opt/swift/usr/bin/swiftc
fi
OUT=.build-fuzz
mkdir -p "$OUT"

# lld links without gold's flood of "Cannot export local symbol" warnings for the ASan runtime.
FLAGS="-sanitize=fuzzer,address -parse-as-library -O -g"
if "$SWIFTC" -use-ld=lld -version >/dev/null 2>&1 && command -v ld.lld >/dev/null 2>&1 \
    || [ -x "$(dirname "$(command -v "$SWIFTC")")/ld.lld" ]; then
    FLAGS="$FLAGS -use-ld=lld"
fi

build() {
    name=$1
    shift
    echo "fuzz/build: $name"
    if [ "$which" = check ]; then
        if ! "$SWIFTC" -typecheck -parse-as-library -package-name nudge -module-name "$(echo "$name" | tr -d '-')" "$@" \
            >"$OUT/$name.log" 2>&1; then
            tail -20 "$OUT/$name.log"
            echo "fuzz/build: $name does not type-check against the current sources"
            return 1
        fi
        return 0
    fi
    if ! "$SWIFTC" $FLAGS -package-name nudge -module-name "$(echo "$name" | tr -d '-')" "$@" -o "$OUT/$name" >"$OUT/$name.log" 2>&1; then
        grep -v "Cannot export local symbol" "$OUT/$name.log" | tail -20
        echo "fuzz/build: $name did not build (see $OUT/$name.log)"
        return 1
    fi
}

status=0
which=${1:-all}
case "$which" in
    all|json|pipeline|check) ;;
    *) echo "usage: Fuzz/build.sh [all|json|pipeline|check]" >&2; exit 2 ;;
esac
if [ "$which" = all ] || [ "$which" = json ] || [ "$which" = check ]; then
    # shellcheck disable=SC2046
    build json-fuzzer $(find Sources/NudgeCore -name '*.swift' | sort) Fuzz/JSONFuzzer/checks.swift \
        Fuzz/JSONFuzzer/main.swift || status=1
fi
if [ "$which" = all ] || [ "$which" = pipeline ] || [ "$which" = check ]; then
    # shellcheck disable=SC2046
    build pipeline-fuzzer $(find Sources/NudgeCore -name '*.swift' | sort) Fuzz/JSONFuzzer/checks.swift \
        Tests/NudgeCoreTests/Decoding/SettingsOracle.swift Fuzz/PipelineFuzzer/main.swift || status=1
fi
exit $status
