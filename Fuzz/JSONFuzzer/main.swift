// libFuzzer harness for the JSON reader (Sources/NudgeCore/JSON). Not a SwiftPM target: Fuzz/build.sh
// compiles it together with the reader's sources, so everything `internal` is in reach:
//
//   swiftc -sanitize=fuzzer,address -parse-as-library Sources/NudgeCore/JSON/*.swift \
//          Fuzz/JSONFuzzer/checks.swift Fuzz/JSONFuzzer/main.swift -o .build-fuzz/json-fuzzer
//
// For every input it checks (checks.swift) what Tests/NudgeCoreTests/MutationFuzzTests.swift checks for the parser:
// - parsing never traps and throws nothing but `JSONSyntaxError`;
// - an error's line is 1 ... (number of LF) + 1, its column 1 ... (bytes on that line) + 1, and it says something;
// - a document that parses is written back (pretty and compact) as text that parses to the same value, and
//   writing is idempotent (pretty → parse → pretty gives the same bytes).
// A broken check calls `fatalError`, which libFuzzer reports as a crash and saves as `crash-<sha1>`.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func jsonFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    checkJSONReader(bytes)
    return 0
}
