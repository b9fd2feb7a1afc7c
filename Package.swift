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
        // glibc's <malloc.h>, for one mallopt call at start-up (Sources/nudge/main.swift).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .executableTarget(name: "nudge", dependencies: ["NudgeCore", "CMalloc"]),
        .testTarget(name: "NudgeCoreTests", dependencies: ["NudgeCore"]),
        .testTarget(name: "nudgeTests", dependencies: ["nudge"]),
    ]
)
