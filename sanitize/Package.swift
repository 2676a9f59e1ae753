// swift-tools-version:6.1
import PackageDescription

/// The promise core alone, for the ThreadSanitizer run of scripts/test: it builds in seconds
/// because it has none of vow's other dependencies. Its sources are symbolic links into the
/// main package.
let package = Package(
    name: "vow-sanitize",
    targets: [
        .target(name: "VowPromises", swiftSettings: [.define("VOW_PTHREAD_LOCKS")]),
        .testTarget(name: "VowPromisesTests", dependencies: ["VowPromises"]),
    ]
)
