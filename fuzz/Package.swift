// swift-tools-version:6.1
import PackageDescription

/// libFuzzer targets for vow's parsers: scripts/fuzz builds these libraries instrumented
/// (-sanitize=fuzzer,address) and links each target with libFuzzer's main.
/// Their sources are symbolic links into the main package.
let package = Package(
    name: "vow-fuzz",
    targets: [
        .target(name: "JMESPath"),
        .target(name: "VowValue", dependencies: ["JMESPath"]),
        .target(name: "VowSyntax"),
        .target(name: "FuzzJSON", dependencies: ["VowValue"]),
        .target(name: "FuzzJMESPath", dependencies: ["JMESPath", "VowValue"]),
        .target(name: "FuzzParser", dependencies: ["VowSyntax"]),
    ]
)
