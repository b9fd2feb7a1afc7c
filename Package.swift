// swift-tools-version:5.10
import PackageDescription

/// Concrete generic types (Array<Pet>, Dictionary<Thread, Int>, Optional<RunState>, …) are reached through their
/// metadata accessors, which pass the conformances they need, instead of by mangled name: by name, the runtime
/// demangles each type on first use and looks every Hashable/… conformance up by scanning all ~3,400 conformance
/// records of the binary (~190 k instructions a miss). Measured on `nudge run`: 2.72 M → 1.94 M instructions.
///
/// `-disable-type-layout`: copies and destroys of big values (`(RunState?, RunState?)`, `Optional<Game>`, …) are
/// emitted inline, not through the type's value witnesses, which first needs its metadata built (1.87 M → 1.81 M).
/// `-cross-module-optimization`: `nudge` specializes NudgeCore's generics (UserFileMap<Data>, …) instead of calling
/// their unspecialized bodies, which build metadata for each type argument (1.81 M → 1.78 M).
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
