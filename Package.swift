// swift-tools-version:5.10
import PackageDescription

/// How the Swift runtime reaches type metadata, for a run that lasts about a millisecond. Concrete generic types
/// (Array<Pet>, Optional<RunState>, …) are reached through their metadata accessors, which pass the conformances
/// they need, instead of by mangled name (which demangles each type on first use and looks every Hashable/…
/// conformance up by scanning all the binary's conformance records); `-disable-type-layout` emits copies of big
/// values inline instead of through value witnesses whose metadata must be built first; `-cross-module-optimization`
/// lets `nudge` specialize NudgeCore's generics. Without them on NudgeCore a quiet minute of the example household
/// costs about a third more instructions, over the goal of 1.6 M (docs/performance.md). They are unsafe flags:
/// SwiftPM does not let another package depend on NudgeCore while it has them.
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
