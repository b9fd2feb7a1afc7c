// swift-tools-version:5.10
import PackageDescription

let package = Package(
    name: "nudge",
    products: [
        .executable(name: "nudge", targets: ["nudge"]),
        .library(name: "NudgeCore", targets: ["NudgeCore"]),
    ],
    targets: [
        .target(name: "NudgeCore"),
        .executableTarget(name: "nudge", dependencies: ["NudgeCore"]),
        .testTarget(name: "NudgeCoreTests", dependencies: ["NudgeCore"]),
        .testTarget(name: "nudgeTests", dependencies: ["nudge"]),
    ]
)
