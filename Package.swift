// swift-tools-version:6.0
import PackageDescription

/// Internal consistency checks (`_checkInvariants()`) run in debug builds, which is what
/// `swift test` uses; release builds (`flow-bench`, `flow` in production) leave them out.
let internalChecks: [SwiftSetting] = [.define("FLOW_INTERNAL_CHECKS", .when(configuration: .debug))]

let package = Package(
  name: "FlowRuntime",
  // `Synchronization` (`Mutex`, `Atomic`) needs these; Linux has no minimum.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "FlowGraph", targets: ["FlowGraph"]),
    .library(name: "FlowRuntime", targets: ["FlowRuntime"]),
    .library(name: "FlowNodes", targets: ["FlowNodes"]),
    .library(name: "FlowLayout", targets: ["FlowLayout"]),
    .library(name: "FlowSQL", targets: ["FlowSQL"]),
    .library(name: "FlowCommandLine", targets: ["FlowCommandLine"]),
    .executable(name: "flow", targets: ["flow"]),
    .executable(name: "flow-bench", targets: ["flow-bench"]),
  ],
  targets: [
    // The one lock type (`Locked`), shared by FlowGraph and FlowHTTP; depends on no other target.
    .target(name: "FlowSupport", swiftSettings: internalChecks),
    .target(name: "FlowGraph", dependencies: ["FlowSupport"], swiftSettings: internalChecks),
    .target(name: "FlowRuntime", dependencies: ["FlowGraph"], swiftSettings: internalChecks),
    // Compression formats (gzip/DEFLATE), ours; depends on no other target.
    .target(name: "FlowCodecs", swiftSettings: internalChecks),
    .target(name: "FlowNodes", dependencies: ["FlowRuntime", "FlowCodecs"], path: "Nodes", swiftSettings: internalChecks),
    .target(name: "FlowSQL", dependencies: ["FlowNodes"], swiftSettings: internalChecks),
    .target(name: "FlowLayout", dependencies: ["FlowGraph", "FlowRuntime"], swiftSettings: internalChecks),
    // A small HTTP/1.1 server on POSIX sockets (`flow serve`); depends only on FlowSupport.
    .target(name: "FlowHTTP", dependencies: ["FlowSupport"], swiftSettings: internalChecks),
    .target(name: "FlowCommandLine", dependencies: ["FlowNodes", "FlowSQL", "FlowLayout", "FlowHTTP"],
            resources: [.copy("Serve/Page")], swiftSettings: internalChecks),
    .executableTarget(name: "flow", dependencies: ["FlowCommandLine"]),
    // Benchmarks and fuzz campaigns; the CSV differential oracle and `SeededRandom` come from test support.
    .executableTarget(name: "flow-bench", dependencies: ["FlowNodes", "FlowLayout", "FlowCommandLine", "FlowSQL", "FlowCodecs",
                                                         "FlowTestSupport", "FlowNodesTestSupport"]),
    // The example programs (README "Examples"); CLITests runs each and checks its output.
    .executableTarget(name: "example-embedding", dependencies: ["FlowNodes"], path: "Examples/Embedding"),
    .executableTarget(name: "example-custom-kind", dependencies: ["FlowNodes"], path: "Examples/CustomKind"),
    .executableTarget(name: "example-observe-values", dependencies: ["FlowNodes"], path: "Examples/ObserveValues"),
    // Test support in two parts, so FlowGraphTests links FlowGraph alone: the graph-only part,
    // and the kinds and engine helpers that need the node library.
    .target(name: "FlowTestSupport", dependencies: ["FlowGraph"], path: "Tests/FlowTestSupport"),
    .target(name: "FlowNodesTestSupport", dependencies: ["FlowNodes", "FlowTestSupport"], path: "Tests/FlowNodesTestSupport"),
    // A blocking HTTP client for the server's and `flow serve`'s tests.
    .target(name: "FlowHTTPTestSupport", dependencies: ["FlowHTTP"], path: "Tests/FlowHTTPTestSupport"),
    .testTarget(name: "FlowGraphTests", dependencies: ["FlowGraph", "FlowTestSupport"], exclude: ["Fixtures"]),
    .testTarget(name: "FlowSQLTests", dependencies: ["FlowSQL", "FlowTestSupport", "FlowNodesTestSupport"],
                exclude: ["Golden", "Fixtures"]),
    .testTarget(name: "FlowRuntimeTests", dependencies: ["FlowRuntime", "FlowTestSupport", "FlowNodesTestSupport"]),
    .testTarget(name: "FlowNodesTests", dependencies: ["FlowNodes", "FlowTestSupport", "FlowNodesTestSupport"]),
    .testTarget(name: "FlowLayoutTests", dependencies: ["FlowLayout", "FlowTestSupport", "FlowNodesTestSupport"]),
    .testTarget(name: "FlowHTTPTests", dependencies: ["FlowHTTP", "FlowTestSupport", "FlowHTTPTestSupport"]),
    .testTarget(name: "FlowCodecsTests", dependencies: ["FlowCodecs", "FlowTestSupport"]),
    .testTarget(name: "CLITests",
                dependencies: ["FlowCommandLine", "flow", "FlowTestSupport", "FlowNodesTestSupport", "FlowHTTPTestSupport", "example-embedding", "example-custom-kind",
                               "example-observe-values"],
                exclude: ["Fixtures", "Golden"]),
  ],
  swiftLanguageModes: [.v6]
)
