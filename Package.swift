// swift-tools-version:6.1
import PackageDescription

/// vow: an interactive shell for asynchronous work.
///
/// Data flows one way: text → tokens → syntax tree → promise chain → values/errors → terminal.
/// Each step is a target of its own so that its imports stay honest.
let package = Package(
    name: "vow",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vow", targets: ["vow"]),
        .library(name: "VowPromises", targets: ["VowPromises"]),
        .library(name: "JMESPath", targets: ["JMESPath"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.26.0"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.36.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        // OpenAPI 3.0 and 3.1 documents (`api add … --openapi`), without loading external
        // references (the trait that makes it build slower).
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", exact: "6.4.0", traits: []),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
    ],
    targets: [
        // The promise core: knows nothing of the language.
        .target(
            name: "VowPromises",
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
        ),
        // JMESPath, generic over a value protocol: knows nothing of vow. Its interpreter is
        // specialised on each host's value type in the host's module (cross-module optimisation).
        .target(
            name: "JMESPath",
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
        ),
        // The value model: Value, Record, VowError, JSON reading and printing, streams.
        .target(name: "VowValue", dependencies: ["JMESPath", "VowPromises"]),
        // Tokens, syntax tree, parser and diagnostics.
        .target(name: "VowSyntax"),
        // The HTTP engine: client, redirects, decoding, TLS options, cookies, proxies, downloads,
        // streamed bodies, errors. Knows values and promises, not the language.
        .target(
            name: "VowHTTP",
            dependencies: [
                "VowPromises", "VowValue", "JMESPath", "CBrotli", "CZlib",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ]
        ),
        // An API's description: its operations read from an OpenAPI 3.x or Swagger 2.0
        // document, JSON or YAML. Knows values, not the language.
        .target(
            name: "VowOpenAPI",
            dependencies: [
                "VowValue",
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The evaluator, the stages, tracing and the JavaScript twin. The twin's JavaScript is in
        // Teaching/twin/*.js, embedded at build time by EmbedJavaScriptPlugin.
        .target(
            name: "VowRuntime",
            dependencies: [
                "VowPromises", "VowSyntax", "VowValue", "VowHTTP", "VowOpenAPI", "JMESPath", "CStack",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Teaching/twin"],
            plugins: ["EmbedJavaScriptPlugin"]
        ),
        // Writes .js files into a Swift file of string constants, for the plugin below.
        .executableTarget(name: "EmbedJavaScript"),
        .plugin(name: "EmbedJavaScriptPlugin", capability: .buildTool(), dependencies: ["EmbedJavaScript"]),
        // libbrotli's decoder, through pkg-config, for `Content-Encoding: br`.
        // zlib, for the content codings that the HTTP transport leaves (a second gzip layer, a
        // download's body).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CBrotli",
            pkgConfig: "libbrotlidec",
            providers: [.apt(["libbrotli-dev"])]
        ),
        // libedit, through pkg-config.
        // The stack bounds of a thread, which a def nesting itself checks before going deeper.
        .systemLibrary(name: "CStack"),
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // The REPL, the line editor, rendering and meta-commands.
        .target(name: "VowShell", dependencies: ["VowRuntime", "VowSyntax", "VowPromises", "VowOpenAPI", "CEditLine"]),
        // The command line: argument parsing only.
        .executableTarget(
            name: "vow",
            dependencies: ["VowShell"],
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))],
            linkerSettings: [
                .unsafeFlags(
                    ["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                    .when(configuration: .release)
                )
            ]
        ),
        // Promise micro-benchmarks against Dispatch and SwiftNIO (run by scripts/bench).
        .executableTarget(
            name: "PromiseBench",
            dependencies: [
                "VowPromises",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // JMESPath benchmark cases, ns per evaluation (run by scripts/bench jmespath).
        .executableTarget(name: "JMESPathBench", dependencies: ["JMESPath", "VowValue"], path: "Benchmarks/JMESPathBench"),
        // The fixture server as a program, for scripts/bench http.
        .executableTarget(name: "FixtureServe", dependencies: ["TestSupport"], path: "Benchmarks/FixtureServe"),
        // forkpty, for driving the REPL through a real pseudo-terminal in tests.
        .target(name: "CPTY", path: "Tests/CPTY"),
        // A loopback HTTP fixture server that misbehaves on demand, and a pseudo-terminal driver,
        // shared by the tests.
        .target(
            name: "TestSupport",
            dependencies: [
                "CPTY",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "VowPromisesTests", dependencies: ["VowPromises"]),
        .testTarget(name: "JMESPathTests", dependencies: ["JMESPath", "VowValue"]),
        .testTarget(name: "VowValueTests", dependencies: ["VowValue", "JMESPath"]),
        .testTarget(name: "VowSyntaxTests", dependencies: ["VowSyntax"]),
        .testTarget(name: "VowHTTPTests", dependencies: ["VowHTTP", "VowValue", "VowPromises", "TestSupport"]),
        .testTarget(name: "VowRuntimeTests", dependencies: ["VowRuntime", "VowHTTP", "VowOpenAPI", "TestSupport"]),
        .testTarget(name: "VowShellTests", dependencies: ["VowShell", "VowHTTP", "TestSupport"]),
    ]
)
