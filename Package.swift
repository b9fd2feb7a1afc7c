// swift-tools-version:5.10
import PackageDescription

/// Concrete generic types (Array<Pet>, Dictionary<String, Date>, Optional<RunState>, …) are reached through their
/// metadata accessors, which pass the conformances they need, instead of by mangled name: by name, the runtime
/// demangles each type on first use and looks every Hashable/… conformance up by scanning all 1,953 conformance
/// records of the binary (~0.1 M instructions a miss). `nudge run` on bench/fixtures.py's example: 2.37 M → 1.86 M
/// instructions when it came; without it, today's code runs 1.80 M instead of 1.55 M.
///
/// `-disable-type-layout`: copies and destroys of big values (`(RunState?, RunState?)`, `Optional<Game>`, …) are
/// emitted inline, not through the type's value witnesses, which first needs its metadata built (1.64 M → 1.55 M).
/// `-cross-module-optimization`: `nudge` specializes NudgeCore's generics (UserFileMap<[UInt8]>, …) instead of calling
/// their unspecialized bodies, which build metadata for each type argument (1.61 M → 1.55 M).
let metadataAccess: [SwiftSetting] = [
    .unsafeFlags([
        "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",
        "-Xfrontend", "-disable-type-layout",
        "-cross-module-optimization",
    ]),
]

let package = Package(
    name: "nudge",
    products: [
        .executable(name: "nudge", targets: ["nudge"]),
        .library(name: "NudgeCore", targets: ["NudgeCore"]),
    ],
    targets: [
        .target(name: "NudgeCore", swiftSettings: metadataAccess),
        .executableTarget(name: "nudge", dependencies: ["NudgeCore"], swiftSettings: metadataAccess),
        .testTarget(name: "NudgeCoreTests", dependencies: ["NudgeCore"]),
        .testTarget(name: "nudgeTests", dependencies: ["nudge"]),
    ]
)
