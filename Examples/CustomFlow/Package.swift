// swift-tools-version:6.0
import PackageDescription

/// A `flow` tool of your own: every `flow` command, with the standard kinds plus `celsius`.
///
///     swift build --package-path Examples/CustomFlow
///     Examples/CustomFlow/.build/debug/custom-flow run Examples/CustomFlow/thermo.flow.json --all
let package = Package(
  name: "CustomFlow",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "FlowRuntime", path: "../..")],
  targets: [
    .executableTarget(
      name: "custom-flow",
      dependencies: [
        .product(name: "FlowCommandLine", package: "FlowRuntime"),
        .product(name: "FlowNodes", package: "FlowRuntime"),
        .product(name: "FlowRuntime", package: "FlowRuntime"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
