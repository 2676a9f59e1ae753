// swift-tools-version:6.1
import PackageDescription

/// libFuzzer targets for vow: scripts/fuzz builds these libraries instrumented
/// (-sanitize=fuzzer,address) and links each target with libFuzzer's main.
/// vow's own sources are symbolic links into the main package.
let package = Package(
    name: "vow-fuzz",
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.26.0"),
    ],
    targets: [
        .target(name: "VowPromises"),
        .target(name: "JMESPath"),
        .target(name: "VowValue", dependencies: ["JMESPath", "VowPromises"]),
        .target(name: "VowSyntax"),
        .target(
            name: "VowHTTP",
            dependencies: [
                "VowPromises", "VowValue", "CBrotli", "CZlib",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ]
        ),
        .target(name: "VowRuntime", dependencies: ["VowPromises", "VowSyntax", "VowValue", "VowHTTP", "JMESPath", "CStack"]),
        .systemLibrary(name: "CStack"),
        .systemLibrary(name: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlidec", providers: [.apt(["libbrotli-dev"])]),
        .target(name: "VowShell", dependencies: ["VowRuntime", "VowSyntax", "VowPromises", "CEditLine"]),
        .target(name: "FuzzJSON", dependencies: ["VowValue"]),
        .target(name: "FuzzJMESPath", dependencies: ["JMESPath", "VowValue"]),
        .target(name: "FuzzParser", dependencies: ["VowSyntax"]),
        .target(name: "FuzzEvaluator", dependencies: ["VowShell", "VowRuntime", "VowSyntax", "VowValue"]),
    ]
)
