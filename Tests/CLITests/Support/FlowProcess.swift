import Dispatch
import Foundation

/// What one run of the `flow` executable produced.
struct FlowResult: Sendable, CustomStringConvertible {
  var status: Int32
  var stdout: String
  var stderr: String

  /// Whether the status is one `flow` documents (0, 1, 2, 64) and nothing trapped.
  var endedCleanly: Bool { [0, 1, 2, 64].contains(status) && !stderr.contains("Fatal error") }

  var description: String { "exit \(status)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)" }
}

/// Runs the built `flow` binary as a child process.
///
/// The binary is `$FLOW_BINARY` if set, else the `flow` next to the running test bundle (the
/// directory of `CommandLine.arguments[0]` or of the `.xctest` bundle). It runs in the package
/// root, so tests pass paths like `Examples/calculator.flow.json` and diagnostics stay stable.
/// Standard output and error go to temporary files (no pipe can fill up and block the child);
/// standard input is `stdin` or the null device, so a run never waits on the terminal.
enum FlowProcess {
  /// How long one run may take before it is killed (a hang fails the test, never the suite).
  static let timeout: DispatchTimeInterval = .seconds(120)

  /// The `flow` executable, or `nil` if it cannot be found.
  static let binary: URL? = locateBinary()

  static func locateBinary() -> URL? {
    let fileManager = FileManager.default
    if let path = ProcessInfo.processInfo.environment["FLOW_BINARY"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    var directories: [URL] = []
    if let first = CommandLine.arguments.first {
      directories.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
    }
    for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    directories.append(Bundle.main.bundleURL)
    // `.../debug/FlowRuntimePackageTests.xctest/Contents/MacOS/FlowRuntimePackageTests` on macOS.
    if let first = CommandLine.arguments.first,
      let range = first.range(of: ".xctest/", options: .backwards)
    {
      directories.append(URL(fileURLWithPath: String(first[..<range.lowerBound])).deletingLastPathComponent())
    }
    return directories.map { $0.appendingPathComponent("flow") }
      .first { fileManager.isExecutableFile(atPath: $0.path) }
  }

  /// Runs `flow` (or another program) with `arguments` in the package root.
  ///
  /// - Parameters:
  ///   - arguments: the arguments after the program name.
  ///   - stdin: text fed to standard input (`nil`: the null device).
  ///   - executable: the program to run instead of `flow`.
  /// - Returns: the exit status (128 + signal if it was killed) and everything it printed.
  /// - Throws: `FlowProcessError` if the binary is missing, or the error of launching it.
  static func run(_ arguments: [String], stdin: String? = nil, executable: URL? = nil) async throws -> FlowResult {
    guard let binary = executable ?? binary else { throw FlowProcessError.binaryNotFound }
    let fileManager = FileManager.default
    let scratch = fileManager.temporaryDirectory.appendingPathComponent("flow-cli-tests-\(UUID().uuidString)")
    try fileManager.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? fileManager.removeItem(at: scratch) }
    let outURL = scratch.appendingPathComponent("stdout")
    let errURL = scratch.appendingPathComponent("stderr")
    let inURL = scratch.appendingPathComponent("stdin")
    _ = fileManager.createFile(atPath: outURL.path, contents: nil)
    _ = fileManager.createFile(atPath: errURL.path, contents: nil)
    _ = fileManager.createFile(atPath: inURL.path, contents: Data((stdin ?? "").utf8))

    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = TestPaths.packageRoot
    let outHandle = try FileHandle(forWritingTo: outURL)
    let errHandle = try FileHandle(forWritingTo: errURL)
    let inHandle = stdin == nil ? FileHandle.nullDevice : try FileHandle(forReadingFrom: inURL)
    defer {
      try? outHandle.close()
      try? errHandle.close()
      if stdin != nil { try? inHandle.close() }
    }
    process.standardOutput = outHandle
    process.standardError = errHandle
    process.standardInput = inHandle

    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
      process.terminationHandler = { finished in
        let killed = finished.terminationReason == .uncaughtSignal
        continuation.resume(returning: killed ? 128 + finished.terminationStatus : finished.terminationStatus)
      }
      do {
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
        return
      }
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
        if process.isRunning { process.terminate() }
      }
    }
    let stdout = String(decoding: try Data(contentsOf: outURL), as: UTF8.self)
    let stderr = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
    return FlowResult(status: status, stdout: stdout, stderr: stderr)
  }
}

enum FlowProcessError: Error, CustomStringConvertible {
  case binaryNotFound

  var description: String {
    "cannot find the 'flow' executable next to the test bundle (\(CommandLine.arguments.first ?? "?")); "
      + "build it first or set FLOW_BINARY"
  }
}
